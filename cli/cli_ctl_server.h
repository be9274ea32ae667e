/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control server of both daemons: their one place that accepts a
 * connection.  It listens on a socket guarded as cli_ctl_socket.h says,
 * serves its connections side by side (cli_ctl_clients.h: limits, deadlines,
 * the oldest evicted) and hands each request line to the daemon's handler.
 * What differs between the daemons is a parameter: the reply style, in
 * which the server's own errors are said as the commands' answers are.
 *
 * sdsi-emu serves it from a thread of its own, waiting in it; sdsi-shmem
 * from its polling thread between passes, never waiting.  Either way one
 * thread serves a server, so requests run one at a time.
 */
#ifndef SDSI_CLI_CTL_SERVER_H
#define SDSI_CLI_CTL_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_ctl_clients.h"
#include "cli_ctl_socket.h"
#include "cli_reply.h"

struct cli_ctl_server {
	struct cli_ctl_socket sock;
	const char *program;	/* names the daemon in messages */
	uint64_t paused_until;	/* accepting, after EMFILE */
	struct cli_ctl_clients clients;
};

/*
 * Listen on path (cli_ctl_socket_listen: 0600, a stale socket replaced, a
 * live one or any other file refused).  Call before starting threads.
 * 0 or -errno with a message in err; sock.fd is -1 on error.
 */
int cli_ctl_server_listen(struct cli_ctl_server *srv, const char *path, const char *program,
			 enum cli_reply_style style, char *err, size_t errlen);

/*
 * Serve what is ready: take new connections, read, answer through
 * handler, send, give up on connections past their deadlines.  With wait,
 * first wait until one of these or wake_fd (-1: none) is ready.  Returns
 * 1 once wake_fd is readable, 0, or -errno if polling failed.
 */
int cli_ctl_server_serve(struct cli_ctl_server *srv, const struct cli_ctl_handler *handler,
			int wake_fd, bool wait);

/* Close every connection and the socket, and remove its file.  Idempotent. */
void cli_ctl_server_close(struct cli_ctl_server *srv);

#endif /* SDSI_CLI_CTL_SERVER_H */
