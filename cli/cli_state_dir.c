// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_state_dir.h"
#include "cli_trusted_path.h"

/* Only what the model writes: socket<N>.nvram.tmp.XXXXXX (see mkostemp). */
static bool is_nvram_temporary(const char *name)
{
	static const char middle[] = ".nvram.tmp.";
	const char *p = name + strlen("socket");
	size_t digits = 0;

	if (strncmp(name, "socket", strlen("socket")) != 0)
		return false;
	while (p[digits] >= '0' && p[digits] <= '9')
		digits++;
	if (!digits || strncmp(p + digits, middle, strlen(middle)) != 0)
		return false;
	p += digits + strlen(middle);
	if (strlen(p) != 6)
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p))
			return false;
	return true;
}

/*
 * A store writes a temporary file and renames it over socket<N>.nvram; one
 * killed in between leaves the temporary behind.  Only called with the
 * directory's lock held, so no other emulator is writing one right now.
 */
static void remove_stale_temporaries(struct cli_state_dir *dir)
{
	int fd = dup(dir->lock_fd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	struct stat st;

	if (!d) {
		fprintf(stderr, "%s: cannot list %s: %s\n", dir->program, dir->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!is_nvram_temporary(e->d_name) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) < 0)
			fprintf(stderr, "%s: cannot remove %s/%s: %s\n",
				dir->program, dir->path, e->d_name, strerror(errno));
		else
			fprintf(stderr, "%s: removed %s/%s, an NVRAM update left unfinished by an earlier run\n",
				dir->program, dir->path, e->d_name);
	}
	closedir(d);
}

int cli_private_dir_open(const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP || e == ENOTDIR) {
			bool link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);

			snprintf(err, errlen, "%s %s: not a directory%s", what, path,
				 link ? " (a symbolic link)" : "");
			return -ENOTDIR;
		}
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(e));
		close(fd);
		return -e;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "%s %s: owned by uid %u, not by uid %u",
			 what, path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "%s %s: writable by %s (mode %04o)", what, path,
			 st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Checked as cli_private_dir_open says, and locked while we run: one daemon per directory. */
static int open_and_lock(struct cli_state_dir *dir, const char *path, char *err, size_t errlen)
{
	int fd, e;

	fd = cli_private_dir_open(path, "state directory", err, errlen);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		if (e == EWOULDBLOCK)
			snprintf(err, errlen, "state directory %s: in use by another %s (which holds its lock)",
				 path, dir->program);
		else
			snprintf(err, errlen, "state directory %s: cannot lock it: %s", path,
				 strerror(e));
		close(fd);
		/*
		 * EADDRINUSE, as when another daemon answers on the control
		 * socket: both are "refused" (exit 5, docs/exit-codes.md).
		 */
		return e == EWOULDBLOCK ? -EADDRINUSE : -e;
	}
	dir->lock_fd = fd;
	return 0;
}

static int make_temporary(struct cli_state_dir *dir, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char templ[PATH_MAX], parent[PATH_MAX];
	int ret;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if (!realpath(tmp, parent)) {
		ret = -errno;
		snprintf(err, errlen, "temporary directory %s: %s", tmp, strerror(-ret));
		return ret;
	}
	ret = cli_check_trusted_path(parent, "temporary directory", err, errlen);
	if (ret)
		return ret;
	if (snprintf(templ, sizeof(templ), "%s/%s.XXXXXX", parent, dir->program) >= (int)sizeof(templ)) {
		snprintf(err, errlen, "TMPDIR '%s' is too long", tmp);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(templ)) {
		int e = errno;

		snprintf(err, errlen, "cannot create a temporary state directory in %s: %s",
			 tmp, strerror(e));
		return -e;
	}
	ret = open_and_lock(dir, templ, err, errlen);
	if (ret) {
		rmdir(templ);
		return ret;
	}
	memcpy(dir->path, templ, sizeof(templ));
	dir->created = true;
	dir->temporary = true;
	return 0;
}

/*
 * Where the state directory is to be: its parent, resolved and checked
 * from the root down, and its own name in it.  The parent must be trusted
 * before we create anything in it.
 */
static int locate(const char *requested, char *path, char *err, size_t errlen)
{
	char copy[PATH_MAX], parent[PATH_MAX];
	const char *leaf;
	char *slash;
	size_t len = strlen(requested);
	int ret;

	if (len >= sizeof(copy)) {
		snprintf(err, errlen, "state directory name too long");
		return -ENAMETOOLONG;
	}
	memcpy(copy, requested, len + 1);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	leaf = slash ? slash + 1 : copy;
	if (!strcmp(leaf, ".") || !strcmp(leaf, "..") || !strcmp(copy, "/")) {
		/* No name of its own to create: it must exist already. */
		if (!realpath(requested, copy)) {
			ret = -errno;
			snprintf(err, errlen, "state directory %s: %s", requested, strerror(-ret));
			return ret;
		}
		if (!strcmp(copy, "/")) {
			snprintf(err, errlen, "state directory %s: the root directory cannot be one",
				 requested);
			return -EINVAL;
		}
		slash = strrchr(copy, '/');
		leaf = slash + 1;
	}
	if (slash)
		*slash = '\0';
	if (!realpath(!slash ? "." : copy[0] ? copy : "/", parent)) {
		ret = -errno;
		snprintf(err, errlen, "state directory %s: its parent: %s", requested,
			 strerror(-ret));
		return ret;
	}
	ret = cli_check_trusted_path(parent, "state directory's parent", err, errlen);
	if (ret)
		return ret;
	if (snprintf(path, PATH_MAX, "%s/%s", strcmp(parent, "/") ? parent : "", leaf) >= PATH_MAX) {
		snprintf(err, errlen, "state directory name too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

int cli_state_dir_open(struct cli_state_dir *dir, const char *program, const char *requested,
		      char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	memset(dir, 0, sizeof(*dir));
	dir->program = program;
	dir->lock_fd = -1;
	if (!requested)
		ret = make_temporary(dir, err, errlen);
	else
		ret = locate(requested, path, err, errlen);
	if (ret || !requested)
		goto done;

	if (mkdir(path, 0700) == 0) {
		dir->created = true;
	} else if (errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, "cannot create state directory %s: %s", path, strerror(e));
		return -e;
	}
	ret = open_and_lock(dir, path, err, errlen);
	if (ret) {
		if (dir->created)
			rmdir(path);
		return ret;
	}
	memcpy(dir->path, path, sizeof(path));
done:
	if (!ret)
		remove_stale_temporaries(dir);
	return ret;
}

/* The directory is flat: NVRAM files, their temporaries and the socket. */
static void remove_tree(const char *program, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "%s: cannot remove %s: %s\n", program, path, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) < 0)
			fprintf(stderr, "%s: cannot remove %s/%s: %s\n",
				program, path, e->d_name, strerror(errno));
	}
	closedir(d);
	if (rmdir(path) < 0)
		fprintf(stderr, "%s: cannot remove %s: %s\n", program, path, strerror(errno));
}

void cli_state_dir_close(struct cli_state_dir *dir, bool failed)
{
	if (!dir->path[0])
		return;
	if (dir->temporary || (failed && dir->created))
		remove_tree(dir->program, dir->path);
	dir->path[0] = '\0';
	/* Last: the lock covers the removal too. */
	close(dir->lock_fd);
	dir->lock_fd = -1;
}
