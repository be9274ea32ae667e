/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An option table, the one description of a program's options, for every
 * program (sdsi-emu, sdsi-shmem, intel_sdsi, sdsi-authority): getopt's
 * table (cli_getopt.h), --help, the bash completion, the man page or its
 * check are all made from it (cli_doc.c, and intel_sdsi's own page in
 * tools/intel_sdsi/docgen.c), so that none of them can leave an option out.
 */
#ifndef SDSI_CLI_OPTION_H
#define SDSI_CLI_OPTION_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the shell completes an option's argument with. */
enum cli_complete {
	CLI_ARG_NONE,		/* a number or free text: nothing to offer */
	CLI_ARG_FILE,
	CLI_ARG_DIR,
	CLI_ARG_WORDS,		/* one of cli_option.words */
	CLI_ARG_DEVICE,		/* an On Demand device number, as present */
};

struct cli_option {
	int id;			/* getopt's value: a short letter, or >= 256 */
	char short_name;	/* 0: long form only */
	const char *name;	/* the long name, without dashes */
	const char *arg;	/* NULL: takes no argument */
	enum cli_complete complete;
	const char *words;	/* CLI_ARG_WORDS: the words, blank-separated */
	const char *help;	/* NULL: hidden (build-time generators) */
};

/*
 * A positional argument the shell completes from a list: the index-th word
 * after word ("fault" and 2: the KIND of "fault N KIND").
 */
struct cli_positional {
	const char *word;
	unsigned int index;
	const char *words;	/* blank-separated */
};

/* One command of a program, or the program itself (name NULL). */
struct cli_command {
	const char *name;
	const char *synopsis;	/* what follows the command name */
	const char *summary;
	const struct cli_option *options;
	size_t count;
	const char *words;	/* positional words to offer, or NULL */
	const struct cli_positional *positional;	/* arguments of those words */
	size_t positional_count;
};

struct cli_program {
	const char *name;
	const struct cli_command *commands;
	size_t count;
};

/* The entry getopt returned id for, or NULL. */
const struct cli_option *cli_option_by_id(const struct cli_option *opts,
					size_t count, int id);

/*
 * text wrapped at word boundaries within 79 columns, every line after the
 * first indented to col; the first starts where the cursor is, at col.
 */
void cli_doc_wrap(FILE *f, const char *text, int col);

/* "-a, --akc FILE" or "--all": the option as --help names it. */
void cli_option_names(const struct cli_option *o, char *buf, size_t len);

/* "  LEFT                 text", the text wrapped under its column. */
void cli_doc_help_item(FILE *f, const char *left, const char *text);

/* "  -h, --help           text", wrapped under its column. */
void cli_doc_help_options(FILE *f, const struct cli_option *opts, size_t count);

/*
 * Every documented option, one a line: the command ("-" for none), then the
 * option as --help shows it ("run --sockets N"), for the doc tests.
 */
void cli_doc_list_options(FILE *f, const struct cli_program *prog);

/* A bash completion for the program: commands, options, their words. */
void cli_doc_bash_completion(FILE *f, const struct cli_program *prog);

#endif /* SDSI_CLI_OPTION_H */
