// SPDX-License-Identifier: GPL-2.0-only
/* The window file, opened once and judged by its descriptor (window_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "paths/sdsi_path.h"
#include "window_file.h"

#define WHAT	"window"

/* Close fd; -e, the error its message in err is about. */
static int refuse(int fd, int e)
{
	close(fd);
	return -e;
}

int window_file_open(const char *path, bool create, struct stat *st,
		     char *err, size_t errlen)
{
	char leaf[NAME_MAX + 1];
	int dirfd, fd, e, ret;

	dirfd = sdsi_path_open_parent(path, WHAT, leaf, err, errlen);
	if (dirfd < 0)
		return dirfd;
	/* O_NONBLOCK: a FIFO put there is refused below, never waited on. */
	fd = openat(dirfd, leaf, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		    (create ? O_CREAT : 0), 0600);
	e = errno;
	close(dirfd);
	if (fd < 0) {
		if (e == ELOOP)
			snprintf(err, errlen, WHAT " %s: a symbolic link, not followed: "
				 "name the window itself", path);
		else
			snprintf(err, errlen, WHAT " %s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, st) < 0) {
		e = errno;
		snprintf(err, errlen, WHAT " %s: %s", path, strerror(e));
		return refuse(fd, e);
	}
	if (S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, WHAT " %s: a directory", path);
		return refuse(fd, EISDIR);
	}
	if (!S_ISREG(st->st_mode) && !S_ISCHR(st->st_mode)) {
		snprintf(err, errlen, WHAT " %s: neither a regular file nor a character device",
			 path);
		return refuse(fd, ENXIO);
	}
	ret = sdsi_path_check_owner(st, false, WHAT, path, path, err, errlen);
	if (ret)
		return refuse(fd, -ret);
	/* Back to blocking I/O for whoever reads it; mmap() does not care. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = errno;
		snprintf(err, errlen, WHAT " %s: %s", path, strerror(e));
		return refuse(fd, e);
	}
	return fd;
}
