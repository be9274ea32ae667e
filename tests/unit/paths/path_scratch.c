// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scratch directory of the sdsi_path.h tests: a fresh directory under
 * /tmp per test, files and links made in it, removed whole afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "path_scratch.h"

char dir[] = "/tmp/sdsi-paths-XXXXXX";
char err[SDSI_PATH_ERR_SIZE];

const char *in_dir(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

void write_text(const char *name, const char *text, mode_t mode)
{
	int fd = open(in_dir(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

/* name in the directory made a symbolic link to target there. */
void make_link(const char *target, const char *name)
{
	char to[PATH_MAX];

	snprintf(to, sizeof(to), "%s", in_dir(target));
	assert_int_equal(symlink(to, in_dir(name)), 0);
}

static void remove_tree(const char *path)
{
	char sub[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(path);

	while (d && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(sub);
		else
			unlink(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

int setup(void **state)
{
	strcpy(dir, "/tmp/sdsi-paths-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

int teardown(void **state)
{
	remove_tree(dir);
	return 0;
}

void need_root(void)
{
	if (geteuid() != 0)
		skip();	/* another owner needs chown; CI runs as root */
}

void assert_file(const char *name, const char *text, mode_t mode)
{
	char buf[256] = "";
	struct stat st;
	int fd = open(in_dir(name), O_RDONLY | O_NOFOLLOW);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), (ssize_t)strlen(text));
	assert_string_equal(buf, text);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
	close(fd);
}

/* Only the names given: no temporary left behind. */
void assert_entries(int n)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int count = 0;

	while ((e = readdir(d)))
		count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	assert_int_equal(count, n);
}
