// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option table and command-line parsing.  Semantics follow the upstream tool:
 * getopt_long_only (one or two dashes), one command per run with the last
 * command option winning, -l without a device, every other command with -d.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "cli/cli_getopt.h"
#include "tool_options.h"
#include "util/util_array.h"

enum long_only_ids {
	OPT_JSON = 256,
	OPT_FORMAT,
	OPT_OUTPUT,
	OPT_ALL,
	OPT_FILE,
	OPT_GUID,
	OPT_DRY_RUN,
	OPT_FORCE,
	OPT_RETRY,
	OPT_SYSFS_ROOT,
	OPT_ATTEST,
	OPT_TRUST,
	OPT_DER,
	OPT_VERSION,
	OPT_DUMP_MAN,
	OPT_DUMP_COMPLETION,
};

const struct cli_option tool_options[] = {
	{ 'l', 'l', "list", NULL, CLI_ARG_NONE, NULL,
	  "list available On Demand devices" },
	{ 'i', 'i', "info", NULL, CLI_ARG_NONE, NULL,
	  "show socket information (the registers)" },
	{ 's', 's', "state", NULL, CLI_ARG_NONE, NULL,
	  "show state certificate" },
	{ 'm', 'm', "meter", NULL, CLI_ARG_NONE, NULL,
	  "show meter certificate (attested, refreshed every 8 hours)" },
	{ 'C', 'C', "meter_current", NULL, CLI_ARG_NONE, NULL,
	  "show current meter values (live, not attested)" },
	{ 'a', 'a', "akc", "FILE", CLI_ARG_FILE, NULL,
	  "provision socket with AKC FILE; --all -a FILE -c DIR --dry-run plans the CAPs as if the AKC were in place" },
	{ 'c', 'c', "cap", "FILE", CLI_ARG_FILE, NULL,
	  "provision socket with CAP FILE; with --all, FILE may be a directory of CAPs" },
	{ OPT_ATTEST, 0, "attest", "WHAT", CLI_ARG_WORDS, "get_digests get_certificate verify",
	  "the part's attestation service (SPDM, ENABLED_FEATURES bit 12): get_digests prints the SHA-384 digest of slot 0's certificate chain in hex, get_certificate writes the chain's bytes as the part sends them (with --der: its leaf certificate alone, DER), both as Intel's tool and verifying nothing; verify runs the whole flow against the trust anchors of --trust and prints every check, the verdict and, on failure, the first check that failed (exit 10); reads and signatures only, nothing written" },
	{ 'h', 'h', "help", NULL, CLI_ARG_NONE, NULL,
	  "show this help and exit" },
	{ OPT_VERSION, 0, "version", NULL, CLI_ARG_NONE, NULL,
	  "show the version and exit" },
	{ 'd', 'd', "devno", "DEVNO", CLI_ARG_DEVICE, NULL,
	  "On Demand device number N of intel_vsec.sdsi.N (not the socket ID)" },
	{ OPT_ALL, 0, "all", NULL, CLI_ARG_NONE, NULL,
	  "apply -i, -s, -m, -C, -a or -c to every On Demand device, all at once, printed in device order; with -c, each device gets the CAPs bound to its PPIN" },
	{ OPT_FILE, 0, "file", "PATH", CLI_ARG_FILE, NULL,
	  "decode a saved registers file or certificate instead of a device" },
	{ OPT_GUID, 0, "guid", "GUID", CLI_ARG_NONE, NULL,
	  "with --file and -i: the GUID of the socket the registers come from, v1 (0x006dd191, 72 bytes) or v2 (0xf210d9ef, 80 bytes); default: the size tells" },
	{ OPT_FORMAT, 0, "format", "FORMAT", CLI_ARG_WORDS, "text json prometheus",
	  "output format: text (the default), json, or prometheus (the text exposition format, with -i, -s, -m, -C or --attest verify and -d or --all; its metrics are listed in intel_sdsi(1))" },
	{ OPT_JSON, 0, "json", NULL, CLI_ARG_NONE, NULL,
	  "the same as --format json: JSON on stdout, errors included; diagnostics go to stderr" },
	{ OPT_OUTPUT, 0, "output", "FILE", CLI_ARG_FILE, NULL,
	  "with -l, -i, -s, -m, -C, --attest verify or --attest get_digests: write the output to FILE atomically (a temporary file in its directory, fsync, rename), so a reader never sees a partial file; a failed command leaves FILE as it was (--all writes its document, which names each device that failed, and --attest verify its verdict, also when the part failed attestation).  FILE must be missing or a regular file of text that holds no key (no PEM block, no key OpenSSL reads, encrypted or not); a binary file (an AKC, a CAP, a certificate) is replaced only with --force, a key or a symbolic link never; an existing FILE keeps its mode" },
	{ OPT_DRY_RUN, 0, "dry-run", NULL, CLI_ARG_NONE, NULL,
	  "with -a or -c: run every pre-flight check, show the decoded blob and each check's result, write nothing" },
	{ OPT_FORCE, 0, "force", NULL, CLI_ARG_NONE, NULL,
	  "with -a or -c: write even an AKC or CAP the state certificate shows is already provisioned; with --output: replace a FILE of binary data intel_sdsi did not write (never a key)" },
	{ OPT_RETRY, 0, "retry", "N", CLI_ARG_NONE, NULL,
	  "with -a or -c: retry the write, and the state certificate read that decides it, up to N times, 500 ms apart, while the mailbox is busy (at most 20)" },
	{ OPT_SYSFS_ROOT, 0, "sysfs-root", "DIR", CLI_ARG_FILE, NULL,
	  "look for devices under DIR: DIR/devices if it exists (DIR is then a bus directory, as sdsi-emu mount DIR serves), else DIR/bus/auxiliary/devices if it exists (a sysfs), else DIR itself; DIR must be a directory (else exit 2).  Outside /sys, no symbolic link is followed and every directory down to a device's must belong to root or you and be closed to others' writes (else exit 5); each attribute is opened in its device's directory, never through a link.  Default: $SDSI_SYSFS_ROOT, taken the same way, else /sys/bus/auxiliary/devices" },
	{ OPT_TRUST, 0, "trust", "FILE|DIR", CLI_ARG_FILE, NULL,
	  "with --attest verify: the attestation roots the owner trusts, a PEM file or a directory of PEM files; the chain must lead to one of them, never to a root the part sends.  Default: " SDSI_ATTEST_TRUST_DIR },
	{ OPT_DER, 0, "der", NULL, CLI_ARG_NONE, NULL,
	  "with --attest get_certificate: write the leaf certificate alone as DER, which openssl x509 -inform DER reads, instead of the SPDM chain" },
	{ 'v', 'v', "verbose", NULL, CLI_ARG_NONE, NULL,
	  "print what is read and checked on stderr" },
	{ 'q', 'q', "quiet", NULL, CLI_ARG_NONE, NULL,
	  "print nothing on stderr but errors (not the note that no device was found, which names the directory searched and, from /proc/modules, whether the driver is loaded)" },
	{ OPT_DUMP_MAN, 0, "dump-man", NULL, CLI_ARG_NONE, NULL, NULL },
	{ OPT_DUMP_COMPLETION, 0, "dump-bash-completion", NULL, CLI_ARG_NONE, NULL, NULL },
};

const char *const output_format_names[3] = { "text", "json", "prometheus" };
const char *const attest_action_names[3] = { "get_digests", "get_certificate", "verify" };

const unsigned int tool_option_count = UTIL_ARRAY_SIZE(tool_options);
CLI_GETOPT_FITS(tool_options);

/* The command an option gives; CMD_NONE: it modifies the command. */
enum command option_command(int id)
{
	switch (id) {
	case 'l':
		return CMD_LIST;
	case 'i':
		return CMD_INFO;
	case 's':
		return CMD_STATE;
	case 'm':
		return CMD_METER;
	case 'C':
		return CMD_METER_CURRENT;
	case 'a':
		return CMD_AKC;
	case 'c':
		return CMD_CAP;
	case OPT_ATTEST:
		return CMD_ATTEST;
	case 'h':
		return CMD_HELP;
	case OPT_VERSION:
		return CMD_VERSION;
	case OPT_DUMP_MAN:
		return CMD_DUMP_MAN;
	case OPT_DUMP_COMPLETION:
		return CMD_DUMP_COMPLETION;
	default:
		return CMD_NONE;
	}
}

static bool parse_count(const char *text, unsigned int *value)
{
	char *end;
	unsigned long v;

	if (!text[0] || text[0] < '0' || text[0] > '9')
		return false;
	v = strtoul(text, &end, 10);
	if (*end || v > MAX_BUSY_RETRIES)
		return false;
	*value = (unsigned int)v;
	return true;
}

/* v1, v2, or the GUID as the guid file shows it: the layouts intel_sdsi knows. */
static bool parse_guid(const char *text, uint32_t *guid)
{
	unsigned long v;
	char *end;

	if (!strcmp(text, "v1") || !strcmp(text, "v2")) {
		*guid = text[1] == '1' ? SDSI_GUID_V1 : SDSI_GUID_V2;
		return true;
	}
	if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X') || !text[2])
		return false;
	v = strtoul(text + 2, &end, 16);
	if (*end || text[2] == '-' || text[2] == '+' || text[2] == ' ' ||
	    v > UINT32_MAX || !sdsi_guid_layout((unsigned int)v))
		return false;
	*guid = (uint32_t)v;
	return true;
}

static bool parse_format(const char *text, enum output_format *format)
{
	for (unsigned int i = 0; i < 3; i++) {
		if (!strcmp(text, output_format_names[i])) {
			*format = (enum output_format)i;
			return true;
		}
	}
	return false;
}

static bool parse_attest(const char *text, enum attest_action *action)
{
	for (unsigned int i = 0; i < 3; i++) {
		if (!strcmp(text, attest_action_names[i])) {
			*action = (enum attest_action)i;
			return true;
		}
	}
	return false;
}

static int apply_option(const struct cli_option *opt, const char *arg, struct cli *cli,
			char *msg, unsigned long msglen)
{
	enum command command = option_command(opt->id);

	if (command != CMD_NONE) {
		cli->command = command;
		if (command == CMD_AKC || command == CMD_CAP)
			cli->blob_path = arg;
		if (command == CMD_AKC)
			cli->akc_path = arg;
		else if (command == CMD_CAP)
			cli->cap_path = arg;
		if (command == CMD_ATTEST && !parse_attest(arg, &cli->attest)) {
			cli_getopt_bad_value(msg, msglen, "--attest", arg,
					     "get_digests, get_certificate or verify");
			return -1;
		}
		return 0;
	}
	switch (opt->id) {
	case 'd':
		cli->devno = arg;
		break;
	case OPT_ALL:
		cli->all = true;
		break;
	case OPT_FILE:
		cli->file = arg;
		break;
	case OPT_GUID:
		if (!parse_guid(arg, &cli->guid)) {
			char expected[64];

			snprintf(expected, sizeof(expected), "v1, v2, 0x%08x or 0x%08x",
				 SDSI_GUID_V1, SDSI_GUID_V2);
			cli_getopt_bad_value(msg, msglen, "--guid", arg, expected);
			return -1;
		}
		break;
	case OPT_JSON:
		cli->format = FORMAT_JSON;
		break;
	case OPT_FORMAT:
		if (!parse_format(arg, &cli->format)) {
			cli_getopt_bad_value(msg, msglen, "--format", arg, "text, json or prometheus");
			return -1;
		}
		break;
	case OPT_OUTPUT:
		cli->output = arg;
		break;
	case OPT_DRY_RUN:
		cli->dry_run = true;
		break;
	case OPT_FORCE:
		cli->force = true;
		break;
	case OPT_RETRY:
		if (!parse_count(arg, &cli->busy_retries)) {
			char expected[64];

			snprintf(expected, sizeof(expected), "a count from 0 to %d", MAX_BUSY_RETRIES);
			cli_getopt_bad_value(msg, msglen, "--retry", arg, expected);
			return -1;
		}
		break;
	case OPT_SYSFS_ROOT:
		cli->sysfs_root = arg;
		break;
	case OPT_TRUST:
		cli->trust = arg;
		break;
	case OPT_DER:
		cli->der = true;
		break;
	case 'v':
		cli->verbose = true;
		break;
	case 'q':
		cli->quiet = true;
		break;
	}
	return 0;
}

/*
 * -a and -c together: the plan of a whole provisioning, each socket's CAPs
 * judged as if the AKC were in place.  Only as a dry run: a real run
 * provisions the AKC first (--all -a), then the CAPs (--all -c), each with
 * its own report and exit status.
 */
static int plan_both(struct cli *cli, char *msg, unsigned long msglen)
{
	if ((cli->command != CMD_AKC && cli->command != CMD_CAP) || !cli->akc_path ||
	    !cli->cap_path)
		return 0;
	if (!cli->all || !cli->dry_run) {
		snprintf(msg, msglen,
			 "-a with -c is a plan: only with --all and --dry-run (provision with --all -a FILE, then --all -c DIR)");
		return -1;
	}
	cli->command = CMD_CAP;
	cli->blob_path = cli->cap_path;
	cli->plan_akc = cli->akc_path;
	return 0;
}

/* Combinations that make no sense are refused instead of half-honoured. */
static int check_combination(const struct cli *cli, char *msg, unsigned long msglen)
{
	const bool provisioning = cli->command == CMD_AKC || cli->command == CMD_CAP;
	const bool reading = cli->command == CMD_INFO || cli->command == CMD_STATE ||
			     cli->command == CMD_METER || cli->command == CMD_METER_CURRENT;
	const bool attest = cli->command == CMD_ATTEST;
	const bool verify = attest && cli->attest == ATTEST_VERIFY;

	if (cli->command >= CMD_HELP)
		return 0;
	if (cli->verbose && cli->quiet)
		snprintf(msg, msglen, "-v and -q exclude each other");
	else if (cli->dry_run && !provisioning)
		snprintf(msg, msglen, "--dry-run applies to -a and -c only");
	else if (cli->force && !provisioning && !cli->output)
		snprintf(msg, msglen, "--force applies to -a, -c and --output only");
	else if (cli->busy_retries && !provisioning && !attest)
		snprintf(msg, msglen, "--retry applies to -a, -c and --attest only");
	else if (cli->all && !reading && !provisioning && !verify)
		snprintf(msg, msglen, "--all applies to -i, -s, -m, -C, -a, -c and --attest verify only");
	else if (cli->trust && !verify)
		snprintf(msg, msglen, "--trust applies to --attest verify only");
	else if (cli->der && !(attest && cli->attest == ATTEST_GET_CERTIFICATE))
		snprintf(msg, msglen, "--der applies to --attest get_certificate only");
	else if (cli->format == FORMAT_JSON && attest && !verify)
		snprintf(msg, msglen, "--json applies to --attest verify, not to --attest %s (its output is the part's bytes)",
			 attest_action_names[cli->attest]);
	else if (cli->file && !reading)
		snprintf(msg, msglen, "--file applies to -i, -s, -m and -C only");
	else if (cli->guid && (!cli->file || cli->command != CMD_INFO))
		snprintf(msg, msglen, "--guid applies to --file with -i only");
	else if (cli->file && (cli->all || cli->devno))
		snprintf(msg, msglen, "--file excludes -d and --all");
	else if (cli->all && cli->devno)
		snprintf(msg, msglen, "--all excludes -d");
	else if (cli->format == FORMAT_PROMETHEUS && (!(reading || verify) || cli->file))
		snprintf(msg, msglen, "--format prometheus applies to -i, -s, -m, -C and --attest verify with -d or --all");
	else if (cli->output && !reading && cli->command != CMD_LIST &&
		 !(attest && cli->attest != ATTEST_GET_CERTIFICATE))
		/*
		 * get_certificate's bytes are a certificate, which --output never
		 * replaces, even with --force (output_file.c): a second run would
		 * stop.  They go to stdout, for a redirection or a pipe.
		 */
		snprintf(msg, msglen, "--output applies to -l, -i, -s, -m, -C, --attest verify and --attest get_digests only");
	else if (cli->command == CMD_NONE && cli->devno)
		snprintf(msg, msglen, "No command specified");
	else if (cli->command != CMD_LIST && !cli->devno && !cli->all && !cli->file)
		snprintf(msg, msglen, "No device specified");
	else
		return 0;
	return -1;
}

int parse_cli(int argc, char **argv, struct cli *cli, char *msg, unsigned long msglen)
{
	/* As upstream: stop at the first argument, one or two dashes. */
	const struct cli_getopt_spec spec = { tool_options, tool_option_count, true, true };
	const struct cli_option *opt;
	int id;

	memset(cli, 0, sizeof(*cli));
	optind = 1;
	while ((id = cli_getopt(&spec, argc, argv, msg, msglen)) != -1) {
		if (id == CLI_GETOPT_ERROR)
			return -1;
		opt = cli_option_by_id(tool_options, tool_option_count, id);
		if (apply_option(opt, optarg, cli, msg, msglen))
			return -1;
	}
	if (optind < argc) {
		snprintf(msg, msglen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	cli->json = cli->format == FORMAT_JSON;
	return plan_both(cli, msg, msglen) ? -1 : check_combination(cli, msg, msglen);
}
