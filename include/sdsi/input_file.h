/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Opening a file the user names as input (a saved certificate, an AKC or
 * CAP, a key file).  A FIFO would block open() and read() until a writer
 * comes, a directory fails only at read(), a device may never end: each is
 * refused before any byte is read, with the kind of file in the message.
 * Shared by libsdsi, the licensing library and the tools; not installed.
 */
#ifndef SDSI_INPUT_FILE_H
#define SDSI_INPUT_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* "a directory", "a FIFO", ...: what a file that is not regular is. */
static inline const char *sdsi_file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

static inline int sdsi_refuse_kind(mode_t mode, const char **kind)
{
	*kind = sdsi_file_kind(mode);
	/* ENXIO is what open() itself answers for a socket or a FIFO it cannot open. */
	return S_ISDIR(mode) ? -EISDIR : -ENXIO;
}

/*
 * Open path read-only if it is a regular file.  Returns the descriptor, or
 * -errno: the open's own (*kind NULL), or -EISDIR / -ENXIO for a file that
 * is not regular (*kind says what it is).  The type is checked before the
 * open, which never opens a device or waits on a FIFO, and again on the open
 * descriptor (O_NONBLOCK), in case the name was replaced in between.
 */
static inline int sdsi_open_regular(const char *path, const char **kind)
{
	struct stat st;
	int fd, e;

	*kind = NULL;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return sdsi_refuse_kind(st.st_mode, kind);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		e = errno;
		close(fd);
		return S_ISREG(st.st_mode) ? -e : sdsi_refuse_kind(st.st_mode, kind);
	}
	return fd;
}

#endif /* SDSI_INPUT_FILE_H */
