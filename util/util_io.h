/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whole buffers and whole files through a descriptor. */
#ifndef SDSI_UTIL_IO_H
#define SDSI_UTIL_IO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Write all len bytes of buf to fd: a short write is continued and a write
 * interrupted by a signal (EINTR) is made again.  0, or -errno of the
 * write that failed (what was written before it stays written).
 */
int util_write_all(int fd, const void *buf, size_t len);

/*
 * A new file's contents made durable before it is renamed into place: all
 * of buf written to fd, mode given, fsync, then fd closed (in any case).
 * 0, or -errno with *step naming what failed: "write", "chmod", "fsync" or
 * "close" (the words the callers' messages print).
 */
int util_write_sync_close(int fd, const void *buf, size_t len, mode_t mode,
			  const char **step);

/*
 * The whole of the file at path, for files whose size is not known before
 * reading (those of /proc say 0): a buffer of *len bytes plus a NUL after
 * them, to free().  A file longer than max bytes is refused (-EFBIG), so
 * that no file grows the buffer without bound.  0, or -errno with *out NULL.
 */
int util_read_file(const char *path, size_t max, char **out, size_t *len);

#endif /* SDSI_UTIL_IO_H */
