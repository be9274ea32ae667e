// SPDX-License-Identifier: LGPL-2.1-or-later
/* Whole buffers and whole files (util_io.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util_io.h"

int util_write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int util_write_sync_close(int fd, const void *buf, size_t len, mode_t mode,
			  const char **step)
{
	int rc;

	*step = "write";
	rc = util_write_all(fd, buf, len);
	if (!rc && fchmod(fd, mode) < 0) {
		*step = "chmod";
		rc = -errno;
	}
	if (!rc && fsync(fd) < 0) {
		*step = "fsync";
		rc = -errno;
	}
	if (close(fd) < 0 && !rc) {
		*step = "close";
		rc = -errno;
	}
	return rc;
}

/* One read, made again when a signal interrupts it: the bytes read, or -errno. */
static ssize_t read_once(int fd, char *buf, size_t room)
{
	ssize_t n;

	do
		n = read(fd, buf, room);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int util_read_file(const char *path, size_t max, char **out, size_t *len)
{
	/* Room for max bytes, one more (how a longer file shows) and the NUL. */
	size_t limit = max > SIZE_MAX - 2 ? SIZE_MAX : max + 2;
	size_t cap = 0, used = 0;
	char *buf = NULL;
	ssize_t n;
	int fd, ret = 0;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (used + 1 >= cap) {
			size_t bigger = cap ? (cap > limit / 2 ? limit : cap * 2) : 4096;
			char *grown;

			if (bigger > limit)
				bigger = limit;
			grown = realloc(buf, bigger);
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
			cap = bigger;
		}
		n = read_once(fd, buf + used, cap - 1 - used);
		if (n <= 0) {
			ret = (int)n;
			break;
		}
		used += (size_t)n;
		if (used > max) {
			ret = -EFBIG;
			break;
		}
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}
