// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Outputs of sdsi_path.h: judged, written and renamed in a directory
 * opened once.  The name's state at open (nothing, or one regular file)
 * is remembered, and the rename is made only if the name is still in that
 * state, so a file put there meanwhile (a key, a link) is never replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "path_internal.h"
#include "sdsi_path.h"
#include "util/util_io.h"

/* ".NAME.XXXXXX": the dot and the suffix around the name. */
#define TEMP_AFFIXES	(sizeof(".") - 1 + sizeof(".XXXXXX") - 1)
#define TEMP_TRIES	100

static void output_init(struct sdsi_path_output *out, const char *path, const char *what,
			unsigned int flags)
{
	memset(out, 0, sizeof(*out));
	out->dirfd = -1;
	out->existing_fd = -1;
	out->path = path;
	out->what = what;
	out->flags = flags;
}

/* What out->leaf in out->dirfd holds now: nothing, or a regular file opened. */
static int look_at_name(struct sdsi_path_output *out, char *err, size_t errlen)
{
	int fd = sdsi_path_openat_file(out->dirfd, out->leaf, out->path, out->what, 0,
				       &out->existing, err, errlen);

	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		sdsi_path_output_close(out);
		return fd;
	}
	out->existing_fd = fd;
	if (out->flags & SDSI_PATH_NOREPLACE) {
		sdsi_path_output_close(out);
		return sdsi_path_fail(err, errlen, EEXIST, "%s %s: exists; refusing to replace it", out->what,
			    out->path);
	}
	return 0;
}

int sdsi_path_output_open(struct sdsi_path_output *out, const char *path, const char *what,
			  unsigned int flags, char *err, size_t errlen)
{
	int fd;

	output_init(out, path, what, flags);
	fd = sdsi_path_open_parent(path, what, out->leaf, err, errlen);
	if (fd < 0)
		return fd;
	out->dirfd = fd;
	return look_at_name(out, err, errlen);
}

int sdsi_path_output_openat(struct sdsi_path_output *out, int dirfd, const char *leaf,
			    const char *path, const char *what, unsigned int flags,
			    char *err, size_t errlen)
{
	size_t n = strlen(leaf);

	output_init(out, path, what, flags);
	if (!n || strchr(leaf, '/') || !strcmp(leaf, ".") || !strcmp(leaf, ".."))
		return sdsi_path_fail(err, errlen, EINVAL, "%s %s: '%s' is not one file name", what, path,
			    leaf);
	if (n > NAME_MAX)
		return sdsi_path_fail(err, errlen, ENAMETOOLONG, "%s %s: a file name of %zu bytes, longer than %d",
			    what, path, n, NAME_MAX);
	memcpy(out->leaf, leaf, n + 1);
	out->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (out->dirfd < 0)
		return sdsi_path_fail(err, errlen, errno, "%s %s: %s", what, path, strerror(errno));
	return look_at_name(out, err, errlen);
}

/* A new file ".NAME.XXXXXX" in the directory, open for writing, mode 0600. */
static int make_temp(struct sdsi_path_output *out, char *tmp, size_t size)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t keep = strlen(out->leaf);
	unsigned char rnd[6];

	if (keep + TEMP_AFFIXES > NAME_MAX)
		keep = NAME_MAX - TEMP_AFFIXES;
	for (int i = 0; i < TEMP_TRIES; i++) {
		int fd;

		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -EIO;
		snprintf(tmp, size, ".%.*s.", (int)keep, out->leaf);
		for (size_t j = 0; j < sizeof(rnd); j++)
			tmp[keep + 2 + j] = digits[rnd[j] % (sizeof(digits) - 1)];
		tmp[keep + 2 + sizeof(rnd)] = '\0';
		fd = openat(out->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/* Whether the name still holds what sdsi_path_output_open found: 0 or -ESTALE / -EEXIST. */
static int unchanged(struct sdsi_path_output *out)
{
	struct stat now;

	if (out->existing_fd < 0)
		return 0;	/* checked by the rename itself: RENAME_NOREPLACE */
	if (fstatat(out->dirfd, out->leaf, &now, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? -ESTALE : -errno;
	return now.st_dev == out->existing.st_dev && now.st_ino == out->existing.st_ino ?
	       0 : -ESTALE;
}

/*
 * Give the temporary file the name that was free at open, never replacing
 * what appeared there since: 0, -EEXIST, or another -errno.  9p and some
 * network filesystems refuse RENAME_NOREPLACE with EINVAL; a hard link
 * makes the same promise (it fails on an existing name), so that is the
 * way there, and the temporary name is removed afterwards.
 */
static int place_new(int dirfd, const char *tmp, const char *leaf)
{
	if (renameat2(dirfd, tmp, dirfd, leaf, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	if (linkat(dirfd, tmp, dirfd, leaf, 0) < 0)
		return -errno;
	unlinkat(dirfd, tmp, 0);
	return 0;
}

int sdsi_path_output_commit(struct sdsi_path_output *out, const void *data, size_t len,
			    mode_t mode, char *err, size_t errlen)
{
	char tmp[NAME_MAX + 1];
	const char *step;
	int fd, rc;

	if (out->dirfd < 0)
		return sdsi_path_fail(err, errlen, EBADF, "%s %s: not open", out->what, out->path);
	if (out->existing_fd >= 0)
		mode = out->existing.st_mode & 07777;
	fd = make_temp(out, tmp, sizeof(tmp));
	if (fd < 0)
		return sdsi_path_fail(err, errlen, -fd, "%s %s: cannot create a temporary file beside it: %s",
			    out->what, out->path, strerror(-fd));
	rc = util_write_sync_close(fd, data, len, mode, &step);
	if (!rc) {
		step = "rename";
		rc = unchanged(out);
		if (rc == -ESTALE) {
			unlinkat(out->dirfd, tmp, 0);
			return sdsi_path_fail(err, errlen, ESTALE,
				    "%s %s: replaced by another file while we wrote; left as it is",
				    out->what, out->path);
		}
	}
	if (!rc)
		rc = out->existing_fd < 0 ? place_new(out->dirfd, tmp, out->leaf) :
		     renameat(out->dirfd, tmp, out->dirfd, out->leaf) < 0 ? -errno : 0;
	if (rc) {
		unlinkat(out->dirfd, tmp, 0);
		if (rc == -EEXIST && !strcmp(step, "rename"))
			return sdsi_path_fail(err, errlen, EEXIST,
				    "%s %s: appeared while we wrote; left as it is", out->what,
				    out->path);
		return sdsi_path_fail(err, errlen, -rc, "%s %s: %s: %s", out->what, out->path, step,
			    strerror(-rc));
	}
	if (fsync(out->dirfd) < 0)
		return sdsi_path_fail(err, errlen, errno, "%s %s: fsync of its directory: %s", out->what,
			    out->path, strerror(errno));
	return 0;
}

void sdsi_path_output_close(struct sdsi_path_output *out)
{
	if (out->existing_fd >= 0)
		close(out->existing_fd);
	if (out->dirfd >= 0)
		close(out->dirfd);
	out->existing_fd = -1;
	out->dirfd = -1;
}
