// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command-line plumbing shared by the subcommands: one option table per
 * command feeds both getopt_long and --help, so the two cannot disagree.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authority.h"
#include "cli/cli_getopt.h"
#include "util/util_escape.h"

static void print_option(const struct cli_option *opt)
{
	char left[64];
	int n;

	if (opt->short_name)
		n = snprintf(left, sizeof(left), "  -%c, --%s", opt->short_name, opt->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", opt->name);
	if (opt->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", opt->arg);
	printf("%-28s ", left);
	cli_doc_wrap(stdout, opt->help, 29);	/* within 80 columns */
}

void auth_print_help(const struct auth_command *cmd)
{
	int col = printf("Usage: sdsi-authority %s ", cmd->name);

	cli_doc_wrap(stdout, cmd->synopsis, col);
	printf("\n%s\n\nOptions:\n", cmd->summary);
	for (size_t i = 0; i < cmd->count; i++)
		print_option(&cmd->options[i]);
}

int auth_getopt(const struct auth_command *cmd, int argc, char **argv)
{
	const struct cli_getopt_spec spec = { cmd->options, cmd->count, false, false };
	char msg[256];
	int c = cli_getopt(&spec, argc, argv, msg, sizeof(msg));

	if (c == 'h') {
		auth_print_help(cmd);
		exit(SDSI_EXIT_OK);
	}
	if (c == CLI_GETOPT_ERROR) {
		auth_usage_error(cmd, "%s", msg);
		return '?';
	}
	return c;
}

int auth_usage_error(const struct auth_command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sdsi-authority %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'sdsi-authority %s --help'.\n", cmd->name);
	return SDSI_EXIT_USAGE;
}

int auth_bad_value(const struct auth_command *cmd, const char *option, const char *value,
		   const char *expected)
{
	char msg[512];

	cli_getopt_bad_value(msg, sizeof(msg), option, value, expected);
	return auth_usage_error(cmd, "%s", msg);
}

void auth_error(const char *fmt, ...)
{
	char *message;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&message, fmt, ap);
	va_end(ap);
	fputs("sdsi-authority: ", stderr);
	/* File names in the message: control characters escaped (util/util_escape.h). */
	if (n < 0) {
		fputs("out of memory", stderr);
	} else {
		util_fputs_text_name(message, stderr);
		free(message);
	}
	fputc('\n', stderr);
}
