// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing for `sdsi-emu run` and `sdsi-emu mount`, and the help text,
 * which is the reference for every option: keep the two in step.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "options.h"
#include "sdsi_model.h"

#define FEATURES_V1_DEFAULT	SDSI_FEATURE_ON_DEMAND

static const char help_text[] =
"Usage: sdsi-emu run [OPTIONS] -- CMD [ARGS...]\n"
"       sdsi-emu mount [OPTIONS] DIR\n"
"       sdsi-emu ctl [--ctl PATH | --state DIR] COMMAND [ARGS...]\n"
"       sdsi-emu --help | --version\n"
"\n"
"Emulate Intel On Demand (SDSi) sockets and serve them through the sysfs\n"
"interface of the Linux intel_sdsi driver.\n"
"\n"
"  run     as root, in a private mount namespace: put the emulated tree at\n"
"          /sys/bus/auxiliary, list intel_sdsi in /proc/modules, run CMD\n"
"          (looked up in PATH) with SDSI_EMU_CTL and SDSI_EMU_STATE set, and\n"
"          exit with its status (128+N if signal N killed it, 127 if it\n"
"          cannot be executed).  SIGINT, SIGTERM and SIGHUP go to CMD.\n"
"          Nothing is mounted outside the namespace.\n"
"  mount   serve the tree at DIR (DIR/devices/intel_vsec.sdsi.N/...,\n"
"          DIR/drivers/intel_sdsi/...) until SIGINT, SIGTERM or SIGHUP.\n"
"  ctl     send one command to a running emulator (see below).\n"
"\n"
"Options of run and mount:\n"
"  --sockets N          number of sockets, 1..16 (default 1); socket N has\n"
"                       socket ID N and appears as intel_vsec.sdsi.N\n"
"  --guid v1|v2         register layout: v1 (0x006dd191) or v2 (0xf210d9ef,\n"
"                       the default); the hex values are accepted too\n"
"  --abi current|early  sysfs behaviour of Linux 6.2+ (current, the default)\n"
"                       or of Linux 5.18-6.1 (early)\n"
"  --state DIR          NVRAM directory, created (mode 0700) if missing; it\n"
"                       must be owned by the caller and not writable by group\n"
"                       or others.  Default: a private temporary directory\n"
"                       removed at exit (a volatile platform)\n"
"  --features LIST      enabled features: a comma list of on-demand,\n"
"                       attestation, metering; or none; or a hex value using\n"
"                       only bits 3, 12 and 26.  Default: all three with v2,\n"
"                       on-demand alone with v1 (an SPR-like part)\n"
"  --ppin HEX[,HEX...]  PPIN of socket 0, 1, ... (non-zero; it must match the\n"
"                       one in an existing NVRAM file; sockets without one\n"
"                       keep the PPIN in NVRAM or get a generated one)\n"
"  --iblock             set the BIOS in-band lock (control bit 32)\n"
"  --akc-threshold N    AKC failure threshold, 1..7 (default 3)\n"
"  --cap-threshold N    CAP failure threshold, 1..7 (default 3)\n"
"  --updates N          updates per power cycle, 1..7 (default 4)\n"
"  --nvram-endurance N  provisioning writes the NVRAM is rated for,\n"
"                       1..4294967295 (default 1000); NVRAM_UPDATE_LIMITS\n"
"                       reports 50, 75 and 90% of them made, and writes beyond\n"
"                       still succeed.  The count is kept in NVRAM, N is not:\n"
"                       give the same N at every start\n"
"  --rdy-latency-us N   latency before RDY on every mailbox transaction, in\n"
"                       microseconds, 0..4294967295 (a permanent rdy-latency\n"
"                       fault; default 0)\n"
"  --authority DIR      trust DIR/root.pub, as written by 'sdsi-authority init\n"
"                       DIR', as every socket's fused root key: AKCs signed\n"
"                       with DIR/root.key then authenticate\n"
"  --root-key FILE      the same with the PEM P-384 public key FILE.  With\n"
"                       neither, no AKC or CAP ever authenticates\n"
"  --time-scale X       model time runs X times as fast as real time (meters,\n"
"                       latencies); X > 0, at most 1e9, default 1\n"
"  --window FILE[:OFFSET]\n"
"                       mount only: serve the sockets that 'sdsi-shmem\n"
"                       --window FILE --offset OFFSET' plays (OFFSET default\n"
"                       0, page-aligned) instead of models of our own.  Only\n"
"                       --sockets (as many as sdsi-shmem plays) and --abi\n"
"                       apply; sdsi-shmem takes the sockets' settings and\n"
"                       their control requests\n"
"  -h, --help           print this help and exit\n"
"\n"
"The control socket is STATE/control.sock.  ctl finds it with --ctl PATH,\n"
"else --state DIR, else $SDSI_EMU_CTL.  Commands (SOCKET is N or 'all'):\n"
"  status                        one JSON object per socket and line\n"
"  power-cycle SOCKET            cold power cycle, then the driver reprobes\n"
"  fault SOCKET KIND [--count N] [--param N]\n"
"                                arm a fault for N transactions (default 0:\n"
"                                until cleared); KIND is oob-owner, no-rdy,\n"
"                                status-timeout, status-failure,\n"
"                                bad-packet-size, no-eom, too-many-packets,\n"
"                                rdy-latency or owner-delay (param: us)\n"
"  clear SOCKET [KIND]           clear one fault, or all of them\n"
"  unbind SOCKET | bind SOCKET   as writing to drivers/intel_sdsi/{un,}bind\n"
"  features SOCKET LIST          set the enabled features, then reprobe\n"
"  iblock SOCKET on|off          set or clear the in-band lock\n"
"  advance SOCKET SECONDS        move the socket's model time forward by\n"
"                                SECONDS (0..315360000); meters count it as\n"
"                                powered-up time\n"
"ctl prints the response (\"ok ...\", JSON lines for status, or\n"
"\"error ERRNO: message\") and exits 0 on ok, else with the status of ERRNO.\n"
"\n"
"Exit status: run: that of CMD once it started.  Otherwise the table shared\n"
"by the sdsi programs (docs/exit-codes.md, intel_sdsi(1)): 2 usage error or an\n"
"unusable input file (--root-key, an NVRAM file of another platform), 3 no\n"
"emulator at the control socket (ctl) or no such socket, 4 permission (run\n"
"as non-root, a state directory others can write), 5 refused (another\n"
"emulator serves the state), 7 I/O or mount failure, 8 a corrupt NVRAM or\n"
"key file, 1 internal error.\n";

void emu_print_help(FILE *out)
{
	fputs(help_text, out);
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

bool emu_parse_uint(const char *text, unsigned long long min,
		    unsigned long long max, unsigned long long *value)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*value = v;
	return true;
}

/* 1 to 16 hex digits, optionally after "0x". */
static bool parse_hex64(const char *text, size_t len, uint64_t *value)
{
	uint64_t v = 0;

	if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		len -= 2;
	}
	if (len == 0 || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)text[i];

		if (!isxdigit(c))
			return false;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	*value = v;
	return true;
}

static const struct {
	const char *name;
	uint64_t bit;
} feature_names[] = {
	{ "on-demand", SDSI_FEATURE_ON_DEMAND },
	{ "attestation", SDSI_FEATURE_ATTESTATION },
	{ "metering", SDSI_FEATURE_METERING },
};

int emu_parse_features(const char *text, uint64_t *features,
		       char *err, size_t errlen)
{
	uint64_t value = 0;
	const char *p = text;

	if (strcmp(text, "none") == 0) {
		*features = 0;
		return 0;
	}
	if (parse_hex64(text, strlen(text), &value)) {
		if (value & ~SDSI_FEATURES_SETTABLE) {
			snprintf(err, errlen, "'%s' sets bits other than 3 (on-demand), 12 (attestation) and 26 (metering)",
				 text);
			return -EINVAL;
		}
		*features = value;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
			if (strlen(feature_names[i].name) == len &&
			    strncmp(p, feature_names[i].name, len) == 0)
				break;
		}
		if (i == sizeof(feature_names) / sizeof(feature_names[0])) {
			snprintf(err, errlen, "unknown feature '%.*s' in '%s' (known: on-demand, attestation, metering, none, or a hex value)",
				 (int)len, p, text);
			return -EINVAL;
		}
		value |= feature_names[i].bit;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*features = value;
	return 0;
}

static int parse_ppins(const char *text, struct emu_options *opts,
		       unsigned int *count)
{
	const char *p = text;
	unsigned int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (n == EMU_MAX_SOCKETS)
			return emu_usage_error("--ppin: more than 16 values in '%s'", text);
		if (!parse_hex64(p, len, &opts->ppin[n]) || opts->ppin[n] == 0)
			return emu_usage_error("--ppin: '%.*s' is not a non-zero hex PPIN (in '%s')",
					   (int)len, p, text);
		n++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	/* Checked against --sockets once every option is known. */
	*count = n;
	return 0;
}

enum long_only_option {
	OPT_SOCKETS = 256, OPT_GUID, OPT_ABI, OPT_STATE, OPT_FEATURES, OPT_PPIN,
	OPT_IBLOCK, OPT_AKC_THRESHOLD, OPT_CAP_THRESHOLD, OPT_UPDATES,
	OPT_RDY_LATENCY, OPT_AUTHORITY, OPT_ROOT_KEY, OPT_TIME_SCALE,
	OPT_NVRAM_ENDURANCE, OPT_WINDOW,
};

static const struct option long_options[] = {
	{ "sockets", required_argument, NULL, OPT_SOCKETS },
	{ "guid", required_argument, NULL, OPT_GUID },
	{ "abi", required_argument, NULL, OPT_ABI },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "features", required_argument, NULL, OPT_FEATURES },
	{ "ppin", required_argument, NULL, OPT_PPIN },
	{ "iblock", no_argument, NULL, OPT_IBLOCK },
	{ "akc-threshold", required_argument, NULL, OPT_AKC_THRESHOLD },
	{ "cap-threshold", required_argument, NULL, OPT_CAP_THRESHOLD },
	{ "updates", required_argument, NULL, OPT_UPDATES },
	{ "nvram-endurance", required_argument, NULL, OPT_NVRAM_ENDURANCE },
	{ "rdy-latency-us", required_argument, NULL, OPT_RDY_LATENCY },
	{ "authority", required_argument, NULL, OPT_AUTHORITY },
	{ "root-key", required_argument, NULL, OPT_ROOT_KEY },
	{ "time-scale", required_argument, NULL, OPT_TIME_SCALE },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_guid(const char *text, uint32_t *guid)
{
	uint64_t v;

	if (strcmp(text, "v1") == 0) {
		*guid = SDSI_GUID_V1;
		return 0;
	}
	if (strcmp(text, "v2") == 0) {
		*guid = SDSI_GUID_V2;
		return 0;
	}
	if (strncmp(text, "0x", 2) == 0 && parse_hex64(text, strlen(text), &v) &&
	    (v == SDSI_GUID_V1 || v == SDSI_GUID_V2)) {
		*guid = (uint32_t)v;
		return 0;
	}
	return emu_usage_error("--guid: '%s' is not v1, v2, 0x006dd191 or 0xf210d9ef", text);
}

static int parse_field3(const char *name, const char *text, uint8_t *field)
{
	unsigned long long v;

	if (!emu_parse_uint(text, 1, 7, &v))
		return emu_usage_error("%s: '%s' is not a number from 1 to 7", name, text);
	*field = (uint8_t)v;
	return 0;
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

static int parse_one(int opt, const char *arg, struct emu_options *opts,
		     bool *features_given, unsigned int *nppins)
{
	unsigned long long v;
	char err[256];

	switch (opt) {
	case OPT_SOCKETS:
		if (!emu_parse_uint(arg, 1, EMU_MAX_SOCKETS, &v))
			return emu_usage_error("--sockets: '%s' is not a number from 1 to 16", arg);
		opts->sockets = (unsigned int)v;
		return 0;
	case OPT_GUID:
		return parse_guid(arg, &opts->guid);
	case OPT_ABI:
		if (strcmp(arg, "current") == 0)
			opts->abi = SDSI_ABI_CURRENT;
		else if (strcmp(arg, "early") == 0)
			opts->abi = SDSI_ABI_EARLY;
		else
			return emu_usage_error("--abi: '%s' is not current or early", arg);
		return 0;
	case OPT_STATE:
		if (arg[0] == '\0')
			return emu_usage_error("--state: empty directory name");
		opts->state_dir = arg;
		return 0;
	case OPT_FEATURES:
		if (emu_parse_features(arg, &opts->features, err, sizeof(err)))
			return emu_usage_error("--features: %s", err);
		*features_given = true;
		return 0;
	case OPT_PPIN:
		return parse_ppins(arg, opts, nppins);
	case OPT_IBLOCK:
		opts->iblock = true;
		return 0;
	case OPT_AKC_THRESHOLD:
		return parse_field3("--akc-threshold", arg, &opts->akc_threshold);
	case OPT_CAP_THRESHOLD:
		return parse_field3("--cap-threshold", arg, &opts->cap_threshold);
	case OPT_UPDATES:
		return parse_field3("--updates", arg, &opts->updates);
	case OPT_NVRAM_ENDURANCE:
		/* 0 would select the model's default: not a value to ask for. */
		if (!emu_parse_uint(arg, 1, UINT32_MAX, &v))
			return emu_usage_error("--nvram-endurance: '%s' is not a number from 1 to 4294967295",
					   arg);
		opts->nvram_endurance = (uint32_t)v;
		return 0;
	case OPT_RDY_LATENCY:
		if (!emu_parse_uint(arg, 0, UINT32_MAX, &v))
			return emu_usage_error("--rdy-latency-us: '%s' is not a number from 0 to 4294967295",
					   arg);
		opts->rdy_latency_us = (uint32_t)v;
		return 0;
	case OPT_AUTHORITY:
	case OPT_ROOT_KEY:
		if (arg[0] == '\0')
			return emu_usage_error("%s: empty name", opt == OPT_AUTHORITY ?
					   "--authority" : "--root-key");
		if (opt == OPT_AUTHORITY)
			opts->authority_dir = arg;
		else
			opts->root_key = arg;
		return 0;
	case OPT_TIME_SCALE:
		return parse_time_scale(arg, &opts->time_scale);
	case OPT_WINDOW:
		/* FILE[:OFFSET] is taken apart where it is used (window_mount.c). */
		if (arg[0] == '\0')
			return emu_usage_error("--window: empty name");
		opts->window = arg;
		return 0;
	}
	return EMU_EXIT_USAGE;
}

int emu_options_parse(enum emu_command command, int argc, char **argv,
		      struct emu_options *opts)
{
	/* run stops at CMD, whose options are its own; mount takes DIR anywhere. */
	const char *optstring = command == EMU_CMD_RUN ? "+:h" : ":h";
	const char *name = command == EMU_CMD_RUN ? "run" : "mount";
	bool features_given = false;
	unsigned int nppins = 0;
	int opt, model_opt = 0;

	memset(opts, 0, sizeof(*opts));
	opts->command = command;
	opts->sockets = 1;
	opts->guid = SDSI_GUID_V2;
	opts->abi = SDSI_ABI_CURRENT;
	opts->time_scale = 1;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, optstring, long_options, NULL)) != -1) {
		int ret;

		switch (opt) {
		case 'h':
			emu_print_help(stdout);
			exit(0);
		case ':':
			return emu_usage_error("%s: option '%s' needs a value", name, argv[optind - 1]);
		case '?':
			if (optopt)
				return emu_usage_error("%s: unknown option '-%c'", name, optopt);
			return emu_usage_error("%s: unknown option '%s'", name, argv[optind - 1]);
		default:
			ret = parse_one(opt, optarg, opts, &features_given, &nppins);
			if (ret)
				return ret;
			if (opt != OPT_SOCKETS && opt != OPT_ABI && opt != OPT_WINDOW)
				model_opt = opt;
		}
	}
	if (opts->window && (command == EMU_CMD_RUN || model_opt)) {
		const struct option *o = long_options;

		if (command == EMU_CMD_RUN)
			return emu_usage_error("run: --window is an option of mount");
		while (o->val != model_opt)
			o++;
		return emu_usage_error("--window: --%s is sdsi-shmem's to set (it plays the window's sockets)",
				       o->name);
	}

	if (!features_given)
		opts->features = opts->guid == SDSI_GUID_V1 ? FEATURES_V1_DEFAULT
							    : SDSI_MODEL_DEFAULT_FEATURES;
	if (opts->authority_dir && opts->root_key)
		return emu_usage_error("%s: --authority and --root-key both name the root key; give one",
				   name);
	if (nppins > opts->sockets)
		return emu_usage_error("--ppin: %u values given for %u socket(s)",
				   nppins, opts->sockets);

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
