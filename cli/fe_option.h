/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An option table, the one description of a program's options, for every
 * program (sdsi-emu, sdsi-shmem, intel_sdsi, sdsi-authority): getopt's
 * table (fe_getopt.h), --help, the bash completion, the man page or its
 * check are all made from it (fe_doc.c, and intel_sdsi's own page in
 * tools/intel_sdsi/docgen.c), so that none of them can leave an option out.
 */
#ifndef SDSI_FE_OPTION_H
#define SDSI_FE_OPTION_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the shell completes an option's argument with. */
enum fe_complete {
	FE_ARG_NONE,		/* a number or free text: nothing to offer */
	FE_ARG_FILE,
	FE_ARG_DIR,
	FE_ARG_WORDS,		/* one of fe_option.words */
	FE_ARG_DEVICE,		/* an On Demand device number, as present */
};

struct fe_option {
	int id;			/* getopt's value: a short letter, or >= 256 */
	char short_name;	/* 0: long form only */
	const char *name;	/* the long name, without dashes */
	const char *arg;	/* NULL: takes no argument */
	enum fe_complete complete;
	const char *words;	/* FE_ARG_WORDS: the words, blank-separated */
	const char *help;	/* NULL: hidden (build-time generators) */
};

/*
 * A positional argument the shell completes from a list: the index-th word
 * after word ("fault" and 2: the KIND of "fault N KIND").
 */
struct fe_positional {
	const char *word;
	unsigned int index;
	const char *words;	/* blank-separated */
};

/* One command of a program, or the program itself (name NULL). */
struct fe_command {
	const char *name;
	const char *synopsis;	/* what follows the command name */
	const char *summary;
	const struct fe_option *options;
	size_t count;
	const char *words;	/* positional words to offer, or NULL */
	const struct fe_positional *positional;	/* arguments of those words */
	size_t positional_count;
};

struct fe_program {
	const char *name;
	const struct fe_command *commands;
	size_t count;
};

/* The entry getopt returned id for, or NULL. */
const struct fe_option *fe_option_by_id(const struct fe_option *opts,
					size_t count, int id);

/*
 * text wrapped at word boundaries within 79 columns, every line after the
 * first indented to col; the first starts where the cursor is, at col.
 */
void fe_doc_wrap(FILE *f, const char *text, int col);

/* "-a, --akc FILE" or "--all": the option as --help names it. */
void fe_option_names(const struct fe_option *o, char *buf, size_t len);

/* "  LEFT                 text", the text wrapped under its column. */
void fe_doc_help_item(FILE *f, const char *left, const char *text);

/* "  -h, --help           text", wrapped under its column. */
void fe_doc_help_options(FILE *f, const struct fe_option *opts, size_t count);

/*
 * Every documented option, one a line: the command ("-" for none), then the
 * option as --help shows it ("run --sockets N"), for the doc tests.
 */
void fe_doc_list_options(FILE *f, const struct fe_program *prog);

/* A bash completion for the program: commands, options, their words. */
void fe_doc_bash_completion(FILE *f, const struct fe_program *prog);

#endif /* SDSI_FE_OPTION_H */
