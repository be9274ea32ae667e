// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_sdsi: inspect and provision Intel On Demand sockets.  Parses the
 * command line, picks the output format and runs one command, its output on
 * stdout or atomically in --output FILE; the exit status is the class of the
 * first failure (exit_codes.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "docgen.h"
#include "output_file.h"
#include "sysfs_root.h"
#include "tool_error.h"

static enum sdsi_exit usage_error(struct output *out, const char *msg, bool json)
{
	util_scoped_error err = tool_error_new();

	sdsi_error_set(err, EINVAL, SDSI_ERR_USAGE, -1, "%s", msg);
	report_error(out, NULL, err);
	if (!json)
		print_usage(stderr);
	return SDSI_EXIT_USAGE;
}

/* --json (or --format json) must apply to usage errors too, even when parsing failed early. */
static bool json_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];

		if (!strcmp(a, "-json") || !strcmp(a, "-format=json") ||
		    (!strcmp(a, "-format") && i + 1 < argc && !strcmp(argv[i + 1], "json")))
			return true;
		if (!strcmp(argv[i], "--"))
			break;
	}
	return false;
}

static const struct output_ops *ops_for(enum output_format format)
{
	switch (format) {
	case FORMAT_JSON:
		return &json_output_ops;
	case FORMAT_PROMETHEUS:
		return &prometheus_output_ops;
	default:
		return &text_output_ops;
	}
}

/* The command's long option name: the command label of the Prometheus output. */
static const char *command_name(enum command cmd)
{
	for (unsigned int i = 0; i < tool_option_count; i++)
		if (option_command(tool_options[i].id) == cmd)
			return tool_options[i].name;
	return "";
}

/*
 * --output: the error of a file that cannot be written.  In Prometheus mode
 * on stderr only: metrics on stdout would look like a scrape that ran.
 */
static enum sdsi_exit output_failed(struct output *out, const struct sdsi_error *err)
{
	struct output text = *out;

	if (out->ops == &prometheus_output_ops)
		text.ops = &text_output_ops;
	return report_error(&text, NULL, err);
}

static enum sdsi_exit run(const struct cli *cli, struct output *out)
{
	switch (cli->command) {
	case CMD_LIST:
		return cmd_list(cli, out);
	case CMD_AKC:
	case CMD_CAP:
		return cli->all ? cmd_fleet_provision(cli, out) : cmd_provision(cli, out);
	case CMD_ATTEST:
		return cmd_attest(cli, out);
	default:
		return cmd_read(cli, out);
	}
}

int main(int argc, char **argv)
{
	struct output out = { .ops = &text_output_ops };
	struct output_file file;
	util_scoped_error err = tool_error_new();
	char msg[256];
	struct cli cli;
	enum sdsi_exit status;

	if (parse_cli(argc, argv, &cli, msg, sizeof(msg))) {
		if (json_requested(argc, argv))
			out.ops = &json_output_ops;
		return usage_error(&out, msg, json_requested(argc, argv));
	}
	out.ops = ops_for(cli.format);
	out.quiet = cli.quiet;
	out.verbose = cli.verbose;
	out.command = command_name(cli.command);
	if (cli.command >= CMD_LIST && cli.command <= CMD_ATTEST && !cli.file) {
		status = resolve_sysfs_root(&cli, &out);
		if (status != SDSI_EXIT_OK)
			return status;
	}

	switch (cli.command) {
	case CMD_HELP:
		print_help(stdout);
		return SDSI_EXIT_OK;
	case CMD_VERSION:
		/* "NAME VERSION", the one form of the four programs. */
		printf("intel_sdsi %s\n", SDSI_VERSION);
		return SDSI_EXIT_OK;
	case CMD_DUMP_MAN:
		print_man_page(stdout);
		return SDSI_EXIT_OK;
	case CMD_DUMP_COMPLETION:
		print_bash_completion(stdout);
		return SDSI_EXIT_OK;
	case CMD_NONE:
		return usage_error(&out, "No device specified", cli.json);
	default:
		break;
	}
	if (cli.output && output_file_begin(&file, cli.output, cli.force, err))
		return output_failed(&out, err);
	status = run(&cli, &out);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "intel_sdsi: writing the output failed: %s\n", strerror(errno));
		return SDSI_EXIT_INTERNAL;
	}
	if (!cli.output)
		return status;
	/*
	 * A failure leaves FILE exactly as it was, in every format; only --all's
	 * document, which holds every device's result (failures included), and
	 * an attestation verdict are written whatever the status: each is
	 * complete and says what failed.
	 */
	if (status != SDSI_EXIT_OK && !out.complete_document) {
		output_file_discard(&file);
		return status;
	}
	if (output_file_commit(&file, err))
		return output_failed(&out, err);
	return status;
}
