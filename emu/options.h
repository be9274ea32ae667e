/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command line of `sdsi-emu run` and `sdsi-emu mount`: what the emulated
 * platform looks like.  Parsing errors are usage errors (exit status 2); the
 * message names the option and the value.
 */
#ifndef EMU_OPTIONS_H
#define EMU_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sdsi/exit_status.h"
#include "sdsi_fusedrv.h"

#define EMU_MAX_SOCKETS		16u
/* sdsi-emu's own failures use the table of every sdsi program (docs/exit-codes.md). */
#define EMU_EXIT_USAGE		SDSI_EXIT_USAGE
#define EMU_TIME_SCALE_MAX	1e9

enum emu_command {
	EMU_CMD_RUN,
	EMU_CMD_MOUNT,
};

struct emu_options {
	enum emu_command command;
	unsigned int sockets;
	uint32_t guid;
	enum sdsi_abi abi;
	const char *state_dir;		/* NULL: private temporary directory */
	uint64_t features;
	uint64_t ppin[EMU_MAX_SOCKETS];	/* 0: from NVRAM or generated */
	bool iblock;
	uint8_t akc_threshold;		/* 0: the model's default */
	uint8_t cap_threshold;
	uint8_t updates;
	uint32_t nvram_endurance;	/* 0: the model's default */
	uint32_t rdy_latency_us;	/* 0: no latency fault */
	const char *authority_dir;	/* --authority: DIR/root.pub is the root */
	const char *root_key;		/* --root-key FILE; excludes --authority */
	double time_scale;		/* model time per real time, default 1 */
	char **run_argv;		/* run: CMD and its arguments */
	const char *mountpoint;		/* mount: DIR */
	/* mount --window FILE[:OFFSET]: sdsi-shmem's sockets (window_mount.h) */
	const char *window;		/* NULL: models of our own */
};

/*
 * Parse the arguments that follow "run" or "mount" (argv[0] is the command
 * name).  Returns 0, or EMU_EXIT_USAGE after printing the reason to stderr.
 */
int emu_options_parse(enum emu_command command, int argc, char **argv,
		      struct emu_options *opts);

/*
 * A feature list as --features and the "features" control command take it:
 * comma-separated names (on-demand, attestation, metering), "none", or a hex
 * value.  Returns 0 or -EINVAL with the reason in err.
 */
int emu_parse_features(const char *text, uint64_t *features,
		       char *err, size_t errlen);

/* Strict unsigned decimal in [min, max]; no sign, no blanks, no suffix. */
bool emu_parse_uint(const char *text, unsigned long long min,
		    unsigned long long max, unsigned long long *value);

void emu_print_help(FILE *out);
void emu_print_usage_hint(void);

/*
 * "sdsi-emu: " and the formatted reason on stderr, then the usage hint.
 * Returns EMU_EXIT_USAGE.
 */
__attribute__((format(printf, 1, 2)))
int emu_usage_error(const char *fmt, ...);

#endif /* EMU_OPTIONS_H */
