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

#define REQUEST_MAX		1024
#define CLIENT_TIMEOUT_MS	5000
#define DRAIN_TIMEOUT_MS	1000
#define DRAIN_MAX		65536

static int set_address(struct sockaddr_un *addr, const char *path)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr->sun_path))
		return -ENAMETOOLONG;
	memcpy(addr->sun_path, path, strlen(path) + 1);
	return 0;
}

/* 0 if path is free (or was a stale socket, now removed), else -errno. */
static int claim_path(const struct sockaddr_un *addr, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	if (lstat(addr->sun_path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		snprintf(err, errlen, "%s: %s", addr->sun_path, strerror(errno));
		return ret;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a socket", addr->sun_path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return ret;
	}
	/* Refused: nobody listens, the socket is a leftover of a dead emulator. */
	ret = connect(fd, (const struct sockaddr *)addr, sizeof(*addr));
	close(fd);
	if (ret == 0) {
		snprintf(err, errlen, "another sdsi-emu is running on this state directory (%s answers)",
			 addr->sun_path);
		return -EADDRINUSE;
	}
	if (unlink(addr->sun_path) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(err, errlen, "cannot remove the stale socket %s: %s",
			 addr->sun_path, strerror(errno));
		return ret;
	}
	return 0;
}

int emu_control_bind(struct emu_control_server *srv, const char *state_dir,
		     char *err, size_t errlen)
{
	struct sockaddr_un addr;
	mode_t old_umask;
	int ret;

	memset(srv, 0, sizeof(*srv));
	srv->listen_fd = srv->stop_fd = -1;
	if (snprintf(srv->path, sizeof(srv->path), "%s/" EMU_CONTROL_SOCKET_NAME, state_dir) >=
	    (int)sizeof(srv->path) || set_address(&addr, srv->path)) {
		snprintf(err, errlen, "state directory %s: name too long for a unix socket (at most %zu bytes)",
			 state_dir, sizeof(srv->path) - sizeof("/" EMU_CONTROL_SOCKET_NAME));
		srv->path[0] = '\0';
		return -ENAMETOOLONG;
	}
	ret = claim_path(&addr, err, errlen);
	if (ret) {
		srv->path[0] = '\0';
		return ret;
	}

	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (srv->listen_fd < 0)
		goto fail;
	old_umask = umask(0177);
	ret = bind(srv->listen_fd, (const struct sockaddr *)&addr, sizeof(addr));
	umask(old_umask);
	if (ret < 0) {
		srv->path[0] = '\0';	/* not ours to remove */
		goto fail;
	}
	if (listen(srv->listen_fd, 8) < 0)
		goto fail;
	return 0;
fail:
	ret = -errno;
	snprintf(err, errlen, "control socket %s/" EMU_CONTROL_SOCKET_NAME ": %s",
		 state_dir, strerror(errno));
	emu_control_close(srv);
	return ret;
}

static void send_text(int fd, const char *buf)
{
	size_t len = strlen(buf);

	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n <= 0)
			return;		/* the client went away: nothing to do */
		buf += n;
		len -= (size_t)n;
	}
}

/* Read one line: 0, -ETIMEDOUT, -EMSGSIZE (too long) or -ENODATA (none). */
static int read_request(int fd, char *buf, size_t size)
{
	size_t used = 0;
	char *nl;

	while (used < size - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, CLIENT_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, buf + used, size - 1 - used, 0);
		if (n <= 0) {
			/* A request without its newline still counts at EOF. */
			buf[used] = '\0';
			return n == 0 && used > 0 ? 0 : -ENODATA;
		}
		used += (size_t)n;
		buf[used] = '\0';
		nl = strchr(buf, '\n');
		if (nl) {
			*nl = '\0';
			return 0;
		}
	}
	return -EMSGSIZE;
}

/*
 * Closing a unix socket with unread input resets the connection, and the
 * client may then lose the answer: end our side first, then read what the
 * client still sends (briefly) until it closes.
 */
static void finish_client(int fd)
{
	char discard[4096];
	size_t total = 0;

	shutdown(fd, SHUT_WR);
	while (total < DRAIN_MAX) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, DRAIN_TIMEOUT_MS) <= 0)
			return;
		n = recv(fd, discard, sizeof(discard), 0);
		if (n <= 0)
			return;
		total += (size_t)n;
	}
}

static void serve_client(struct emu_control_server *srv, int fd)
{
	char request[REQUEST_MAX];
	char *response;

	switch (read_request(fd, request, sizeof(request))) {
	case 0:
		break;
	case -EMSGSIZE:
		send_text(fd, "error EMSGSIZE: request longer than 1023 bytes\n");
		return;
	case -ETIMEDOUT:
		send_text(fd, "error ETIMEDOUT: no request line within 5 s\n");
		return;
	default:
		send_text(fd, "error ENODATA: empty request\n");
		return;
	}
	response = emu_control_execute(srv->target, request);
	if (!response) {
		send_text(fd, "error ENOMEM: out of memory\n");
		return;
	}
	send_text(fd, response);
	free(response);
}

static void *control_thread(void *arg)
{
	struct emu_control_server *srv = arg;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = srv->listen_fd, .events = POLLIN },
			{ .fd = srv->stop_fd, .events = POLLIN },
		};
		int fd;

		if (poll(p, 2, -1) < 0)
			continue;
		if (p[1].revents)
			break;
		fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		serve_client(srv, fd);
		finish_client(fd);
		close(fd);
	}
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
	if (srv->listen_fd >= 0)
		close(srv->listen_fd);
	srv->stop_fd = srv->listen_fd = -1;
	if (srv->path[0] && unlink(srv->path) < 0 && errno != ENOENT)
		fprintf(stderr, "sdsi-emu: cannot remove %s: %s\n", srv->path, strerror(errno));
	srv->path[0] = '\0';
}
