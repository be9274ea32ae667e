// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe_trusted_path.h"

static int check_component(const char *component, const char *dir, const char *what,
			   char *err, size_t errlen)
{
	uid_t me = geteuid();
	struct stat st;

	if (lstat(component, &st) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s %s: %s: %s", what, dir, component, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: %s is not a directory", what, dir, component);
		return -ENOTDIR;
	}
	if (st.st_uid != 0 && st.st_uid != me) {
		snprintf(err, errlen,
			 "%s %s: %s is owned by uid %u, not by root or uid %u, so its owner could replace what lies below it",
			 what, dir, component, (unsigned int)st.st_uid, (unsigned int)me);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(st.st_uid == 0 && (st.st_mode & S_ISVTX))) {
		snprintf(err, errlen,
			 "%s %s: %s is writable by %s (mode %04o) and is not a root-owned directory with the sticky bit, so others could replace what lies below it",
			 what, dir, component, st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int fe_check_trusted_path(const char *dir, const char *what, char *err, size_t errlen)
{
	char component[PATH_MAX];
	size_t len = strlen(dir);
	int ret;

	if (dir[0] != '/' || len >= sizeof(component)) {
		snprintf(err, errlen, "%s %s: not an absolute path", what, dir);
		return -EINVAL;
	}
	ret = check_component("/", dir, what, err, errlen);
	/* Each prefix that ends before a '/' or at the end is a directory. */
	for (size_t i = 1; !ret && i <= len; i++) {
		if (i < len && dir[i] != '/')
			continue;
		if (dir[i - 1] == '/')
			continue;	/* a trailing or doubled slash */
		memcpy(component, dir, i);
		component[i] = '\0';
		ret = check_component(component, dir, what, err, errlen);
	}
	return ret;
}

int fe_check_trust_anchor(const char *path, const char *what, char *err, size_t errlen)
{
	uid_t me = geteuid();
	struct stat st;

	/* lstat: the anchor itself, as --state; a link could be re-pointed. */
	if (lstat(path, &st) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s %s: %s", what, path, strerror(e));
		return -e;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen,
			 "%s %s: a symbolic link, not followed: its target could be swapped; name the file or directory itself",
			 what, path);
		return -EPERM;
	}
	if (st.st_uid != 0 && st.st_uid != me) {
		snprintf(err, errlen,
			 "%s %s: owned by uid %u, not by root or uid %u: its owner could replace the key that is trusted",
			 what, path, (unsigned int)st.st_uid, (unsigned int)me);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen,
			 "%s %s: writable by %s (mode %04o): they could replace the key that is trusted; chmod go-w it",
			 what, path, st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}
