// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli_ctl_socket.h"
#include "cli_state_dir.h"
#include "cli_trusted_path.h"

_Static_assert(sizeof(((struct cli_ctl_socket *)0)->path) ==
	       sizeof(((struct sockaddr_un *)0)->sun_path), "path holds a sun_path");

/* 0 if the name is free (or was a stale socket, now removed), else -errno. */
static int claim_path(const struct sockaddr_un *addr, const char *program,
		      char *err, size_t errlen)
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
	/* Non-blocking: a live daemon with a full backlog must not hang us. */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return ret;
	}
	/* Refused: nobody listens, the socket is a leftover of a dead daemon. */
	ret = connect(fd, (const struct sockaddr *)addr, sizeof(*addr));
	if (ret < 0 && errno == EAGAIN)
		ret = 0;	/* someone listens, with a full backlog */
	close(fd);
	if (ret == 0) {
		snprintf(err, errlen, "another %s is running on %s (it answers)",
			 program, addr->sun_path);
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

/*
 * The name a socket is bound to until it listens: a client that finds the
 * real name must be able to connect, not be refused in the moment between
 * bind() and listen().  False if the name does not fit a sun_path; the
 * socket is then bound under its own name, with that moment.
 */
static bool staging_name(struct sockaddr_un *tmp, const char *path)
{
	int n = snprintf(tmp->sun_path, sizeof(tmp->sun_path), "%s.%ld.new", path,
			 (long)getpid());

	return n > 0 && (size_t)n < sizeof(tmp->sun_path);
}

int cli_ctl_socket_listen(struct cli_ctl_socket *sock, const char *path, const char *program,
			 int backlog, char *err, size_t errlen)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX }, tmp = { .sun_family = AF_UNIX };
	const struct sockaddr_un *bound = &addr;
	struct stat st;
	mode_t old_umask;
	int ret;

	memset(sock, 0, sizeof(*sock));
	sock->fd = -1;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(err, errlen, "%s: name too long for a unix socket (at most %zu bytes)",
			 path, sizeof(addr.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	ret = claim_path(&addr, program, err, errlen);
	if (ret)
		return ret;
	if (staging_name(&tmp, path)) {
		bound = &tmp;
		unlink(tmp.sun_path);	/* a leftover of a process with our pid */
	}
	sock->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (sock->fd < 0)
		goto fail;
	/* 0600 whatever the caller's umask: only we may drive the platform. */
	old_umask = umask(0177);
	ret = bind(sock->fd, (const struct sockaddr *)bound, sizeof(*bound));
	umask(old_umask);
	if (ret < 0)
		goto fail;	/* nothing of ours to remove */
	if (listen(sock->fd, backlog) < 0)
		goto fail_bound;
	/* link(), not rename(): a daemon that took the name meanwhile keeps it. */
	if (bound == &tmp && link(tmp.sun_path, path) < 0)
		goto fail_bound;
	if (bound == &tmp)
		unlink(tmp.sun_path);
	memcpy(sock->path, path, strlen(path) + 1);
	if (lstat(path, &st) < 0)
		goto fail;
	sock->dev = st.st_dev;
	sock->ino = st.st_ino;
	return 0;
fail_bound:
	ret = errno;
	unlink(bound->sun_path);
	errno = ret;
fail:
	ret = -errno;
	snprintf(err, errlen, "control socket %s: %s", path, strerror(errno));
	cli_ctl_socket_close(sock, program);
	return ret;
}

int cli_ctl_socket_check_dir(const char *path, char *err, size_t errlen)
{
	char copy[PATH_MAX], dir[PATH_MAX], above[PATH_MAX];
	size_t len = strlen(path);
	int fd, ret;

	if (len >= sizeof(copy)) {
		snprintf(err, errlen, "%s: name too long", path);
		return -ENAMETOOLONG;
	}
	memcpy(copy, path, len + 1);
	if (!realpath(dirname(copy), dir)) {
		ret = -errno;
		snprintf(err, errlen, "%s: its directory: %s", path, strerror(errno));
		return ret;
	}
	if (strcmp(dir, "/")) {
		memcpy(above, dir, strlen(dir) + 1);
		ret = cli_check_trusted_path(dirname(above), "control socket's directory", err,
					    errlen);
		if (ret)
			return ret;
	}
	fd = cli_private_dir_open(dir, "control socket's directory", err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

void cli_ctl_socket_close(struct cli_ctl_socket *sock, const char *program)
{
	struct stat st;

	if (sock->fd >= 0)
		close(sock->fd);
	sock->fd = -1;
	if (!sock->path[0])
		return;
	/* Another daemon may have replaced a socket we no longer answered on. */
	if (lstat(sock->path, &st) == 0 && st.st_dev == sock->dev && st.st_ino == sock->ino &&
	    unlink(sock->path) < 0 && errno != ENOENT)
		fprintf(stderr, "%s: cannot remove %s: %s\n", program, sock->path,
			strerror(errno));
	sock->path[0] = '\0';
}
