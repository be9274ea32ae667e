// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_trusted_path.h"
#include "paths/sdsi_path.h"

/*
 * The rule itself is paths/'s (sdsi_path_open_dir walks and checks every
 * component by its descriptor); this keeps the daemons' older name for it.
 */
int cli_check_trusted_path(const char *dir, const char *what, char *err, size_t errlen)
{
	int fd;

	if (dir[0] != '/') {
		snprintf(err, errlen, "%s %s: not an absolute path", what, dir);
		return -EINVAL;
	}
	fd = sdsi_path_open_dir(dir, what, err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
