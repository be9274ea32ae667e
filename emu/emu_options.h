/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command line of `sdsi-emu run` and `sdsi-emu mount`: what the emulated
 * platform looks like.  Parsing errors are usage errors (exit status 2); the
 * message names the option and the value.
 */
#ifndef SDSI_EMU_OPTIONS_H
#define SDSI_EMU_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sdsi/exit_status.h"
#include "cli/cli_platform.h"
#include "drivers/fuse/sdsi_fusedrv.h"

#define EMU_MAX_SOCKETS		CLI_MAX_SOCKETS
/* sdsi-emu's own failures use the table of every sdsi program (docs/exit-codes.md). */
#define EMU_EXIT_USAGE		SDSI_EXIT_USAGE
#define EMU_TIME_SCALE_MAX	1e9

enum emu_command {
	EMU_CMD_RUN,
	EMU_CMD_MOUNT,
};

struct emu_options {
	enum emu_command command;
	struct cli_platform pf;		/* the options sdsi-shmem shares */
	enum sdsi_abi abi;
	double time_scale;		/* model time per real time, default 1 */
	char **run_argv;		/* run: CMD and its arguments */
	const char *mountpoint;		/* mount: DIR */
	/* mount --window FILE[:OFFSET]: sdsi-shmem's sockets (window_mount.h) */
	const char *window;		/* NULL: models of our own */
	bool quiet;			/* -q: no notes on stderr */
	bool allow_other;		/* --allow-other, implied for root */
};

/*
 * Parse the arguments that follow "run" or "mount" (argv[0] is the command
 * name).  Returns 0, or EMU_EXIT_USAGE after printing the reason to stderr.
 */
int emu_options_parse(enum emu_command command, int argc, char **argv,
		      struct emu_options *opts);

void emu_print_help(FILE *out);

/* --dump-bash-completion, --dump-options: made from the option tables. */
void emu_print_completion(FILE *out);
void emu_print_option_list(FILE *out);
void emu_print_usage_hint(void);

/* The ctl commands and fault kinds, as --help and a bare `ctl` list them. */
void emu_print_ctl_commands(FILE *out);

/* The options of ctl, from the table that documents them. */
const struct cli_option *emu_ctl_options(size_t *count);

/*
 * "sdsi-emu: " and the formatted reason on stderr, then the usage hint.
 * Returns EMU_EXIT_USAGE.
 */
__attribute__((format(printf, 1, 2)))
int emu_usage_error(const char *fmt, ...);

#endif /* SDSI_EMU_OPTIONS_H */
