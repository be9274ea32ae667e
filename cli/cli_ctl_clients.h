/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connections of a daemon's control socket (cli_ctl_server.h), each a
 * small state machine served without blocking, so that a client that is
 * silent, slow to send or slow to read delays nobody else.
 *
 * A connection reads one request line (at most the dialect's request_max
 * - 1 bytes with its newline, within CLI_CTL_REQUEST_MS of connecting),
 * gets its response (within CLI_CTL_RESPONSE_MS), then is drained briefly
 * and closed.  At most the dialect's clients_max are open at once: one
 * more closes the oldest, told why, so that a flood of idle connections
 * cannot lock a working client out.
 *
 * What a connection is told when it breaks a limit is said in the daemon's
 * reply style (cli_reply.h), as its commands' answers are: sdsi-emu's
 * "error ERRNO: message", sdsi-shmem's terse "error: message", whose
 * clients match those words.
 */
#ifndef SDSI_CLI_CTL_CLIENTS_H
#define SDSI_CLI_CTL_CLIENTS_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_reply.h"

/* The most any style allows (the slots and their buffers are this big). */
#define CLI_CTL_CLIENTS_MAX	32
#define CLI_CTL_REQUEST_MAX	1024
#define CLI_CTL_REQUEST_MS	5000
#define CLI_CTL_RESPONSE_MS	5000
/*
 * The longest answer the protocol allows, in bytes, its last newline
 * included: the server answers EMSGSIZE rather than send more, and
 * `sdsi-emu ctl` refuses more from whatever listens on the socket it is
 * given.  The longest real answer, `violations all` on 16 sockets with 8
 * violations kept each, every number, name and text at its widest, is
 * under 40000 bytes (test_longest_answer_fits, tests/unit/cli).
 */
#define CLI_CTL_ANSWER_MAX	65536

/* The limits of one reply style and what a connection breaking them is told. */
struct cli_ctl_dialect {
	const char *busy;	/* the oldest, closed to make room */
	const char *too_long;	/* request_max - 1 bytes without a newline */
	const char *timeout;	/* no request line within CLI_CTL_REQUEST_MS */
	const char *empty;	/* closed without sending a byte */
	/* Closed after a line without its newline; NULL: that is the request. */
	const char *unterminated;
	const char *nomem;
	const char *too_big;	/* an answer over CLI_CTL_ANSWER_MAX bytes */
	unsigned int clients_max;	/* at most CLI_CTL_CLIENTS_MAX */
	size_t request_max;		/* with the NUL; at most CLI_CTL_REQUEST_MAX */
};

const struct cli_ctl_dialect *cli_ctl_dialect(enum cli_reply_style style);

/* What the daemon does with a request: its seam into the server. */
struct cli_ctl_handler {
	void *ctx;
	/*
	 * The answer to one request (without its newline), every line ending
	 * in '\n', in a buffer the server frees; NULL if out of memory.
	 */
	char *(*execute)(void *ctx, const char *request);
};

enum cli_ctl_client_phase {
	CLI_CTL_CLIENT_FREE,
	CLI_CTL_CLIENT_READING,	/* waiting for the request line */
	CLI_CTL_CLIENT_WRITING,	/* sending the response */
	CLI_CTL_CLIENT_DRAINING,	/* our side shut: reading until the client closes */
};

struct cli_ctl_client {
	enum cli_ctl_client_phase phase;
	int fd;
	uint64_t serial;	/* order of acceptance: the lowest is the oldest */
	uint64_t deadline_ms;	/* CLOCK_MONOTONIC: when this phase gives up */
	size_t used;
	char request[CLI_CTL_REQUEST_MAX];
	const char *out;	/* the response: owned, or a constant message */
	char *owned;
	size_t out_len, sent;
	size_t drained;
};

struct cli_ctl_clients {
	const struct cli_ctl_dialect *dialect;
	struct cli_ctl_client slot[CLI_CTL_CLIENTS_MAX];
	uint64_t next_serial;
};

void cli_ctl_clients_init(struct cli_ctl_clients *c, enum cli_reply_style style);

/* Take a new non-blocking connection (closing the oldest one if full). */
void cli_ctl_clients_add(struct cli_ctl_clients *c, int fd, uint64_t now);

/* The events to poll for on a client's fd (0 for a free slot). */
short cli_ctl_client_events(const struct cli_ctl_client *cl);

/* Act on what poll() reported for the client; requests go to handler. */
void cli_ctl_client_ready(const struct cli_ctl_clients *c, struct cli_ctl_client *cl,
			 short revents, const struct cli_ctl_handler *handler, uint64_t now);

/* Move on every client whose deadline has passed; returns ms to the next
 * deadline, or -1 when no client is open. */
int cli_ctl_clients_expire(struct cli_ctl_clients *c, uint64_t now);

/* Close every connection (the daemon is stopping). */
void cli_ctl_clients_close_all(struct cli_ctl_clients *c);

#endif /* SDSI_CLI_CTL_CLIENTS_H */
