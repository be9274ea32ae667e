// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-authority: issues the AKC and CAP files of the project's stand-in
 * licence format and inspects them.  It plays both Intel (the root key that
 * certifies a licensor) and the licensor (who signs CAPs for one CPU).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "authority.h"
#include "cli/cli_option.h"
#include "util/util_array.h"

static const struct auth_command *const commands[] = {
	&auth_cmd_init,
	&auth_cmd_akc,
	&auth_cmd_cap,
	&auth_cmd_inspect,
};


static void print_main_help(void)
{
	size_t i;

	printf("Usage: sdsi-authority COMMAND [ARGS]\n\n"
	       "Issue and inspect AKC and CAP files in the sdsi project's stand-in\n"
	       "format (ECDSA P-384, SHA-384; see /usr/share/doc/sdsi-authority/formats.md,\n"
	       "docs/formats.md in the sources).\n\nCommands:\n");
	for (i = 0; i < UTIL_ARRAY_SIZE(commands); i++)
	{
		printf("  %-8s %s ", commands[i]->name, commands[i]->name);
		cli_doc_wrap(stdout, commands[i]->synopsis, 13 + (int)strlen(commands[i]->name));
	}
	printf("\nOptions:\n");
	auth_print_top_options();
	printf("\n'sdsi-authority COMMAND --help' describes one command.\n\n"
	       "Exit status, shared by the sdsi programs (/usr/share/doc/sdsi-authority/\n"
	       "exit-codes.md, docs/exit-codes.md in the sources):\n");
/* "  0  " and "  10 ": the meanings start in one column. */
#define PRINT_EXIT_STATUS(code, meaning) printf("  %-2d ", code); cli_doc_wrap(stdout, meaning, 5);
	SDSI_EXIT_STATUS_TABLE(PRINT_EXIT_STATUS)
#undef PRINT_EXIT_STATUS
}

int main(int argc, char **argv)
{
	size_t i;
	int rc;

	if (argc < 2) {
		print_main_help();
		return SDSI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_main_help();
		return SDSI_EXIT_OK;
	}
	/* The build makes the completion, the tests read the option list. */
	if (!strcmp(argv[1], "--dump-bash-completion")) {
		auth_print_completion(commands, UTIL_ARRAY_SIZE(commands));
		return SDSI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--dump-options")) {
		auth_print_option_list(commands, UTIL_ARRAY_SIZE(commands));
		return SDSI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		/* "NAME VERSION", the one form of the four programs. */
		printf("sdsi-authority %s\n", SDSI_VERSION);
		return SDSI_EXIT_OK;
	}
	for (i = 0; i < UTIL_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i]->name))
			continue;
		rc = commands[i]->run(commands[i], argc - 1, argv + 1);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			auth_error("writing the output failed: %s", strerror(errno));
			return SDSI_EXIT_INTERNAL;
		}
		return rc;
	}
	auth_error("unknown command '%s'; try 'sdsi-authority --help'", argv[1]);
	return SDSI_EXIT_USAGE;
}
