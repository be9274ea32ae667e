// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The walk of sdsi_path.h: one openat(O_NOFOLLOW) per component from "/",
 * each directory checked by its descriptor before the next is opened in
 * it, so that what was checked is what the next lookup goes through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "path_internal.h"
#include "sdsi_path.h"

#define DIR_FLAGS	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
#define FILE_FLAGS	(O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

int sdsi_path_fail(char *err, size_t errlen, int e, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -e;
}

int sdsi_path_check_owner(const struct stat *st, bool sticky_ok, const char *what,
			  const char *path, const char *component, char *err, size_t errlen)
{
	uid_t me = geteuid();
	const char *sep = strcmp(path, component) ? ": " : "";
	const char *comp = strcmp(path, component) ? component : "";

	if (st->st_uid != 0 && st->st_uid != me)
		return sdsi_path_fail(err, errlen, EPERM,
			    "%s %s: %s%sowned by uid %u, not by root or uid %u, so its owner could replace what it holds",
			    what, path, comp, *sep ? " is " : "", (unsigned int)st->st_uid,
			    (unsigned int)me);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_ok && (st->st_mode & S_ISVTX)))
		return sdsi_path_fail(err, errlen, EPERM,
			    "%s %s: %s%swritable by %s (mode %04o)%s, so others could replace what it holds",
			    what, path, comp, *sep ? " is " : "",
			    st->st_mode & S_IWOTH ? "others" : "its group",
			    (unsigned int)(st->st_mode & 07777),
			    sticky_ok ? " without the sticky bit" : "");
	return 0;
}

/*
 * Why an openat(O_NOFOLLOW) of component failed, in words.  component is
 * path itself when the whole name failed: it is then not repeated.
 */
static int open_failed(int e, const char *what, const char *path, const char *component,
		       char *err, size_t errlen)
{
	const bool whole = component == path;

	if (e == ELOOP)
		return sdsi_path_fail(err, errlen, ELOOP,
			    "%s %s: %s%sa symbolic link, not followed (its target could be swapped); name the real path",
			    what, path, whole ? "" : component, whole ? "" : " is ");
	if (e == ENOTDIR)
		return sdsi_path_fail(err, errlen, e, "%s %s: %s%snot a directory", what, path,
			    whole ? "" : component, whole ? "" : " is ");
	if (whole)
		return sdsi_path_fail(err, errlen, e, "%s %s: %s", what, path, strerror(e));
	return sdsi_path_fail(err, errlen, e, "%s %s: %s: %s", what, path, component, strerror(e));
}

/* The descriptor of the directory component, already open as fd, checked. */
static int check_dir(int fd, const char *what, const char *path, const char *component,
		     char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return sdsi_path_fail(err, errlen, errno, "%s %s: %s: %s", what, path, component,
			    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return open_failed(ENOTDIR, what, path, component, err, errlen);
	return sdsi_path_check_owner(&st, true, what, path, component, err, errlen);
}

/*
 * The absolute form of path in abs (PATH_MAX bytes): path itself, or the
 * working directory's name, '/', path.
 */
static int absolute(const char *path, char *abs, const char *what, char *err, size_t errlen)
{
	size_t len = strlen(path), cwd;

	if (!len)
		return sdsi_path_fail(err, errlen, ENOENT, "%s: an empty name", what);
	if (len >= PATH_MAX)
		return sdsi_path_fail(err, errlen, ENAMETOOLONG, "%s %.64s...: a name of %zu bytes, longer than %d",
			    what, path, len, PATH_MAX - 1);
	if (path[0] == '/') {
		memcpy(abs, path, len + 1);
		return 0;
	}
	if (!getcwd(abs, PATH_MAX))
		return sdsi_path_fail(err, errlen, errno, "%s %s: the working directory: %s", what, path,
			    strerror(errno));
	cwd = strlen(abs);
	if (cwd + 1 + len >= PATH_MAX)
		return sdsi_path_fail(err, errlen, ENAMETOOLONG,
			    "%s %s: with the working directory %s before it, longer than %d bytes",
			    what, path, abs, PATH_MAX - 1);
	abs[cwd] = '/';
	memcpy(abs + cwd + 1, path, len + 1);
	return 0;
}

/*
 * Walk abs from "/" through every component up to (not including) the one
 * starting at stop (or to its end when stop is NULL); returns the last
 * directory's descriptor.  comp is scratch of PATH_MAX bytes for messages.
 */
static int walk(const char *abs, const char *stop, const char *what, const char *path,
		char *err, size_t errlen)
{
	const char *p = abs, *end = stop ? stop : abs + strlen(abs);
	char name[NAME_MAX + 1], comp[PATH_MAX];
	const char *shown;
	int fd, next, rc;

	fd = open("/", DIR_FLAGS);
	if (fd < 0)
		return open_failed(errno, what, path, "/", err, errlen);
	rc = check_dir(fd, what, path, "/", err, errlen);
	while (!rc) {
		size_t n;

		while (p < end && *p == '/')
			p++;
		if (p >= end)
			break;
		n = strcspn(p, "/");
		if (p + n > end)
			n = (size_t)(end - p);
		if (n > NAME_MAX) {
			rc = sdsi_path_fail(err, errlen, ENAMETOOLONG, "%s %s: a component of %zu bytes, longer than %d",
				  what, path, n, NAME_MAX);
			break;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		snprintf(comp, sizeof(comp), "%.*s", (int)(p - abs), abs);
		/* The whole name: messages say "what PATH: reason", not PATH twice. */
		shown = strcmp(comp, abs) ? comp : path;
		next = openat(fd, name, DIR_FLAGS);
		if (next < 0) {
			int e = errno;
			struct stat st;

			/*
			 * O_DIRECTORY answers ENOTDIR for a link: a look at
			 * the name, for the message only (it is refused anyway).
			 */
			if (e == ENOTDIR && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				e = ELOOP;
			rc = open_failed(e, what, path, shown, err, errlen);
			break;
		}
		close(fd);
		fd = next;
		rc = check_dir(fd, what, path, shown, err, errlen);
	}
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int sdsi_path_open_dir(const char *path, const char *what, char *err, size_t errlen)
{
	char abs[PATH_MAX];
	int rc = absolute(path, abs, what, err, errlen);

	return rc ? rc : walk(abs, NULL, what, path, err, errlen);
}

int sdsi_path_open_parent(const char *path, const char *what, char leaf[NAME_MAX + 1],
			  char *err, size_t errlen)
{
	char abs[PATH_MAX];
	const char *last;
	size_t n;
	int rc = absolute(path, abs, what, err, errlen);

	if (rc)
		return rc;
	last = strrchr(abs, '/') + 1;
	n = strlen(last);
	if (!n || !strcmp(last, ".") || !strcmp(last, ".."))
		return sdsi_path_fail(err, errlen, EISDIR, "%s %s: names a directory, not a file", what, path);
	if (n > NAME_MAX)
		return sdsi_path_fail(err, errlen, ENAMETOOLONG, "%s %s: a file name of %zu bytes, longer than %d",
			    what, path, n, NAME_MAX);
	memcpy(leaf, last, n + 1);
	return walk(abs, last, what, path, err, errlen);
}

int sdsi_path_openat_file(int dirfd, const char *name, const char *path, const char *what,
			  unsigned int flags, struct stat *st, char *err, size_t errlen)
{
	struct stat own;
	int fd, rc;

	if (!st)
		st = &own;
	if (strchr(name, '/') || !*name)
		return sdsi_path_fail(err, errlen, EINVAL, "%s %s: '%s' is not one file name", what, path, name);
	fd = openat(dirfd, name, FILE_FLAGS);
	if (fd < 0) {
		int e = errno;

		if (e == ELOOP)
			return sdsi_path_fail(err, errlen, ELOOP,
				    "%s %s: a symbolic link, not followed (its target could be swapped); name the file itself",
				    what, path);
		return sdsi_path_fail(err, errlen, e, "%s %s: %s", what, path, strerror(e));
	}
	if (fstat(fd, st) < 0) {
		rc = sdsi_path_fail(err, errlen, errno, "%s %s: %s", what, path, strerror(errno));
	} else if (!S_ISREG(st->st_mode)) {
		/* Opened O_NONBLOCK: a FIFO did not block, and is refused unread. */
		rc = sdsi_path_fail(err, errlen, S_ISDIR(st->st_mode) ? EISDIR : ENXIO,
			  "%s %s: not a regular file: it is %s", what, path,
			  S_ISDIR(st->st_mode) ? "a directory" :
			  S_ISFIFO(st->st_mode) ? "a FIFO" :
			  S_ISSOCK(st->st_mode) ? "a socket" :
			  S_ISCHR(st->st_mode) ? "a character device" :
			  S_ISBLK(st->st_mode) ? "a block device" : "of another kind");
	} else if (flags & SDSI_PATH_OWNED) {
		rc = sdsi_path_check_owner(st, false, what, path, path, err, errlen);
	} else {
		rc = 0;
	}
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int sdsi_path_open_file(const char *path, const char *what, unsigned int flags,
			struct stat *st, char *err, size_t errlen)
{
	char leaf[NAME_MAX + 1];
	int dirfd = sdsi_path_open_parent(path, what, leaf, err, errlen);
	int fd;

	if (dirfd < 0)
		return dirfd;
	fd = sdsi_path_openat_file(dirfd, leaf, path, what, flags, st, err, errlen);
	close(dirfd);
	return fd;
}

int sdsi_path_read_fd(int fd, void *buf, size_t size, size_t *len, const char *what,
		      const char *path, char *err, size_t errlen)
{
	unsigned char *p = buf, extra;
	size_t n = 0;
	ssize_t got;

	*len = 0;
	for (;;) {
		/* One byte past size, into extra: whether the file is larger. */
		got = n < size ? read(fd, p + n, size - n) : read(fd, &extra, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return sdsi_path_fail(err, errlen, errno, "%s %s: read: %s", what, path,
				    strerror(errno));
		if (got == 0)
			break;
		if (n == size)
			return sdsi_path_fail(err, errlen, EFBIG, "%s %s: larger than %zu bytes", what, path,
				    size);
		n += (size_t)got;
	}
	*len = n;
	return 0;
}
