// SPDX-License-Identifier: GPL-2.0-only
/* A file of /proc shown otherwise (proc_bind.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc_bind.h"

int emu_proc_bind(const char *proc_path, const char *scratch_dir, const char *what,
		  emu_proc_fill_fn *fill, void *ctx, bool *bound, char *err, size_t errlen)
{
	const char *name = strrchr(proc_path, '/');
	char path[PATH_MAX];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/.%s.XXXXXX", scratch_dir, name ? name + 1 : proc_path);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create a file in %s: %s", scratch_dir, strerror(errno));
		return ret;
	}
	ret = fill(fd, ctx);
	if (!ret && (fchmod(fd, 0444) < 0 || mount(path, proc_path, NULL, MS_BIND, NULL) < 0))
		ret = -errno;
	if (!ret) {
		*bound = true;
		/* Read-only, so that a write fails as on the real file. */
		if (mount(NULL, proc_path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) < 0)
			ret = -errno;
	}
	if (ret)
		snprintf(err, errlen, "cannot %s in %s: %s", what, proc_path, strerror(-ret));
	close(fd);
	unlink(path);
	return ret;
}
