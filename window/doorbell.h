/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The doorbell: the model answers a driver at the access, not when a
 * polling thread next happens to run.
 *
 * Plain memory tells nobody about a store, so sdsi-shmem polls; a host
 * that stalls the poller for longer than a driver's deadline (Linux 6.1
 * gives the hardware 2 ms) then fails the driver through nobody's fault.
 * With the doorbell, whoever executes the driver (the sdsi-doorbell QEMU
 * plugin, on the vCPU thread, right after a store into the window) rings
 * and blocks until the server has run a pass and so put the model's answer
 * in place.  The driver's next instruction finds it there however long the
 * host took, and a driver polls with a load before it ever looks at its
 * deadline, so no deadline depends on host scheduling.
 *
 * Time-dependent answers (RDY latency) cannot come from a store.  While
 * one is pending the server raises 'timed', and the ringer rings before
 * each of the driver's loads: the value loaded is the model's answer at
 * the moment of the load, decided by the same clock the driver's deadline
 * runs on (a TCG guest's clock follows the host's).
 *
 * The words live in the control page (ctlpage.h); ring and answered are
 * futexes, shared between processes through the window's file.
 */
#ifndef SDSI_WINDOW_DOORBELL_H
#define SDSI_WINDOW_DOORBELL_H

#include <stdbool.h>
#include <stdint.h>

#include "ctlpage.h"

/* How long a ringer waits for its answer before it gives up, loudly. */
#define WINDOW_DOORBELL_LIMIT_MS	10000u

/*
 * Ringer: ring and wait until the server has answered this ring.  0,
 * -ENODEV if the server is not (or no longer) answering the doorbell, or
 * -ETIMEDOUT after limit_ms.  *waited_ns gets the time spent waiting.
 */
int window_doorbell_ring(struct window_ctlpage *page, unsigned int limit_ms,
			 uint64_t *waited_ns);

/* Ringer: true while the server wants a ring before each driver load. */
bool window_doorbell_timed(const struct window_ctlpage *page);

/*
 * Server: the latest ring, after waiting up to timeout_us for one when
 * none is pending (answered is the last ring answered).
 */
uint32_t window_doorbell_wait(struct window_ctlpage *page, uint32_t answered,
			      unsigned int timeout_us);

/* Server: rings up to 'ring' are answered; wake their ringers. */
void window_doorbell_answer(struct window_ctlpage *page, uint32_t ring);

/* Server: whether an answer now waits on time alone. */
void window_doorbell_set_timed(struct window_ctlpage *page, bool timed);

#endif /* SDSI_WINDOW_DOORBELL_H */
