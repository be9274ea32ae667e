/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The commands of the control socket (`sdsi-emu ctl`): one request line in,
 * a response out.  The response is "ok ..." or "error <ERRNO>: <message>",
 * except for status, which answers one JSON object per socket and line.
 */
#ifndef EMU_CONTROL_COMMANDS_H
#define EMU_CONTROL_COMMANDS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "sdsi_fusedrv.h"

/* What the emulator itself armed; the model keeps no list it would show. */
struct emu_fault_record {
	bool armed;
	uint32_t param;
	unsigned int count;
};

/* A fault to arm, or to clear (all: every kind). */
struct emu_fault_request {
	enum sdsi_fault_kind kind;
	bool all;
	uint32_t param;
	unsigned int count;
};

struct emu_control_target {
	struct sdsi_fusedrv *drv;
	struct sdsi_model **models;
	unsigned int nsockets;
	const char *tree;	/* where the tree is mounted */
	pthread_mutex_t faults_lock;
	struct emu_fault_record faults[EMU_MAX_SOCKETS][SDSI_FAULT_KIND_COUNT];
};

void emu_control_target_init(struct emu_control_target *t, struct sdsi_fusedrv *drv,
			     struct sdsi_model **models, unsigned int nsockets,
			     const char *tree, uint32_t rdy_latency_us);
void emu_control_target_fini(struct emu_control_target *t);

/*
 * Execute one request (without its newline).  Returns the response, every
 * line ending in '\n', in a buffer the caller frees; NULL if out of memory.
 */
char *emu_control_execute(struct emu_control_target *t, const char *request);

#endif /* EMU_CONTROL_COMMANDS_H */
