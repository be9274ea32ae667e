/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A daemon's control socket, as sdsi-emu and sdsi-shmem both create it:
 * whoever can connect drives the platform, so the socket is 0600 whatever
 * the umask, lies in a directory that only its owner can change, never
 * replaces a file that is not a socket, and never takes over the socket of
 * a daemon that still answers on it.
 */
#ifndef SDSI_CLI_CTL_SOCKET_H
#define SDSI_CLI_CTL_SOCKET_H

#include <stddef.h>
#include <sys/types.h>

struct cli_ctl_socket {
	int fd;			/* listening, non-blocking, close-on-exec */
	dev_t dev;		/* the socket file we bound, so that we */
	ino_t ino;		/* remove it and nothing put there since */
	char path[108];		/* sizeof(sockaddr_un.sun_path) */
};

/*
 * Bind and listen on path.  An existing name must be a socket nobody
 * answers on (a leftover of a dead daemon: removed); a live one is refused
 * with -EADDRINUSE, anything else with -EEXIST.  program names the daemon
 * in messages.  Call before starting threads: the umask is changed
 * meanwhile.  0 or -errno with a message in err; sock->fd is -1 on error.
 */
int cli_ctl_socket_listen(struct cli_ctl_socket *sock, const char *path, const char *program,
			 int backlog, char *err, size_t errlen);

/*
 * The directory that is to hold a control socket at path: resolved, every
 * directory above it trusted (cli_trusted_path.h), the directory itself
 * ours and closed to others (cli_private_dir_open).  0 or -errno with a
 * message in err.  sdsi-emu's state directory passes this by construction.
 */
int cli_ctl_socket_check_dir(const char *path, char *err, size_t errlen);

/* Close, and remove the socket file if it is still the one we bound. */
void cli_ctl_socket_close(struct cli_ctl_socket *sock, const char *program);

#endif /* SDSI_CLI_CTL_SOCKET_H */
