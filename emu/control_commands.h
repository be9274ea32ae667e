/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The commands of the control socket (`sdsi-emu ctl`): one request line in,
 * a response out.  The commands, their grammar and their answers are the
 * front end's (cli/cli_ctl.h), shared with sdsi-shmem; the answer is
 * "ok ...", JSON lines for status, or "error <ERRNO>: <message>".
 */
#ifndef SDSI_EMU_CONTROL_COMMANDS_H
#define SDSI_EMU_CONTROL_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "model_clock.h"
#include "emu_options.h"
#include "backends/inproc/inproc_backend.h"

struct emu_control_target {
	struct sdsi_fusedrv *drv;
	struct sdsi_model **models;
	struct emu_model_clock *clocks;	/* one per socket */
	unsigned int nsockets;
	const char *tree;	/* where the tree is mounted */
};

void emu_control_target_init(struct emu_control_target *t, struct sdsi_fusedrv *drv,
			     struct sdsi_model **models,
			     struct emu_model_clock *clocks, unsigned int nsockets,
			     const char *tree);

/*
 * Execute one request (without its newline).  Returns the response, every
 * line ending in '\n', in a buffer the caller frees; NULL if out of memory.
 */
char *emu_control_execute(struct emu_control_target *t, const char *request);

#endif /* SDSI_EMU_CONTROL_COMMANDS_H */
