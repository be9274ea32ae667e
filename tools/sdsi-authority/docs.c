// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bash completion and the option list of sdsi-authority, made by the
 * front end's generators (frontend/fe_option.h) from the same option
 * tables that drive getopt and --help, so that none leaves an option out.
 */
#include <stdio.h>
#include <string.h>

#include "authority.h"
#include "fe_option.h"

#define MAX_COMMANDS	8
#define MAX_OPTIONS	16

/* cap --type's words: the codec's names of the two licence types. */
static const char *type_words(void)
{
	static char words[64];

	snprintf(words, sizeof(words), "%s %s", sdsi_license_type_name(SDSI_LICENSE_ONE_TIME),
		 sdsi_license_type_name(SDSI_LICENSE_METERED));
	return words;
}

/* What the shell should offer after an option, from its argument's name. */
static enum fe_complete complete_for(const char *arg)
{
	if (!arg)
		return FE_ARG_NONE;
	if (!strcmp(arg, "TYPE"))
		return FE_ARG_WORDS;
	if (!strcmp(arg, "DIR"))
		return FE_ARG_DIR;
	if (!strcmp(arg, "FILE"))
		return FE_ARG_FILE;
	return FE_ARG_NONE;
}

static const struct fe_option top[] = {
	{ 'h', 'h', "help", NULL, FE_ARG_NONE, NULL, "show the help and exit" },
	{ 256, 0, "version", NULL, FE_ARG_NONE, NULL, "show the version and exit" },
};

static struct fe_option tables[MAX_COMMANDS][MAX_OPTIONS + 1];
static struct fe_command commands[MAX_COMMANDS + 1];

/* The commands' tables in the front end's form, --help in each. */
static struct fe_program program(const struct auth_command *const *cmds, size_t count)
{
	size_t c;

	commands[0] = (struct fe_command){ NULL, "COMMAND [ARGS]", NULL, top, 2, NULL, NULL, 0 };
	for (c = 0; c < count && c < MAX_COMMANDS; c++) {
		const struct auth_option *o = cmds[c]->options;
		size_t n = 0;

		for (; o->name && n < MAX_OPTIONS; o++, n++)
			tables[c][n] = (struct fe_option){
				o->id, o->id < 256 ? (char)o->id : 0, o->name, o->arg,
				complete_for(o->arg),
				complete_for(o->arg) == FE_ARG_WORDS ? type_words() : NULL, o->help,
			};
		tables[c][n++] = top[0];
		commands[c + 1] = (struct fe_command){
			cmds[c]->name, cmds[c]->synopsis, cmds[c]->summary, tables[c], n, NULL,
			NULL, 0,
		};
	}
	return (struct fe_program){ "sdsi-authority", commands, c + 1 };
}

void auth_print_completion(const struct auth_command *const *cmds, size_t count)
{
	struct fe_program p = program(cmds, count);

	fe_doc_bash_completion(stdout, &p);
}

void auth_print_option_list(const struct auth_command *const *cmds, size_t count)
{
	struct fe_program p = program(cmds, count);

	fe_doc_list_options(stdout, &p);
}

void auth_print_top_options(void)
{
	fe_doc_help_options(stdout, top, sizeof(top) / sizeof(top[0]));
}
