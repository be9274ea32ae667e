// SPDX-License-Identifier: GPL-2.0-only
/*
 * --output FILE, crash-safe: temporary file in the same directory (so the
 * rename is atomic: same filesystem), fsync, rename, fsync of the directory
 * (so the rename itself survives a power loss).  The temporary name starts
 * with a dot and does not end in .prom: node_exporter's textfile collector
 * reads *.prom only, and never picks it up.  FILE must be missing or a
 * regular file that holds no key, private or public (sdsi/output_target.h); the
 * temporary name keeps within NAME_MAX whatever FILE's length.
 */
#define _GNU_SOURCE	/* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/output_target.h"
#include "sdsi_lic.h"
#include "output_file.h"
#include "tool_error.h"

static int fail(struct sdsi_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct sdsi_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_verror(err, errnum, SDSI_ERR_IO, fmt, ap);
	va_end(ap);
	sdsi_error_set(err, errnum, SDSI_ERR_IO, -1, "%s: %s", sdsi_error_message(err),
		       strerror(errnum));
	return -1;
}

/* FILE may be replaced: missing, or a regular file without a key (PEM or DER). */
static int check_target(const char *path, struct sdsi_error *err)
{
	const char *kind;
	int rc = sdsi_output_target_check(path, &kind);

	if (rc && kind)
		return tool_error(err, -rc, SDSI_ERR_IO, "--output %s: not a regular file: it is %s; "
			      "refusing to replace it", path, kind);
	if (rc)
		return fail(err, -rc, "--output %s", path);
	if (sdsi_lic_file_holds_key(path))
		/* A safety check, like those of -a and -c: exit 5. */
		return tool_error(err, EEXIST, SDSI_ERR_REFUSED,
			      "--output %s: holds a key (PEM or DER); refusing to replace it", path);
	return 0;
}

int output_file_begin(struct output_file *of, const char *path, struct sdsi_error *err)
{
	const char *slash = strrchr(path, '/');
	FILE *mem;
	int dirfd;

	memset(of, 0, sizeof(*of));
	of->path = path;
	if (!*path || (slash && !slash[1]))
		return fail(err, EISDIR, "--output %s: not a file name", path);
	if (!slash)
		snprintf(of->dir, sizeof(of->dir), ".");
	else if (slash == path)
		snprintf(of->dir, sizeof(of->dir), "/");
	else if ((size_t)(slash - path) >= sizeof(of->dir))
		return fail(err, ENAMETOOLONG, "--output %s", path);
	else
		snprintf(of->dir, sizeof(of->dir), "%.*s", (int)(slash - path), path);

	/* Before the command runs: no mailbox transaction for a file never written. */
	dirfd = open(of->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return fail(err, errno, "--output %s: directory %s", path, of->dir);
	close(dirfd);
	if (check_target(path, err))
		return -1;

	mem = open_memstream(&of->buf, &of->len);
	if (!mem)
		return fail(err, errno, "--output %s: collecting the output", path);
	/* glibc's stdout is a plain variable: everything printed lands in mem. */
	of->real_stdout = stdout;
	stdout = mem;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The mode a plain creat() would give: 0666 less the umask, readable by node_exporter. */
static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

int output_file_commit(struct output_file *of, struct sdsi_error *err)
{
	const char *base = strrchr(of->path, '/') ? strrchr(of->path, '/') + 1 : of->path;
	char tmp[SDSI_PATH_SIZE + 16];
	int fd, dirfd, rc = -1;

	if (fclose(stdout) != 0) {
		stdout = of->real_stdout;
		free(of->buf);
		return fail(err, ENOMEM, "--output %s: collecting the output", of->path);
	}
	stdout = of->real_stdout;
	/* Checked again: the command may have run for minutes since begin. */
	if (check_target(of->path, err)) {
		free(of->buf);
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%.*s.XXXXXX", of->dir,
			     sdsi_temp_base_len(base, strlen("..XXXXXX")), base) >= sizeof(tmp)) {
		free(of->buf);
		return fail(err, ENAMETOOLONG, "--output %s", of->path);
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fail(err, errno, "--output %s: creating a temporary file in %s", of->path, of->dir);
		free(of->buf);
		return -1;
	}
	if (fchmod(fd, creation_mode()) || write_all(fd, of->buf, of->len) || fsync(fd)) {
		fail(err, errno, "--output %s: writing %s", of->path, tmp);
		close(fd);
		goto out;
	}
	if (close(fd)) {
		fail(err, errno, "--output %s: writing %s", of->path, tmp);
		goto out;
	}
	if (rename(tmp, of->path)) {
		fail(err, errno, "--output %s: renaming %s over it", of->path, tmp);
		goto out;
	}
	tmp[0] = '\0';
	dirfd = open(of->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || fsync(dirfd)) {
		fail(err, errno, "--output %s: syncing directory %s", of->path, of->dir);
		if (dirfd >= 0)
			close(dirfd);
		goto out;
	}
	close(dirfd);
	rc = 0;
out:
	if (tmp[0])
		unlink(tmp);
	free(of->buf);
	of->buf = NULL;
	return rc;
}
