// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bash completion and the option list of sdsi-authority, made by the
 * front end's generators (cli/cli_option.h) from the same option
 * tables that drive getopt and --help, so that none leaves an option out.
 */
#include <stdio.h>

#include "authority.h"
#include "cli/cli_option.h"
#include "util/util_array.h"

#define MAX_COMMANDS	8

static const struct cli_option top[] = {
	{ 'h', 'h', "help", NULL, CLI_ARG_NONE, NULL, "show the help and exit" },
	{ 256, 0, "version", NULL, CLI_ARG_NONE, NULL, "show the version and exit" },
};

static struct cli_command commands[MAX_COMMANDS + 1];

/* The program: its own options, then each command's table as it is. */
static struct cli_program program(const struct auth_command *const *cmds, size_t count)
{
	size_t c;

	commands[0] = (struct cli_command){ NULL, "COMMAND [ARGS]", NULL, top, 2, NULL, NULL, 0 };
	for (c = 0; c < count && c < MAX_COMMANDS; c++)
		commands[c + 1] = (struct cli_command){
			cmds[c]->name, cmds[c]->synopsis, cmds[c]->summary, cmds[c]->options,
			cmds[c]->count, NULL, NULL, 0,
		};
	return (struct cli_program){ "sdsi-authority", commands, c + 1 };
}

void auth_print_completion(const struct auth_command *const *cmds, size_t count)
{
	struct cli_program p = program(cmds, count);

	cli_doc_bash_completion(stdout, &p);
}

void auth_print_option_list(const struct auth_command *const *cmds, size_t count)
{
	struct cli_program p = program(cmds, count);

	cli_doc_list_options(stdout, &p);
}

void auth_print_top_options(void)
{
	cli_doc_help_options(stdout, top, UTIL_ARRAY_SIZE(top));
}
