// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading attributes and saved files.  A certificate attribute answers one
 * read() at offset 0 with a whole mailbox transaction and returns EOF at any
 * other offset, so attributes are read exactly once; saved files are read to
 * their end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/input_file.h"
#include "sdsi/sysfs_files.h"
#include "sdsi_internal.h"
#include "util/util_array.h"

/* The public enum is fixed by libsdsi's ABI; the files are sysfs_files.h's. */
static const enum sdsi_sysfs_file attr_files[] = {
	[SDSI_ATTR_REGISTERS] = SDSI_FILE_REGISTERS,
	[SDSI_ATTR_STATE_CERT] = SDSI_FILE_STATE_CERT,
	[SDSI_ATTR_METER_CERT] = SDSI_FILE_METER_CERT,
	[SDSI_ATTR_METER_CURRENT] = SDSI_FILE_METER_CURRENT,
};

const char *sdsi_attr_file(enum sdsi_attr attr)
{
	if ((unsigned int)attr >= UTIL_ARRAY_SIZE(attr_files))
		return "?";
	return sdsi_sysfs_file_name(attr_files[attr]);
}

int sdsi_read_attr(const struct sdsi_device *dev, enum sdsi_attr attr,
		   uint8_t *buf, size_t *len, struct sdsi_error *err)
{
	char path[SDSI_PATH_SIZE + 32];
	const char *kind;
	ssize_t got;
	int fd, e;

	sdsi_clear_error(err);
	*len = 0;
	snprintf(path, sizeof(path), "%s/%s", dev->path, sdsi_attr_file(attr));
	/* Relative to the device directory, no link followed, a regular file. */
	fd = sdsi_open_attr(dev, sdsi_attr_file(attr), O_RDONLY, &e, &kind);
	if (fd < 0)
		return sdsi_fail_attr_open(err, dev, sdsi_attr_file(attr), e, kind, false);
	got = read(fd, buf, SDSI_READ_BUF_SIZE);
	e = errno;
	close(fd);
	if (got < 0)
		return sdsi_fail(err, e, sdsi_errno_class(e, false), -1, "%s: read: %s",
				 path, sdsi_errno_meaning(e, false));
	if (got == 0)
		return sdsi_fail(err, ENODATA, SDSI_ERR_IO, 0, "%s: read returned no data", path);
	*len = (size_t)got;
	return 0;
}

int sdsi_read_file(const char *path, uint8_t *buf, size_t cap, size_t *len,
		   struct sdsi_error *err)
{
	size_t have = 0;
	uint8_t extra;
	ssize_t got;
	int fd, e;

	const char *kind;

	sdsi_clear_error(err);
	*len = 0;
	/* The file is named by the user: whatever keeps it from being read is a usage error. */
	fd = sdsi_open_regular(path, &kind);
	if (fd < 0 && kind)
		return sdsi_fail(err, -fd, SDSI_ERR_USAGE, -1,
				 "%s: not a regular file: it is %s", path, kind);
	if (fd < 0)
		return sdsi_fail(err, -fd, fd == -ENOMEM ? SDSI_ERR_INTERNAL : SDSI_ERR_USAGE,
				 -1, "%s: %s", path, strerror(-fd));
	for (;;) {
		got = read(fd, have < cap ? buf + have : &extra, have < cap ? cap - have : 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (have == cap) {
			struct stat st;
			/* Its real size, when the file says: "5242880 bytes", not "more". */
			long long size = fstat(fd, &st) == 0 && st.st_size > (off_t)cap
						 ? (long long)st.st_size : -1;

			close(fd);
			if (size > 0)
				return sdsi_fail(err, EFBIG, SDSI_ERR_MALFORMED, (long)cap,
						 "%s is %lld bytes, larger than %zu", path, size, cap);
			return sdsi_fail(err, EFBIG, SDSI_ERR_MALFORMED, (long)cap,
					 "%s is larger than %zu bytes", path, cap);
		}
		have += (size_t)got;
	}
	e = errno;
	close(fd);
	if (got < 0)
		return sdsi_fail(err, e, SDSI_ERR_IO, -1, "%s: read: %s", path, strerror(e));
	*len = have;
	return 0;
}
