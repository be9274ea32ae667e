// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket<N>.nvram file on disk: loading refuses anything but a regular
 * file before reading a byte, and hands the bytes to nvram_file.c's checks;
 * storing replaces the file atomically (temporary file in the same
 * directory, fsync, rename, fsync of the directory).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sdsi/input_file.h>

#include "model_priv.h"
#include "licensing/sdsi_lic.h"
#include "util/util_io.h"

/* The only refusal made before the bytes are read: what the file is. */
static int refuse_kind(char *err, size_t errlen, const char *path, int code,
		       const char *kind)
{
	snprintf(err, errlen, "NVRAM file %s refused: %s, not a regular file",
		 path, kind);
	return code;
}

/*
 * Open the NVRAM file for reading, refusing anything but a regular file
 * without waiting on it: a FIFO would block open() (and the signals that
 * should stop us) until a writer came.  O_NONBLOCK makes open() return at
 * once whatever the file is, O_NOFOLLOW refuses a symbolic link (which the
 * next store would replace anyway); only then does fstat() say what it is.
 * -ENOENT, silently, when there is no file.
 */
static int open_regular(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		if (errno == ELOOP)
			return refuse_kind(err, errlen, path, -ELOOP,
					   "a symbolic link");
		ret = -errno;
		snprintf(err, errlen, "NVRAM file %s: cannot open: %s", path,
			 strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "NVRAM file %s: cannot stat: %s", path,
			 strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse_kind(err, errlen, path,
				   S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				   sdsi_file_kind(st.st_mode));
	}
	return fd;
}

int nvram_file_load(const struct sdsi_model *m, uint64_t cfg_ppin,
		    struct model_nvram *nv, char *err, size_t errlen)
{
	const char *path = m->nvram_path;
	uint8_t *buf;
	size_t len = 0, max;
	ssize_t got;
	int fd, ret;

	fd = open_regular(path, err, errlen);
	if (fd < 0)
		return fd;
	/* One byte over the largest valid file tells "too long" apart. */
	max = nvram_image_max();
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (len <= max) {
		got = read(fd, buf + len, max + 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	if (got < 0) {
		ret = -errno;
		snprintf(err, errlen, "NVRAM file %s: cannot read: %s", path,
			 strerror(errno));
	} else {
		ret = nvram_image_decode(m, cfg_ppin, buf, len, nv, err, errlen);
	}
	free(buf);
	close(fd);
	return ret;
}

int nvram_file_store(const struct sdsi_model *m, const struct model_nvram *nv,
		     char *err, size_t errlen)
{
	const char *path = m->nvram_path;
	char *tmp = NULL;
	uint8_t *buf;
	size_t len;
	int fd = -1, ret;
	const char *step;

	buf = malloc(nvram_image_max());
	if (!buf || asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	len = nvram_image_encode(m, nv, buf);

	step = "create a temporary file for";
	fd = mkostemp(tmp, O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	if (!ret) {
		step = "write";
		ret = util_write_all(fd, buf, len);
	}
	if (!ret) {
		step = "sync";
		ret = fsync(fd) ? -errno : 0;
	}
	if (fd >= 0 && close(fd) && !ret) {
		step = "close";
		ret = -errno;
	}
	if (!ret) {
		step = "rename over";
		ret = rename(tmp, path) ? -errno : 0;
	}
	if (ret && fd >= 0)
		unlink(tmp);
	if (!ret) {
		step = "sync the directory of";
		ret = sdsi_lic_sync_parent_dir(path);
	}
	if (ret)
		snprintf(err, errlen, "NVRAM file %s: cannot %s it: %s", path,
			 step, strerror(-ret));
	free(tmp);
	free(buf);
	return ret;
}
