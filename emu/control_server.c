// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control_server.h"
#include "fe_ctl_socket.h"

/* Connections waiting to be accepted; the thread takes them at once. */
#define LISTEN_BACKLOG		64
/*
 * Out of file descriptors (EMFILE, ENFILE), accept4() fails and leaves the
 * connection waiting, so the listening socket stays readable: polling it
 * again at once would spin.  It is left out of poll() this long instead,
 * while the open connections finish and give their descriptors back.
 */
#define ACCEPT_PAUSE_MS		100

int emu_control_bind(struct emu_control_server *srv, const char *state_dir,
		     char *err, size_t errlen)
{
	int ret;

	memset(srv, 0, sizeof(*srv));
	srv->listen_fd = srv->stop_fd = srv->sock.fd = -1;
	if (snprintf(srv->path, sizeof(srv->path), "%s/" EMU_CONTROL_SOCKET_NAME, state_dir) >=
	    (int)sizeof(srv->path)) {
		snprintf(err, errlen, "state directory %s: name too long for a unix socket (at most %zu bytes)",
			 state_dir, sizeof(srv->path) - sizeof("/" EMU_CONTROL_SOCKET_NAME));
		srv->path[0] = '\0';
		return -ENAMETOOLONG;
	}
	/* Non-blocking: the thread accepts until none is left waiting. */
	ret = fe_ctl_socket_listen(&srv->sock, srv->path, "sdsi-emu", LISTEN_BACKLOG,
				   err, errlen);
	if (ret) {
		srv->path[0] = '\0';
		return ret;
	}
	srv->listen_fd = srv->sock.fd;
	return 0;
}

/* Take every waiting connection; false if out of file descriptors. */
static bool accept_clients(struct emu_control_server *srv, struct emu_control_clients *clients)
{
	for (;;) {
		int fd = accept4(srv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)	/* EAGAIN: all taken; anything else: next round */
			return errno != EMFILE && errno != ENFILE;
		emu_control_clients_add(clients, fd, emu_control_now_ms());
	}
}

/* The poll timeout: the clients' next deadline, or the end of a pause. */
static int next_timeout(int clients_ms, uint64_t paused_until, uint64_t now)
{
	int pause_ms;

	if (paused_until <= now)
		return clients_ms;
	pause_ms = (int)(paused_until - now);
	return clients_ms < 0 || pause_ms < clients_ms ? pause_ms : clients_ms;
}

/*
 * One thread serves every connection from one poll loop, so commands still
 * run one at a time (each under the socket locks it takes, see
 * control_commands.c), but no connection waits for another's I/O.
 */
static void *control_thread(void *arg)
{
	struct emu_control_server *srv = arg;
	struct emu_control_clients *clients = &srv->clients;
	struct pollfd p[2 + EMU_CONTROL_CLIENTS_MAX];
	uint64_t paused_until = 0;	/* accepting, after EMFILE */
	int timeout = -1;

	emu_control_clients_init(clients);
	for (;;) {
		unsigned int i;
		uint64_t now = emu_control_now_ms();
		bool paused = now < paused_until;

		p[0] = (struct pollfd){ .fd = paused ? -1 : srv->listen_fd, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = srv->stop_fd, .events = POLLIN };
		for (i = 0; i < EMU_CONTROL_CLIENTS_MAX; i++) {
			short events = emu_control_client_events(&clients->slot[i]);

			p[2 + i] = (struct pollfd){ .fd = events ? clients->slot[i].fd : -1,
						    .events = events };
		}
		if (poll(p, 2 + EMU_CONTROL_CLIENTS_MAX, timeout) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		now = emu_control_now_ms();
		for (i = 0; i < EMU_CONTROL_CLIENTS_MAX; i++)
			emu_control_client_ready(&clients->slot[i], p[2 + i].revents,
						 srv->target, now);
		if (p[0].revents && !accept_clients(srv, clients))
			paused_until = emu_control_now_ms() + ACCEPT_PAUSE_MS;
		now = emu_control_now_ms();
		timeout = next_timeout(emu_control_clients_expire(clients, now), paused_until, now);
	}
	emu_control_clients_close_all(clients);
	return NULL;
}

int emu_control_start(struct emu_control_server *srv, struct emu_control_target *target,
		      char *err, size_t errlen)
{
	int ret;

	srv->target = target;
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
	fe_ctl_socket_close(&srv->sock, "sdsi-emu");
	srv->stop_fd = srv->listen_fd = -1;
	srv->path[0] = '\0';
}
