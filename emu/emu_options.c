// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing for `sdsi-emu run` and `sdsi-emu mount`, and the help text.
 * The options are a table (the platform's, shared with sdsi-shmem, and
 * sdsi-emu's own): getopt, --help and the bash completion are made from it,
 * the ctl commands' lines from the control-command table.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/abi_names.h"
#include "sdsi/hw.h"
#include "cli/cli_ctl.h"
#include "cli/cli_getopt.h"
#include "emu_options.h"
#include "util/util_array.h"

#define PROGRAM		"sdsi-emu"

enum emu_option_id {
	OPT_ABI = 256, OPT_TIME_SCALE, OPT_WINDOW, OPT_ALLOW_OTHER, OPT_CTL, OPT_TIMEOUT, OPT_VERSION,
	OPT_DUMP_COMPLETION, OPT_DUMP_OPTIONS,
};

#define HELP_OPTION \
	{ 'h', 'h', "help", NULL, CLI_ARG_NONE, NULL, "print this help and exit" }

static const struct cli_option serve_options[] = {
	CLI_PLATFORM_OPTION_ENTRIES
	{ OPT_ABI, 0, "abi", "current|early", CLI_ARG_WORDS, "current early",
	  "sysfs behaviour of Linux 6.2+ (current, the default) or of Linux 5.18-6.1 (early)" },
	{ OPT_TIME_SCALE, 0, "time-scale", "X", CLI_ARG_NONE, NULL,
	  "model time runs X times as fast as real time (meters, latencies); X > 0, at most 1e9, default 1" },
	{ OPT_WINDOW, 0, "window", "FILE[:OFFSET]", CLI_ARG_FILE, NULL,
	  "mount only: serve the sockets that 'sdsi-shmem --window FILE --offset OFFSET' plays (OFFSET default 0, page-aligned) instead of models of our own.  Only --sockets (as many as sdsi-shmem plays) and --abi apply; sdsi-shmem takes the sockets' settings and their control requests" },
	{ OPT_ALLOW_OTHER, 0, "allow-other", NULL, CLI_ARG_NONE, NULL,
	  "mount: let every user read the tree (FUSE's allow_other), as root's mount always does; a user other than root needs user_allow_other in /etc/fuse.conf for it" },
	{ 'q', 'q', "quiet", NULL, CLI_ARG_NONE, NULL,
	  "print no notes on stderr (run: those about a kernel without /proc/modules or /sys/module, where intel_sdsi cannot be listed); errors still" },
	HELP_OPTION,
};

static const struct cli_option ctl_options[] = {
	{ OPT_CTL, 0, "ctl", "PATH", CLI_ARG_FILE, NULL, "the emulator's control socket" },
	{ CLI_OPT_STATE, 0, "state", "DIR", CLI_ARG_DIR, NULL,
	  "the emulator's state directory: its control socket is DIR/control.sock" },
	{ OPT_TIMEOUT, 0, "timeout", "SECONDS", CLI_ARG_NONE, NULL,
	  "give up on an emulator that does not answer within SECONDS, 1..3600 (default 30)" },
	HELP_OPTION,
};

static const struct cli_option top_options[] = {
	HELP_OPTION,
	{ OPT_VERSION, 0, "version", NULL, CLI_ARG_NONE, NULL, "print the version and exit" },
	{ OPT_DUMP_COMPLETION, 0, "dump-bash-completion", NULL, CLI_ARG_NONE, NULL, NULL },
	{ OPT_DUMP_OPTIONS, 0, "dump-options", NULL, CLI_ARG_NONE, NULL, NULL },
};

CLI_GETOPT_FITS(serve_options);
CLI_GETOPT_FITS(ctl_options);
CLI_GETOPT_FITS(top_options);

/* The model's fault kinds, for "fault N KIND" and "clear N KIND". */
static char fault_words[256];

static const struct cli_positional ctl_positional[] = {
	{ "fault", 2, fault_words },
	{ "clear", 2, fault_words },
};

static const struct cli_command emu_commands[] = {
	{ NULL, "--help | --version", NULL, top_options, UTIL_ARRAY_SIZE(top_options), NULL, NULL, 0 },
	{ "run", "[OPTIONS] -- CMD [ARGS...]", NULL, serve_options, UTIL_ARRAY_SIZE(serve_options), NULL,
	  NULL, 0 },
	{ "mount", "[OPTIONS] DIR", NULL, serve_options, UTIL_ARRAY_SIZE(serve_options), NULL, NULL, 0 },
	{ "ctl", "[--ctl PATH | --state DIR] [--timeout S] COMMAND [ARGS...]", NULL, ctl_options,
	  UTIL_ARRAY_SIZE(ctl_options),
	  "status power-cycle fault clear unbind bind features iblock advance",
	  ctl_positional, UTIL_ARRAY_SIZE(ctl_positional) },
};

static const struct cli_program emu_program = {
	PROGRAM, emu_commands, UTIL_ARRAY_SIZE(emu_commands),
};

const struct cli_option *emu_ctl_options(size_t *count)
{
	*count = UTIL_ARRAY_SIZE(ctl_options);
	return ctl_options;
}

static const char help_intro[] =
"Usage: sdsi-emu run [OPTIONS] -- CMD [ARGS...]\n"
"       sdsi-emu mount [OPTIONS] DIR\n"
"       sdsi-emu ctl [--ctl PATH | --state DIR] [--timeout S] COMMAND [ARGS...]\n"
"       sdsi-emu --help | --version\n"
"\n"
"Emulate Intel On Demand (SDSi) sockets and serve them through the sysfs\n"
"interface of the Linux intel_sdsi driver.\n"
"\n"
"  run     as root, in a private mount namespace: put the emulated tree at\n"
"          /sys/bus/auxiliary, show /sys/module/intel_sdsi, list\n"
"          intel_sdsi in /proc/modules and give each part with attestation\n"
"          its SPDM transport /dev/isdsiN, run CMD (looked up in PATH) with\n"
"          SDSI_EMU_CTL and SDSI_EMU_STATE set, and exit with its status\n"
"          (128+N if signal N killed it, 127 if it cannot be executed).\n"
"          SIGINT, SIGTERM and SIGHUP go to CMD.\n"
"          Nothing is mounted outside the namespace.\n"
"  mount   serve the tree at DIR (DIR/devices/intel_vsec.sdsi.N/...,\n"
"          DIR/drivers/intel_sdsi/...) until SIGINT, SIGTERM or SIGHUP.\n"
"  ctl     send one command to a running emulator (see below).\n"
"\n"
"Options of run and mount (--state DIR is created, mode 0700, if missing; it\n"
"must be owned by the caller and not writable by group or others; without it\n"
"the NVRAM lives in a private temporary directory removed at exit):\n";

static const char help_ctl[] =
"\n"
"The control socket is STATE/control.sock.  ctl finds it with --ctl PATH,\n"
"else --state DIR, else $SDSI_EMU_CTL; without a COMMAND it lists them.\n"
"Options of ctl:\n";

static const char help_outro[] =
"ctl prints the response (\"ok ...\", JSON lines for status and violations, or\n"
"\"error ERRNO: message\") and exits 0 on ok, else with the status of ERRNO.\n"
"sdsi-shmem --ctl serves the same commands (sdsi-shmem(1)).\n"
"\n"
"Exit status: run: that of CMD once it started.  Otherwise the table shared\n"
"by the sdsi programs (/usr/share/doc/sdsi-emu/exit-codes.md, docs/exit-codes.md\n"
"in the sources, intel_sdsi(1)): 2 usage error or an\n"
"unusable input file (--root-key, an NVRAM file of another platform), 3 no\n"
"emulator at the control socket (ctl) or no such socket, 4 permission (run\n"
"as non-root, a state directory others can write), 5 refused (another\n"
"emulator serves the state), 7 I/O or mount failure, 8 a corrupt NVRAM or\n"
"key file, 1 internal error.\n";

/* The control commands, from their table; the fault kinds from the model's. */
void emu_print_ctl_commands(FILE *out)
{
	char kinds[256];
	size_t used = 0;

	for (unsigned int i = 0; i < cli_ctl_command_count; i++) {
		const struct cli_ctl_command *c = &cli_ctl_commands[i];
		char left[64];

		snprintf(left, sizeof(left), "%s %s", c->name, c->usage);
		cli_doc_help_item(out, left, c->summary);
	}
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT && used < sizeof(kinds); k++)
		used += (size_t)snprintf(kinds + used, sizeof(kinds) - used, "%s%s",
					 k ? ", " : "", sdsi_fault_name((enum sdsi_fault_kind)k));
	cli_doc_help_item(out, "N", "a socket number, or 'all'");
	cli_doc_help_item(out, "KIND", kinds);
}

void emu_print_help(FILE *out)
{
	fputs(help_intro, out);
	cli_doc_help_options(out, serve_options, UTIL_ARRAY_SIZE(serve_options));
	fputs(help_ctl, out);
	cli_doc_help_options(out, ctl_options, UTIL_ARRAY_SIZE(ctl_options));
	fputs("\nCommands of ctl:\n", out);
	emu_print_ctl_commands(out);
	fputs(help_outro, out);
}

void emu_print_completion(FILE *out)
{
	size_t used = 0;

	for (unsigned int k = 0; k < SDSI_FAULT_KIND_COUNT && used < sizeof(fault_words); k++)
		used += (size_t)snprintf(fault_words + used, sizeof(fault_words) - used, "%s%s",
					 k ? " " : "", sdsi_fault_name((enum sdsi_fault_kind)k));
	cli_doc_bash_completion(out, &emu_program);
}

void emu_print_option_list(FILE *out)
{
	cli_doc_list_options(out, &emu_program);
}

void emu_print_usage_hint(void)
{
	fputs("Try 'sdsi-emu --help' for more information.\n", stderr);
}

int emu_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("sdsi-emu: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	emu_print_usage_hint();
	return EMU_EXIT_USAGE;
}

/* A plain positive decimal: digits, an optional fraction, an exponent. */
static int parse_time_scale(const char *text, double *scale)
{
	char *end;
	double v;

	errno = 0;
	v = isdigit((unsigned char)text[0]) ? strtod(text, &end) : 0;
	if (!isdigit((unsigned char)text[0]) || errno || *end || !(v > 0) ||
	    v > EMU_TIME_SCALE_MAX)
		return emu_usage_error("--time-scale: '%s' is not a number above 0 and at most 1e9",
				   text);
	*scale = v;
	return 0;
}

/* The names are the vocabulary's (include/sdsi/abi_names.h), not spelt again here. */
static int parse_abi(const char *arg, enum sdsi_abi *abi)
{
#define ABI_NAME(generation, name) { generation, name },
	static const struct {
		enum sdsi_abi generation;
		const char *name;
	} names[] = { SDSI_ABI_TABLE(ABI_NAME) };
#undef ABI_NAME

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(names); i++) {
		if (strcmp(arg, names[i].name) == 0) {
			*abi = names[i].generation;
			return 0;
		}
	}
	return emu_usage_error("--abi: '%s' is not current or early", arg);
}

static int parse_one(int opt, const char *arg, struct emu_options *opts)
{
	switch (opt) {
	case OPT_ABI:
		return parse_abi(arg, &opts->abi);
	case OPT_TIME_SCALE:
		return parse_time_scale(arg, &opts->time_scale);
	case OPT_WINDOW:
		/* FILE[:OFFSET] is taken apart where it is used (window_mount.c). */
		if (arg[0] == '\0')
			return emu_usage_error("--window: empty name");
		opts->window = arg;
		return 0;
	case 'q':
		opts->quiet = true;
		return 0;
	case OPT_ALLOW_OTHER:
		opts->allow_other = true;
		return 0;
	}
	return cli_platform_option(PROGRAM, opt, arg, &opts->pf);
}

/* With --window, sdsi-shmem sets the sockets: only --sockets and --abi apply. */
static int check_window(enum emu_command command, const struct emu_options *opts,
			int model_opt)
{
	const struct cli_option *o;

	if (!opts->window)
		return 0;
	if (command == EMU_CMD_RUN)
		return emu_usage_error("run: --window is an option of mount");
	if (!model_opt)
		return 0;
	o = cli_option_by_id(serve_options, UTIL_ARRAY_SIZE(serve_options), model_opt);
	return emu_usage_error("--window: --%s is sdsi-shmem's to set (it plays the window's sockets)",
			       o ? o->name : "?");
}

/* What follows the options: CMD for run, DIR for mount. */
static int parse_operands(enum emu_command command, int argc, char **argv,
			  struct emu_options *opts)
{
	if (command == EMU_CMD_RUN) {
		if (optind >= argc)
			return emu_usage_error("run: no command given (sdsi-emu run [OPTIONS] -- CMD [ARGS...])");
		opts->run_argv = argv + optind;
		return 0;
	}
	if (optind >= argc)
		return emu_usage_error("mount: no directory given (sdsi-emu mount [OPTIONS] DIR)");
	if (optind + 1 < argc)
		return emu_usage_error("mount: unexpected argument '%s' after '%s'",
				   argv[optind + 1], argv[optind]);
	opts->mountpoint = argv[optind];
	return 0;
}

int emu_options_parse(enum emu_command command, int argc, char **argv,
		      struct emu_options *opts)
{
	const char *name = command == EMU_CMD_RUN ? "run" : "mount";
	/* run stops at CMD, whose options are its own; mount takes DIR anywhere. */
	const struct cli_getopt_spec spec = {
		serve_options, UTIL_ARRAY_SIZE(serve_options), command == EMU_CMD_RUN, false,
	};
	char msg[256];
	int opt, ret, model_opt = 0;

	memset(opts, 0, sizeof(*opts));
	opts->command = command;
	cli_platform_init(&opts->pf);
	opts->abi = SDSI_ABI_CURRENT;
	opts->time_scale = 1;
	optind = 1;
	while ((opt = cli_getopt(&spec, argc, argv, msg, sizeof(msg))) != -1) {
		switch (opt) {
		case 'h':
			emu_print_help(stdout);
			exit(0);
		case CLI_GETOPT_ERROR:
			return emu_usage_error("%s: %s", name, msg);
		default:
			ret = parse_one(opt, optarg, opts);
			if (ret)
				return ret;
			if (opt != CLI_OPT_SOCKETS && opt != OPT_ABI && opt != OPT_WINDOW &&
			    opt != 'q' && opt != OPT_ALLOW_OTHER)
				model_opt = opt;
		}
	}
	ret = check_window(command, opts, model_opt);
	if (ret)
		return ret;
	ret = cli_platform_finish(PROGRAM, &opts->pf);
	if (ret)
		return ret;
	return parse_operands(command, argc, argv, opts);
}
