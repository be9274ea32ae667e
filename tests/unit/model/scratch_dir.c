// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linux_mmio.h"
#include "scratch_dir.h"

void scratch_dir_remove(const char *dir)
{
	char path[512];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

void scratch_socket_remove(struct tsock *ts, const char *dir)
{
	if (ts->m)
		tsock_close(ts);
	scratch_dir_remove(dir);
}
