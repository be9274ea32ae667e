/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The window file, opened as every path that matters is (sdsi_path.h) by
 * both of its users: sdsi-shmem, which creates, grows and serves it, and
 * sdsi-emu mount --window, which maps it behind the FUSE driver.  Its
 * control page drives the platform and root maps it, so:
 *   - the directories above it are walked from "/" with openat(O_NOFOLLOW),
 *     each owned by root or us and closed to others (a sticky /tmp is
 *     fine): nobody else can swap one for a link to root's files;
 *   - the file is opened in the directory so opened, never through a
 *     symbolic link, and judged by its descriptor: a regular file or a
 *     character device, owned by root or us, writable by neither its group
 *     nor others.
 * The size is the caller's business, and so is a file that shrinks after
 * it was mapped (backends/window/window_backend.c).
 */
#ifndef SDSI_WINDOW_FILE_H
#define SDSI_WINDOW_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "paths/sdsi_path.h"

/* Room for any message of window_file_open. */
#define WINDOW_FILE_ERR_SIZE	SDSI_PATH_ERR_SIZE

/*
 * Open path read-write (with create: made 0600 if missing), close-on-exec;
 * *st receives its fstat().  The descriptor, or -errno with a message in
 * err that names path: -ELOOP for a symbolic link (the last component or
 * one above), -EPERM for an owner or mode that others could use, -EISDIR
 * for a directory, -ENXIO for a FIFO, socket or block device, -ENOENT
 * for a missing file or directory (without create).
 */
int window_file_open(const char *path, bool create, struct stat *st,
		     char *err, size_t errlen);

#endif /* SDSI_WINDOW_FILE_H */
