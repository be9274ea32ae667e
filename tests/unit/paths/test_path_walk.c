// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_path.h's walk on real files in a scratch directory under /tmp:
 * links on the way and at the end, owners and modes (another owner made by
 * chown to an unused uid, which needs root as CI runs), kinds of file, and
 * name lengths and read sizes at their bounds, on both sides.
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

static void test_dir_and_file_open(void **state)
{
	struct stat st;
	int fd;

	assert_int_equal(mkdir(in_dir("d"), 0755), 0);
	write_text("d/f", "hello", 0644);
	fd = sdsi_path_open_dir(in_dir("d"), "test", err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	close(fd);
	fd = sdsi_path_open_file(in_dir("d/f"), "test", SDSI_PATH_OWNED, &st, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(st.st_size, 5);
	close(fd);
	/* Relative: below the working directory. */
	assert_int_equal(chdir(dir), 0);
	fd = sdsi_path_open_file("d/f", "test", 0, NULL, err, sizeof(err));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chdir("/"), 0);
}

static void test_links_refused(void **state)
{
	assert_int_equal(mkdir(in_dir("real"), 0755), 0);
	write_text("real/key", "k", 0600);
	make_link("real", "link");
	make_link("real/key", "real/keylink");
	/* A link on the way. */
	assert_int_equal(sdsi_path_open_file(in_dir("link/key"), "--root-key", 0, NULL, err,
					     sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "symbolic link"));
	assert_non_null(strstr(err, in_dir("link")));
	/* A link at the end, to a file and to a directory. */
	assert_int_equal(sdsi_path_open_file(in_dir("real/keylink"), "--root-key", 0, NULL, err,
					     sizeof(err)), -ELOOP);
	assert_int_equal(sdsi_path_open_dir(in_dir("link"), "dir", err, sizeof(err)), -ELOOP);
}

static void test_owner_of_a_directory(void **state)
{
	need_root();
	assert_int_equal(mkdir(in_dir("theirs"), 0755), 0);
	write_text("theirs/key", "k", 0600);
	assert_int_equal(chown(in_dir("theirs"), OTHER_UID, 0), 0);
	assert_int_equal(sdsi_path_open_file(in_dir("theirs/key"), "key", 0, NULL, err,
					     sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "owned by uid 65534"));
	assert_int_equal(sdsi_path_open_dir(in_dir("theirs"), "dir", err, sizeof(err)), -EPERM);
	/* The parent alone is checked: this one is fine. */
	assert_int_equal(chown(in_dir("theirs"), 0, 0), 0);
	close(sdsi_path_open_file(in_dir("theirs/key"), "key", 0, NULL, err, sizeof(err)));
}

static void test_writable_directory(void **state)
{
	int fd;

	assert_int_equal(mkdir(in_dir("open"), 0755), 0);
	write_text("open/f", "x", 0644);
	assert_int_equal(chmod(in_dir("open"), 0777), 0);
	assert_int_equal(sdsi_path_open_file(in_dir("open/f"), "f", 0, NULL, err, sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "writable by others (mode 0777)"));
	assert_int_equal(chmod(in_dir("open"), 0775), 0);
	assert_int_equal(sdsi_path_open_file(in_dir("open/f"), "f", 0, NULL, err, sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "its group"));
	/* The sticky bit (as /tmp): nobody can swap what is ours. */
	assert_int_equal(chmod(in_dir("open"), 01777), 0);
	fd = sdsi_path_open_file(in_dir("open/f"), "f", 0, NULL, err, sizeof(err));
	assert_true(fd >= 0);
	close(fd);
}

static void test_owned_file(void **state)
{
	int fd;

	write_text("anchor", "k", 0644);
	fd = sdsi_path_open_file(in_dir("anchor"), "--root-key", SDSI_PATH_OWNED, NULL, err,
				 sizeof(err));
	assert_true(fd >= 0);
	close(fd);
	/* The sticky bit means nothing on a file. */
	assert_int_equal(chmod(in_dir("anchor"), 01666), 0);
	assert_int_equal(sdsi_path_open_file(in_dir("anchor"), "--root-key", SDSI_PATH_OWNED,
					     NULL, err, sizeof(err)), -EPERM);
	/* Without SDSI_PATH_OWNED only the directories count. */
	fd = sdsi_path_open_file(in_dir("anchor"), "input", 0, NULL, err, sizeof(err));
	assert_true(fd >= 0);
	close(fd);
	need_root();
	assert_int_equal(chmod(in_dir("anchor"), 0644), 0);
	assert_int_equal(chown(in_dir("anchor"), OTHER_UID, 0), 0);
	assert_int_equal(sdsi_path_open_file(in_dir("anchor"), "--root-key", SDSI_PATH_OWNED,
					     NULL, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "--root-key"));
}

static void test_kinds_of_file(void **state)
{
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	assert_int_equal(mkdir(in_dir("sub"), 0700), 0);
	/* Refused without waiting for a writer. */
	assert_int_equal(sdsi_path_open_file(in_dir("fifo"), "key", 0, NULL, err, sizeof(err)),
			 -ENXIO);
	assert_non_null(strstr(err, "a FIFO"));
	assert_int_equal(sdsi_path_open_file(in_dir("sub"), "key", 0, NULL, err, sizeof(err)),
			 -EISDIR);
	write_text("plain", "x", 0644);
	assert_int_equal(sdsi_path_open_dir(in_dir("plain"), "dir", err, sizeof(err)), -ENOTDIR);
	assert_int_equal(sdsi_path_open_file(in_dir("missing"), "key", 0, NULL, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(sdsi_path_open_file(in_dir("sub/"), "key", 0, NULL, err, sizeof(err)),
			 -EISDIR);
	assert_int_equal(sdsi_path_open_file("", "key", 0, NULL, err, sizeof(err)), -ENOENT);
}

/* dir + "/" + padding of "./" (and one "/" for an odd count) + "f": len bytes. */
static void padded_path(char *buf, size_t len)
{
	size_t n = strlen(dir), left;

	memcpy(buf, dir, n);
	buf[n++] = '/';
	for (left = len - n - 1; left >= 2; left -= 2) {
		buf[n++] = '.';
		buf[n++] = '/';
	}
	if (left)
		buf[n++] = '/';
	buf[n++] = 'f';
	buf[n] = '\0';
}

static void test_path_length_bounds(void **state)
{
	static char path[PATH_MAX + 2];
	int fd;

	write_text("f", "x", 0644);
	padded_path(path, PATH_MAX - 1);		/* the longest name there is */
	assert_int_equal(strlen(path), PATH_MAX - 1);
	fd = sdsi_path_open_file(path, "f", 0, NULL, err, sizeof(err));
	assert_true(fd >= 0);
	close(fd);
	padded_path(path, PATH_MAX);			/* one byte too many */
	assert_int_equal(strlen(path), PATH_MAX);
	assert_int_equal(sdsi_path_open_file(path, "f", 0, NULL, err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err, "longer than 4095"));
}

static void test_name_length_bounds(void **state)
{
	char name[NAME_MAX + 2], sub[NAME_MAX + 8];
	int fd;

	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	write_text(name, "x", 0644);
	fd = sdsi_path_open_file(in_dir(name), "f", 0, NULL, err, sizeof(err));
	assert_true(fd >= 0);
	close(fd);
	name[NAME_MAX] = 'n';
	name[NAME_MAX + 1] = '\0';
	assert_int_equal(sdsi_path_open_file(in_dir(name), "f", 0, NULL, err, sizeof(err)),
			 -ENAMETOOLONG);
	/* The same long component on the way to a file. */
	snprintf(sub, sizeof(sub), "%s/x", name);
	assert_int_equal(sdsi_path_open_file(in_dir(sub), "f", 0, NULL, err, sizeof(err)),
			 -ENAMETOOLONG);
}

static void test_read_size_bounds(void **state)
{
	char buf[8];
	size_t len;
	int fd;

	write_text("eight", "12345678", 0644);
	write_text("nine", "123456789", 0644);
	fd = sdsi_path_open_file(in_dir("eight"), "f", 0, NULL, err, sizeof(err));
	assert_int_equal(sdsi_path_read_fd(fd, buf, sizeof(buf), &len, "f", "eight", err,
					   sizeof(err)), 0);
	assert_int_equal(len, 8);
	assert_memory_equal(buf, "12345678", 8);
	close(fd);
	fd = sdsi_path_open_file(in_dir("nine"), "f", 0, NULL, err, sizeof(err));
	assert_int_equal(sdsi_path_read_fd(fd, buf, sizeof(buf), &len, "f", "nine", err,
					   sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "larger than 8 bytes"));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCRATCH_TEST(test_dir_and_file_open),
		SCRATCH_TEST(test_links_refused),
		SCRATCH_TEST(test_owner_of_a_directory),
		SCRATCH_TEST(test_writable_directory),
		SCRATCH_TEST(test_owned_file),
		SCRATCH_TEST(test_kinds_of_file),
		SCRATCH_TEST(test_path_length_bounds),
		SCRATCH_TEST(test_name_length_bounds),
		SCRATCH_TEST(test_read_size_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
