/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --all, every socket at once: a socket's mailbox is its own hardware, so
 * the transactions of different sockets can overlap, as they do in the
 * kernel (the driver serialises per device only) and in sdsi-emu.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_FLEET_H
#define SDSI_TOOLS_INTEL_SDSI_FLEET_H

#include <stddef.h>

/* More sockets than this share the threads (a 16-socket server gets 16). */
#define FLEET_MAX_THREADS 64u

/*
 * Call job(ctx, i) for every i below count, each in a thread of its own up
 * to FLEET_MAX_THREADS, and return once all have returned.  A job must touch
 * nothing but its own slot of ctx and print nothing: the caller prints the
 * results afterwards, in device order.  Should a thread fail to start, the
 * calling thread runs the jobs that thread would have run, so the only cost
 * of a short system is time.
 */
void fleet_run(size_t count, void (*job)(void *ctx, size_t i), void *ctx);

#endif /* SDSI_TOOLS_INTEL_SDSI_FLEET_H */
