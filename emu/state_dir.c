// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state_dir.h"

static int make_temporary(struct emu_state_dir *dir, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char templ[PATH_MAX];

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if (snprintf(templ, sizeof(templ), "%s/sdsi-emu.XXXXXX", tmp) >= (int)sizeof(templ)) {
		snprintf(err, errlen, "TMPDIR '%s' is too long", tmp);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(templ)) {
		int e = errno;

		snprintf(err, errlen, "cannot create a temporary state directory in %s: %s",
			 tmp, strerror(e));
		return -e;
	}
	if (!realpath(templ, dir->path)) {
		int e = errno;

		rmdir(templ);
		snprintf(err, errlen, "%s: %s", templ, strerror(e));
		return -e;
	}
	dir->created = true;
	dir->temporary = true;
	return 0;
}

static int check_ours(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		int e = errno;

		snprintf(err, errlen, "state directory %s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "state directory %s: not a directory%s", path,
			 S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "state directory %s: owned by uid %u, not by uid %u",
			 path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "state directory %s: writable by %s (mode %04o)", path,
			 st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int emu_state_dir_open(struct emu_state_dir *dir, const char *requested,
		       char *err, size_t errlen)
{
	int ret;

	memset(dir, 0, sizeof(*dir));
	if (!requested)
		return make_temporary(dir, err, errlen);

	if (mkdir(requested, 0700) == 0) {
		dir->created = true;
	} else if (errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, "cannot create state directory %s: %s",
			 requested, strerror(e));
		return -e;
	}
	ret = check_ours(requested, err, errlen);
	if (ret == 0 && !realpath(requested, dir->path)) {
		ret = -errno;
		snprintf(err, errlen, "state directory %s: %s", requested, strerror(errno));
	}
	if (ret && dir->created)
		rmdir(requested);
	return ret;
}

/* The directory is flat: NVRAM files, their temporaries and the socket. */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "sdsi-emu: cannot remove %s: %s\n", path, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) < 0)
			fprintf(stderr, "sdsi-emu: cannot remove %s/%s: %s\n",
				path, e->d_name, strerror(errno));
	}
	closedir(d);
	if (rmdir(path) < 0)
		fprintf(stderr, "sdsi-emu: cannot remove %s: %s\n", path, strerror(errno));
}

void emu_state_dir_close(struct emu_state_dir *dir, bool failed)
{
	if (!dir->path[0])
		return;
	if (dir->temporary || (failed && dir->created))
		remove_tree(dir->path);
	dir->path[0] = '\0';
}
