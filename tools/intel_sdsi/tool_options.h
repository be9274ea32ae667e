/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The option table of intel_sdsi.  --help, the man page and the bash
 * completion are all generated from it, so they cannot disagree.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_TOOL_OPTIONS_H
#define SDSI_TOOLS_INTEL_SDSI_TOOL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_option.h"

enum command {
	CMD_NONE,
	CMD_LIST,
	CMD_INFO,
	CMD_STATE,
	CMD_METER,
	CMD_METER_CURRENT,
	CMD_AKC,
	CMD_CAP,
	CMD_ATTEST,
	CMD_HELP,
	CMD_VERSION,
	CMD_DUMP_MAN,
	CMD_DUMP_COMPLETION,
};

enum output_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_PROMETHEUS };

/* --attest WHAT: the words of Intel's posted tool, then ours. */
enum attest_action { ATTEST_GET_DIGESTS, ATTEST_GET_CERTIFICATE, ATTEST_VERIFY };

/* "get_digests get_certificate verify": the words --attest takes, in enum order. */
extern const char *const attest_action_names[3];

/* "text json prometheus": the words --format takes, in enum order. */
extern const char *const output_format_names[3];

/*
 * The options in the front end's form (cli_option.h), commands first, then
 * what modifies them, then the build's generators (hidden: no help).
 */
extern const struct cli_option tool_options[];
extern const unsigned int tool_option_count;

struct cli {
	enum command command;
	const char *devno;
	const char *blob_path;	/* -a / -c */
	const char *akc_path, *cap_path;	/* the last -a and -c given */
	const char *plan_akc;	/* --all -a AKC -c DIR --dry-run: the CAPs' plan assumes it */
	const char *file;	/* --file */
	uint32_t guid;		/* --guid, V1 or V2; 0: not given */
	const char *sysfs_root;	/* --sysfs-root, else libsdsi's default */
	enum output_format format;	/* --format, --json */
	bool json;			/* format == FORMAT_JSON */
	const char *output;		/* --output FILE, written atomically */
	bool all;
	bool dry_run;
	bool force;
	bool verbose;
	bool quiet;
	unsigned int busy_retries;
	enum attest_action attest;	/* --attest */
	const char *trust;		/* --trust FILE|DIR; NULL: SDSI_ATTEST_TRUST_DIR */
	bool der;			/* --der: the leaf certificate alone */
};

#define MAX_BUSY_RETRIES 20

/*
 * Parse argv.  Returns 0, or -1 with a message in msg (a usage error).
 * Long options work with one dash or two, as upstream's.
 */
int parse_cli(int argc, char **argv, struct cli *cli, char *msg, unsigned long msglen);

/* The command an option gives; CMD_NONE: it modifies the command. */
enum command option_command(int id);

#endif /* SDSI_TOOLS_INTEL_SDSI_TOOL_OPTIONS_H */
