/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control requests of sdsi-shmem: what the sysfs ABI cannot do (power
 * cycles, faults, BIOS settings), one request line per connection on the
 * control socket or one at a time on the window's control page
 * (window/ctlpage.h), answered with "ok", status's JSON or "error: REASON".  The commands are sdsi-emu's
 * (cli/cli_ctl.h: the same table, grammar and limits); bind, unbind and
 * advance answer "not served by sdsi-shmem", which has no driver to bind
 * and keeps its models on the host's clock.  Requests are served by the
 * polling thread between passes, so the model and the window never change
 * under a pass.
 */
#ifndef SDSI_SHMEM_CONTROL_H
#define SDSI_SHMEM_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "window/ctlpage.h"
#include "cli/cli_ctl_server.h"
#include "sdsi_shmem.h"

struct shmem_machine {
	unsigned int sockets;
	struct sdsi_model **models;
	struct shmem_port *ports;
};

struct shmem_control {
	struct cli_ctl_server server;	/* in the terse reply style */
};

/*
 * Listen on a Unix socket at path, as sdsi-emu does on its own: its
 * directory ours and closed to others, the socket 0600, a stale socket
 * replaced, a live one or any other file refused (cli_ctl_socket.h).
 * 0 or -errno with a message in err.
 */
int shmem_control_listen(struct shmem_control *ctl, const char *path,
			 char *err, size_t errlen);

/*
 * Serve without waiting: take new connections, read what has arrived, send
 * what fits.  A connection has 5 s to send its line and 5 s more to take
 * its reply; past 16 connections the oldest is closed, so no client,
 * however idle or slow, holds up another or the poller
 * (cli/cli_ctl_clients.h).
 */
void shmem_control_serve(struct shmem_control *ctl,
			 struct shmem_machine *machine);

/* Close every connection and the listening socket, and remove its file. */
void shmem_control_close(struct shmem_control *ctl);

/*
 * Answer the control page's pending request, if any, with these commands
 * (the page's handler, ctlpage.h); true if one was answered.
 */
bool shmem_control_serve_page(struct window_ctlpage *page,
			      struct shmem_machine *machine);

/* Execute one request line; the answer (without newline) goes to reply. */
void shmem_control_execute(struct shmem_machine *machine, const char *line,
			   char *reply, size_t replylen);

#endif /* SDSI_SHMEM_CONTROL_H */
