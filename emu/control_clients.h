/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connections of the control socket, each a small state machine served
 * without blocking from the control thread's poll loop, so that a client
 * that is silent, slow to send or slow to read delays nobody else.
 *
 * A connection reads one request line (at most EMU_CONTROL_REQUEST_MAX - 1
 * bytes with its newline, within EMU_CONTROL_REQUEST_MS of connecting),
 * gets its response (within EMU_CONTROL_RESPONSE_MS), then is drained
 * briefly and closed.  At most EMU_CONTROL_CLIENTS_MAX are open at once: one
 * more closes the oldest, told "error EBUSY", so that a flood of idle
 * connections cannot lock a working client out.
 */
#ifndef EMU_CONTROL_CLIENTS_H
#define EMU_CONTROL_CLIENTS_H

#include <poll.h>
#include <stdint.h>

#include "control_commands.h"

#define EMU_CONTROL_CLIENTS_MAX		32
#define EMU_CONTROL_REQUEST_MAX		1024
#define EMU_CONTROL_REQUEST_MS		5000
#define EMU_CONTROL_RESPONSE_MS		5000

enum emu_client_phase {
	EMU_CLIENT_FREE,
	EMU_CLIENT_READING,	/* waiting for the request line */
	EMU_CLIENT_WRITING,	/* sending the response */
	EMU_CLIENT_DRAINING,	/* our side shut: reading until the client closes */
};

struct emu_control_client {
	enum emu_client_phase phase;
	int fd;
	uint64_t serial;	/* order of acceptance: the lowest is the oldest */
	uint64_t deadline_ms;	/* CLOCK_MONOTONIC: when this phase gives up */
	size_t used;
	char request[EMU_CONTROL_REQUEST_MAX];
	const char *out;	/* the response: owned, or a constant message */
	char *owned;
	size_t out_len, sent;
	size_t drained;
};

struct emu_control_clients {
	struct emu_control_client slot[EMU_CONTROL_CLIENTS_MAX];
	uint64_t next_serial;
};

uint64_t emu_control_now_ms(void);

void emu_control_clients_init(struct emu_control_clients *c);

/* Take a new non-blocking connection (closing the oldest one if full). */
void emu_control_clients_add(struct emu_control_clients *c, int fd, uint64_t now);

/* The events to poll for on a client's fd (0 for a free slot). */
short emu_control_client_events(const struct emu_control_client *cl);

/* Act on what poll() reported for the client; commands run against target. */
void emu_control_client_ready(struct emu_control_client *cl, short revents,
			      struct emu_control_target *target, uint64_t now);

/* Move on every client whose deadline has passed; returns ms to the next
 * deadline, or -1 when no client is open. */
int emu_control_clients_expire(struct emu_control_clients *c, uint64_t now);

/* Close every connection (the emulator is stopping). */
void emu_control_clients_close_all(struct emu_control_clients *c);

#endif /* EMU_CONTROL_CLIENTS_H */
