/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware model played over a shared memory window by polling.
 *
 * Each socket owns one slot of the window (layout: sdsi/window.h), as the
 * kernel test module presents it to Linux's intel_sdsi driver.  Plain memory tells nobody about a write,
 * so the port compares the window with what it last put there: a changed
 * control qword is a driver write to the control register, a changed
 * mailbox qword a driver write to the mailbox.  While the mailbox is free a
 * random sentinel sits in mailbox qword 0, so that the driver's write
 * there (the ownership request) is seen whatever value it carries.  Each
 * driver write goes to the model through sdsi_model_write64(); what the
 * model then shows (owner, RDY, packets, registers) is copied back.
 *
 * One thread polls a port; the window may be shared with another process
 * (a memfd or file on the host, the test module's mapping in a guest).
 */
#ifndef SDSI_SHMEM_H
#define SDSI_SHMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "sdsi/hw.h"
#include "sdsi/window.h"
#include "model/sdsi_model.h"

/* Qwords the driver may write: control and mailbox of the largest layout. */
#define SHMEM_PORT_WRITABLE_QWORDS \
	((SDSI_CTRL_SIZE_V2 + SDSI_MBOX_SIZE) / 8)

struct shmem_port {
	struct sdsi_model *model;
	uint64_t *mmio;			/* inside the shared slot */
	uint32_t mbox_off;		/* control size of the model's GUID */
	uint32_t regs_off;
	uint32_t mmio_size;
	/* What the window held when last looked at or written, per qword. */
	uint64_t shadow[SHMEM_PORT_WRITABLE_QWORDS];
	uint64_t model_ctrl;		/* control as the model last showed it */
	uint64_t rng;			/* xorshift state for sentinels */
	bool engaged;			/* the model's mailbox is in-band owned */
	bool requested;			/* an ownership request awaits an answer */
};

/*
 * Lay the socket out in its slot (SDSI_WINDOW_SLOT_SIZE bytes, 8-byte
 * aligned): registers, control, sentinel, then the discovery table.
 * -EINVAL if the model's MMIO region does not fit the slot.
 */
int shmem_port_attach(struct shmem_port *port, struct sdsi_model *model,
		      void *slot);
/*
 * The same, with a discovery table of access type BARID when tbir >= 0:
 * the region then lies bar_offset bytes into PCI BAR tbir, whose start is
 * the window's (the slot's offset in the window plus the region's in the
 * slot; rig/sdsi_window.c lends the BAR).  tbir < 0: LOCAL, as above.
 */
int shmem_port_attach_at(struct shmem_port *port, struct sdsi_model *model,
			 void *slot, int tbir, uint32_t slot_offset);

/*
 * One pass: forward what the driver wrote since the last pass, then show
 * what the model answers.  Returns true when the driver or the model
 * moved (the caller keeps polling hard while they do).
 */
bool shmem_port_poll(struct shmem_port *port);

/* True while a transaction is in progress (the model owns time). */
bool shmem_port_busy(const struct shmem_port *port);

/*
 * True while the window shows a command under way without RDY: only time
 * can change the model's answer then (RDY latency), not a driver store.
 */
bool shmem_port_timed(const struct shmem_port *port);

/*
 * Show the model again after it changed outside the window (power cycle,
 * fault, BIOS setting).  Call it from the polling thread, between passes.
 */
void shmem_port_sync(struct shmem_port *port);

#endif /* SDSI_SHMEM_H */
