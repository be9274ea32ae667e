// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "control_server.h"

int emu_control_bind(struct emu_control_server *srv, const char *state_dir,
		     char *err, size_t errlen)
{
	int ret;

	memset(srv, 0, sizeof(*srv));
	srv->stop_fd = srv->server.sock.fd = -1;
	if (snprintf(srv->path, sizeof(srv->path), "%s/" EMU_CONTROL_SOCKET_NAME, state_dir) >=
	    (int)sizeof(srv->path)) {
		snprintf(err, errlen, "state directory %s: name too long for a unix socket (at most %zu bytes)",
			 state_dir, sizeof(srv->path) - sizeof("/" EMU_CONTROL_SOCKET_NAME));
		srv->path[0] = '\0';
		return -ENAMETOOLONG;
	}
	ret = cli_ctl_server_listen(&srv->server, srv->path, "sdsi-emu", CLI_REPLY_ERRNO,
				   err, errlen);
	if (ret)
		srv->path[0] = '\0';
	return ret;
}

static char *execute(void *ctx, const char *request)
{
	return emu_control_execute(ctx, request);
}

/*
 * One thread serves every connection, so commands still run one at a time
 * (each under the socket locks it takes, see control_commands.c), but no
 * connection waits for another's I/O.
 */
static void *control_thread(void *arg)
{
	struct emu_control_server *srv = arg;

	while (cli_ctl_server_serve(&srv->server, &srv->handler, srv->stop_fd, true) == 0)
		;
	cli_ctl_clients_close_all(&srv->server.clients);
	return NULL;
}

int emu_control_start(struct emu_control_server *srv, struct emu_control_target *target,
		      char *err, size_t errlen)
{
	int ret;

	srv->handler = (struct cli_ctl_handler){ .ctx = target, .execute = execute };
	srv->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (srv->stop_fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		return ret;
	}
	ret = pthread_create(&srv->thread, NULL, control_thread, srv);
	if (ret) {
		snprintf(err, errlen, "cannot start the control thread: %s", strerror(ret));
		return -ret;
	}
	srv->running = true;
	return 0;
}

void emu_control_close(struct emu_control_server *srv)
{
	if (srv->running) {
		uint64_t one = 1;

		if (write(srv->stop_fd, &one, sizeof(one)) == (ssize_t)sizeof(one))
			pthread_join(srv->thread, NULL);
		srv->running = false;
	}
	if (srv->stop_fd >= 0)
		close(srv->stop_fd);
	cli_ctl_server_close(&srv->server);
	srv->stop_fd = -1;
	srv->path[0] = '\0';
}
