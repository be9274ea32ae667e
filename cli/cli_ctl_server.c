// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "cli_ctl_server.h"
#include "util/util_time.h"

/* Connections waiting to be accepted; they are taken at the next look. */
#define LISTEN_BACKLOG		64
/*
 * Out of file descriptors (EMFILE, ENFILE), accept4() fails and leaves the
 * connection waiting, so the listening socket stays readable: polling it
 * again at once would spin.  It is left out of poll() this long instead,
 * while the open connections finish and give their descriptors back.
 */
#define ACCEPT_PAUSE_MS		100

int cli_ctl_server_listen(struct cli_ctl_server *srv, const char *path, const char *program,
			 enum cli_reply_style style, char *err, size_t errlen)
{
	memset(srv, 0, sizeof(*srv));
	srv->program = program;
	cli_ctl_clients_init(&srv->clients, style);
	/* Non-blocking: every waiting connection is accepted, then no more. */
	return cli_ctl_socket_listen(&srv->sock, path, program, LISTEN_BACKLOG, err, errlen);
}

/* Take every waiting connection; false if out of file descriptors. */
static bool accept_clients(struct cli_ctl_server *srv)
{
	for (;;) {
		int fd = accept4(srv->sock.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)	/* EAGAIN: all taken; anything else: next round */
			return errno != EMFILE && errno != ENFILE;
		cli_ctl_clients_add(&srv->clients, fd, util_now_ms());
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

int cli_ctl_server_serve(struct cli_ctl_server *srv, const struct cli_ctl_handler *handler,
			int wake_fd, bool wait)
{
	struct cli_ctl_clients *clients = &srv->clients;
	struct pollfd p[2 + CLI_CTL_CLIENTS_MAX];
	uint64_t now = util_now_ms();
	int clients_ms = cli_ctl_clients_expire(clients, now);
	bool paused = now < srv->paused_until;

	p[0] = (struct pollfd){ .fd = paused ? -1 : srv->sock.fd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = wake_fd, .events = POLLIN };
	for (unsigned int i = 0; i < CLI_CTL_CLIENTS_MAX; i++) {
		short events = cli_ctl_client_events(&clients->slot[i]);

		p[2 + i] = (struct pollfd){ .fd = events ? clients->slot[i].fd : -1,
					    .events = events };
	}
	if (poll(p, 2 + CLI_CTL_CLIENTS_MAX,
		 wait ? next_timeout(clients_ms, srv->paused_until, now) : 0) < 0)
		return errno == EINTR ? 0 : -errno;
	if (p[1].revents)
		return 1;
	/*
	 * Connections first: one that has closed gives its slot back before
	 * a connection made after it is accepted.
	 */
	now = util_now_ms();
	for (unsigned int i = 0; i < CLI_CTL_CLIENTS_MAX; i++)
		cli_ctl_client_ready(clients, &clients->slot[i], p[2 + i].revents, handler, now);
	if (p[0].revents && !accept_clients(srv))
		srv->paused_until = util_now_ms() + ACCEPT_PAUSE_MS;
	return 0;
}

void cli_ctl_server_close(struct cli_ctl_server *srv)
{
	cli_ctl_clients_close_all(&srv->clients);
	if (srv->program)
		cli_ctl_socket_close(&srv->sock, srv->program);
}
