// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bash completion and the option list of sdsi-authority, made by the
 * front end's generators (cli/fe_option.h) from the same option
 * tables that drive getopt and --help, so that none leaves an option out.
 */
#include <stdio.h>

#include "authority.h"
#include "fe_option.h"
#include "util/util_array.h"

#define MAX_COMMANDS	8

static const struct fe_option top[] = {
	{ 'h', 'h', "help", NULL, FE_ARG_NONE, NULL, "show the help and exit" },
	{ 256, 0, "version", NULL, FE_ARG_NONE, NULL, "show the version and exit" },
};

static struct fe_command commands[MAX_COMMANDS + 1];

/* The program: its own options, then each command's table as it is. */
static struct fe_program program(const struct auth_command *const *cmds, size_t count)
{
	size_t c;

	commands[0] = (struct fe_command){ NULL, "COMMAND [ARGS]", NULL, top, 2, NULL, NULL, 0 };
	for (c = 0; c < count && c < MAX_COMMANDS; c++)
		commands[c + 1] = (struct fe_command){
			cmds[c]->name, cmds[c]->synopsis, cmds[c]->summary, cmds[c]->options,
			cmds[c]->count, NULL, NULL, 0,
		};
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
	fe_doc_help_options(stdout, top, UTIL_ARRAY_SIZE(top));
}
