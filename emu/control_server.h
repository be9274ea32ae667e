/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control socket, STATE/control.sock (mode 0600): the daemons' control
 * server (cli/cli_ctl_server.h) in sdsi-emu's reply style, served by a
 * thread of its own, one request line and one response per connection,
 * every connection served side by side.
 */
#ifndef SDSI_EMU_CONTROL_SERVER_H
#define SDSI_EMU_CONTROL_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/un.h>

#include "control_commands.h"
#include "cli/cli_ctl_server.h"

#define EMU_CONTROL_SOCKET_NAME	"control.sock"

struct emu_control_server {
	struct cli_ctl_server server;
	int stop_fd;		/* eventfd: written to stop the thread */
	bool running;
	pthread_t thread;
	struct cli_ctl_handler handler;	/* the thread's */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/*
 * Create and bind the socket in state_dir.  A socket file nobody serves is
 * stale and replaced; one that accepts a connection belongs to another live
 * emulator on the same state directory, which is refused (-EADDRINUSE).
 * Call before starting threads: the socket is created under a private umask.
 */
int emu_control_bind(struct emu_control_server *srv, const char *state_dir,
		     char *err, size_t errlen);

/* Serve requests against target from a new thread. */
int emu_control_start(struct emu_control_server *srv, struct emu_control_target *target,
		      char *err, size_t errlen);

/* Stop the thread (if started), close and remove the socket.  Idempotent. */
void emu_control_close(struct emu_control_server *srv);

#endif /* SDSI_EMU_CONTROL_SERVER_H */
