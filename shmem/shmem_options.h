// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's command line (options.c): what it asks for, once parsed and
 * checked.  Internal to the sdsi-shmem program.
 */
#ifndef SDSI_SHMEM_OPTIONS_H
#define SDSI_SHMEM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_platform.h"

#define SHMEM_PROGRAM		"sdsi-shmem"

struct shmem_options {
	struct cli_platform pf;		/* the options sdsi-emu shares */
	const char *window;
	const char *ctl;
	uint64_t offset;
	int barid;			/* --barid K: TBIR K, or -1 for LOCAL */
	char root_key[4096];
	unsigned int idle_sleep_us;
	bool spin;
	bool doorbell;
	bool exit_with_parent;
};

/*
 * Fills o from argv; 0, or the exit status of a usage error (reported).
 * --help, --version and the generated documents print and exit here.
 */
int shmem_parse_options(int argc, char **argv, struct shmem_options *o);

#endif
