// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's options: the one table that getopt, --help and the shell
 * completion are made from, and the checks across options.  The platform
 * options (sockets, BIOS settings, root key) are the front end's, shared
 * with sdsi-emu.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/exit_status.h"
#include "sdsi/window.h"
#include "cli/cli_getopt.h"
#include "shmem_options.h"
#include "util/util_array.h"

enum shmem_option_id {
	OPT_WINDOW = 'w', OPT_HELP = 'h',
	OPT_OFFSET = 256, OPT_BARID, OPT_CTL, OPT_IDLE_SLEEP, OPT_SPIN, OPT_DOORBELL,
	OPT_EXIT_WITH_PARENT, OPT_VERSION, OPT_DUMP_COMPLETION, OPT_DUMP_OPTIONS,
};

/* The one description of the options: getopt, --help and completion. */
static const struct cli_option option_table[] = {
	{ OPT_WINDOW, 0, "window", "FILE", CLI_ARG_FILE, NULL,
	  "the shared memory window: the guest's RAM file, /dev/sdsi_window, or any file (grown to fit)" },
	{ OPT_OFFSET, 0, "offset", "BYTES", CLI_ARG_NONE, NULL,
	  "where the window starts in FILE, in decimal or 0x hex, page-aligned (default 0)" },
	{ OPT_BARID, 0, "barid", "K", CLI_ARG_NONE, NULL,
	  "discovery tables of access type BARID: TBIR K (0-5), each region's offset from the window's start (rig/sdsi_window.c's barid=K lends a PCI BAR starting there); default LOCAL" },
	{ OPT_CTL, 0, "ctl", "SOCKET", CLI_ARG_FILE, NULL,
	  "also serve control requests on this Unix socket (sdsi-emu ctl's commands)" },
	CLI_PLATFORM_OPTION_ENTRIES
	{ OPT_IDLE_SLEEP, 0, "idle-sleep-us", "US", CLI_ARG_NONE, NULL,
	  "the nap once idle, 0 to 999999 (default 50)" },
	{ OPT_SPIN, 0, "spin", NULL, CLI_ARG_NONE, NULL,
	  "keep the CPU between passes while a transaction is under way (for a host-side poller that has a core to itself)" },
	{ OPT_DOORBELL, 0, "doorbell", NULL, CLI_ARG_NONE, NULL,
	  "no polling: a pass runs when the control page's doorbell rings (the sdsi-doorbell QEMU plugin rings it after each driver store); a store nobody rang for is counted as unannounced" },
	{ OPT_EXIT_WITH_PARENT, 0, "exit-with-parent", NULL, CLI_ARG_NONE, NULL,
	  "end the program, as SIGTERM does, when its parent process dies" },
	{ OPT_HELP, 'h', "help", NULL, CLI_ARG_NONE, NULL, "print this help and exit" },
	{ OPT_VERSION, 0, "version", NULL, CLI_ARG_NONE, NULL, "print the version and exit" },
	{ OPT_DUMP_COMPLETION, 0, "dump-bash-completion", NULL, CLI_ARG_NONE, NULL, NULL },
	{ OPT_DUMP_OPTIONS, 0, "dump-options", NULL, CLI_ARG_NONE, NULL, NULL },
};


CLI_GETOPT_FITS(option_table);

static const struct cli_command shmem_command = {
	NULL, "--window FILE [OPTIONS]", NULL, option_table, UTIL_ARRAY_SIZE(option_table), NULL, NULL, 0,
};

static const struct cli_program shmem_program = { SHMEM_PROGRAM, &shmem_command, 1 };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: sdsi-shmem --window FILE [OPTIONS]\n"
		"       sdsi-shmem --help | --version\n\n"
		"Play N On Demand sockets over a shared memory window.  The window\n"
		"holds N %u-byte socket slots from BYTES (--offset) into FILE, then the\n"
		"control page.  Control requests (the commands of sdsi-emu ctl) are\n"
		"served on the control page and, with --ctl, on a Unix socket.  Without\n"
		"--authority or --root-key the sockets trust no root key and refuse\n"
		"every AKC and CAP, as sdsi-emu does.  While a transaction is under\n"
		"way the poller yields the CPU between passes.\n\nOptions:\n",
		SDSI_WINDOW_SLOT_SIZE);
	cli_doc_help_options(out, option_table, UTIL_ARRAY_SIZE(option_table));
	/* As sdsi-shmem(1)'s EXIT STATUS; the codes are the shared table's. */
	fprintf(out,
		"\nExit status, from the table shared by the sdsi programs\n"
		"(/usr/share/doc/sdsi-emu/exit-codes.md; docs/exit-codes.md in the sources):\n"
		"  0  stopped by SIGINT or SIGTERM, or by its parent's end with\n"
		"     --exit-with-parent\n"
		"  1  the window, the state directory (one another program holds included),\n"
		"     the control socket or a socket could not be set up\n"
		"  2  usage error: bad options or arguments\n"
		"  5  refused: a trust anchor (--authority, --root-key) others may write to\n");
}

static int parse_unsigned(const char *name, const char *text, unsigned long long max,
			  uint64_t *value)
{
	unsigned long long v;

	if (cli_parse_uint(text, 0, max, &v)) {
		*value = v;
		return 0;
	}
	return cli_usage_error(SHMEM_PROGRAM, "--%s: '%s' is not a number from 0 to %llu",
			      name, text, max);
}

/* One option of sdsi-shmem's own; the platform's go to the front end. */
static int parse_one(int c, const char *arg, struct shmem_options *o)
{
	uint64_t v;

	switch (c) {
	case OPT_WINDOW: o->window = arg; return 0;
	case OPT_CTL: o->ctl = arg; return 0;
	case OPT_SPIN: o->spin = true; return 0;
	case OPT_DOORBELL: o->doorbell = true; return 0;
	case OPT_EXIT_WITH_PARENT: o->exit_with_parent = true; return 0;
	case OPT_OFFSET:
		/* A physical address: in hex (0x...) as often as in decimal. */
		if ((strncmp(arg, "0x", 2) || !cli_parse_hex64(arg, strlen(arg), &v)) &&
		    parse_unsigned("offset", arg, UINT64_MAX, &v))
			return SDSI_EXIT_USAGE;
		if (v % 4096)
			return cli_usage_error(SHMEM_PROGRAM, "--offset: %s is not a multiple of 4096", arg);
		o->offset = v;
		return 0;
	case OPT_BARID:
		if (parse_unsigned("barid", arg, 5, &v))
			return SDSI_EXIT_USAGE;
		o->barid = (int)v;
		return 0;
	case OPT_IDLE_SLEEP:
		/* Under a second: nanosleep() refuses tv_nsec >= 1e9. */
		if (parse_unsigned("idle-sleep-us", arg, 999999, &v))
			return SDSI_EXIT_USAGE;
		o->idle_sleep_us = (unsigned int)v;
		return 0;
	}
	return cli_platform_option(SHMEM_PROGRAM, c, arg, &o->pf);
}

/* What the options only print: help, version, the generated documents. */
static void print_and_exit(int c)
{
	if (c == OPT_HELP)
		usage(stdout);
	else if (c == OPT_VERSION)
		printf("sdsi-shmem %s\n", SDSI_VERSION);
	else if (c == OPT_DUMP_COMPLETION)
		cli_doc_bash_completion(stdout, &shmem_program);
	else
		cli_doc_list_options(stdout, &shmem_program);
	exit(0);
}

/* Conflicts and what depends on several options. */
static int check_options(struct shmem_options *o, int argc, char **argv)
{
	int ret = cli_platform_finish(SHMEM_PROGRAM, &o->pf);

	if (ret)
		return ret;
	if (o->spin && o->doorbell)
		return cli_usage_error(SHMEM_PROGRAM, "--spin polls and --doorbell does not; give one");
	if (optind != argc)
		return cli_usage_error(SHMEM_PROGRAM, "unexpected argument '%s'", argv[optind]);
	if (!o->window)
		return cli_usage_error(SHMEM_PROGRAM, "no --window given");
	if (cli_platform_root_key(&o->pf, o->root_key, sizeof(o->root_key)))
		return cli_usage_error(SHMEM_PROGRAM, "the root key's file name is too long");
	return 0;
}

int shmem_parse_options(int argc, char **argv, struct shmem_options *o)
{
	const struct cli_getopt_spec spec = { option_table, UTIL_ARRAY_SIZE(option_table), false, false };
	char msg[256];
	int c, ret;

	cli_platform_init(&o->pf);
	o->idle_sleep_us = 50;
	o->barid = -1;
	while ((c = cli_getopt(&spec, argc, argv, msg, sizeof(msg))) != -1) {
		if (c == CLI_GETOPT_ERROR)
			return cli_usage_error(SHMEM_PROGRAM, "%s", msg);
		if (c == OPT_HELP || c == OPT_VERSION || c == OPT_DUMP_COMPLETION ||
		    c == OPT_DUMP_OPTIONS)
			print_and_exit(c);
		ret = parse_one(c, optarg, o);
		if (ret)
			return ret;
	}
	return check_options(o, argc, argv);
}
