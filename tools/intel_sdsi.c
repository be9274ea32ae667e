// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_sdsi: inspect and provision Intel On Demand sockets.  Parses the
 * command line, picks the output format and runs one command; the exit
 * status is the class of the first failure (exit_codes.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "docgen.h"

static enum sdsi_exit usage_error(struct output *out, const char *msg, bool json)
{
	struct sdsi_error err = { .errnum = EINVAL, .cls = SDSI_ERR_USAGE, .offset = -1 };

	snprintf(err.message, sizeof(err.message), "%s", msg);
	report_error(out, NULL, &err);
	if (!json)
		print_usage(stderr);
	return SDSI_EXIT_USAGE;
}

/* --json must apply to usage errors too, even when parsing failed early. */
static bool json_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-json"))
			return true;
		if (!strcmp(argv[i], "--"))
			break;
	}
	return false;
}

int main(int argc, char **argv)
{
	struct output out = { .ops = &text_output_ops };
	char msg[256];
	struct cli cli;
	enum sdsi_exit status;

	if (parse_cli(argc, argv, &cli, msg, sizeof(msg))) {
		if (json_requested(argc, argv))
			out.ops = &json_output_ops;
		return usage_error(&out, msg, json_requested(argc, argv));
	}
	out.ops = cli.json ? &json_output_ops : &text_output_ops;
	out.quiet = cli.quiet;
	out.verbose = cli.verbose;

	switch (cli.command) {
	case CMD_HELP:
		print_help(stdout);
		return SDSI_EXIT_OK;
	case CMD_VERSION:
		printf("intel_sdsi (sdsi) %s\n", SDSI_VERSION);
		return SDSI_EXIT_OK;
	case CMD_DUMP_MAN:
		print_man_page(stdout);
		return SDSI_EXIT_OK;
	case CMD_DUMP_COMPLETION:
		print_bash_completion(stdout);
		return SDSI_EXIT_OK;
	case CMD_LIST:
		status = cmd_list(&cli, &out);
		break;
	case CMD_AKC:
	case CMD_CAP:
		status = cmd_provision(&cli, &out);
		break;
	case CMD_NONE:
		return usage_error(&out, "No device specified", cli.json);
	default:
		status = cmd_read(&cli, &out);
		break;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "intel_sdsi: writing the output failed: %s\n", strerror(errno));
		return SDSI_EXIT_INTERNAL;
	}
	return status;
}
