// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_path.h's outputs on real files: a new file's mode, an existing
 * file's kept, links and special files refused, a name changed while we
 * wrote left as it is, the longest name, and no temporary left behind.
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

static void test_output_new_and_kept_mode(void **state)
{
	struct sdsi_path_output out;

	assert_int_equal(sdsi_path_output_open(&out, in_dir("new"), "--output", 0, err,
					       sizeof(err)), 0);
	assert_int_equal(out.existing_fd, -1);
	assert_int_equal(sdsi_path_output_commit(&out, "one", 3, 0640, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	assert_file("new", "one", 0640);
	/* An existing file keeps its mode. */
	assert_int_equal(chmod(in_dir("new"), 0600), 0);
	assert_int_equal(sdsi_path_output_open(&out, in_dir("new"), "--output", 0, err,
					       sizeof(err)), 0);
	assert_true(out.existing_fd >= 0);
	assert_int_equal(out.existing.st_size, 3);
	assert_int_equal(sdsi_path_output_commit(&out, "second", 6, 0644, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	sdsi_path_output_close(&out);	/* twice is harmless */
	assert_file("new", "second", 0600);
	assert_entries(1);
}

static void test_output_refusals(void **state)
{
	struct sdsi_path_output out;

	write_text("victim", "precious", 0600);
	make_link("victim", "link");
	assert_int_equal(sdsi_path_output_open(&out, in_dir("link"), "--output", 0, err,
					       sizeof(err)), -ELOOP);
	assert_int_equal(sdsi_path_output_open(&out, in_dir("victim"), "-o", SDSI_PATH_NOREPLACE,
					       err, sizeof(err)), -EEXIST);
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	assert_int_equal(sdsi_path_output_open(&out, in_dir("fifo"), "--output", 0, err,
					       sizeof(err)), -ENXIO);
	assert_file("victim", "precious", 0600);
	assert_entries(3);
}

static void test_output_name_changed_meanwhile(void **state)
{
	struct sdsi_path_output out;

	/* Replaced by another file between the judgement and the rename. */
	write_text("judged", "old", 0644);
	assert_int_equal(sdsi_path_output_open(&out, in_dir("judged"), "--output", 0, err,
					       sizeof(err)), 0);
	assert_int_equal(unlink(in_dir("judged")), 0);
	write_text("judged", "a key", 0600);
	assert_int_equal(sdsi_path_output_commit(&out, "new", 3, 0644, err, sizeof(err)), -ESTALE);
	sdsi_path_output_close(&out);
	assert_file("judged", "a key", 0600);
	/* Appeared where nothing was. */
	assert_int_equal(sdsi_path_output_open(&out, in_dir("fresh"), "--output", 0, err,
					       sizeof(err)), 0);
	write_text("fresh", "theirs", 0600);
	assert_int_equal(sdsi_path_output_commit(&out, "new", 3, 0644, err, sizeof(err)), -EEXIST);
	sdsi_path_output_close(&out);
	assert_file("fresh", "theirs", 0600);
	assert_entries(2);
}

static void test_output_longest_name(void **state)
{
	struct sdsi_path_output out;
	char name[NAME_MAX + 2];

	/* A name of NAME_MAX bytes: its temporary name is cut to fit. */
	memset(name, 'o', NAME_MAX);
	name[NAME_MAX] = '\0';
	assert_int_equal(sdsi_path_output_open(&out, in_dir(name), "--output", 0, err,
					       sizeof(err)), 0);
	assert_int_equal(sdsi_path_output_commit(&out, "x", 1, 0644, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	assert_file(name, "x", 0644);
	name[NAME_MAX] = 'o';
	name[NAME_MAX + 1] = '\0';
	assert_int_equal(sdsi_path_output_open(&out, in_dir(name), "--output", 0, err,
					       sizeof(err)), -ENAMETOOLONG);
	assert_entries(1);
}

static void test_output_in_an_open_directory(void **state)
{
	struct sdsi_path_output out;
	char name[NAME_MAX + 2];
	int dirfd = sdsi_path_open_dir(dir, "dir", err, sizeof(err));

	assert_true(dirfd >= 0);
	assert_int_equal(sdsi_path_output_openat(&out, dirfd, "k", "DIR/k", "key", SDSI_PATH_NOREPLACE,
						 err, sizeof(err)), 0);
	assert_int_equal(sdsi_path_output_commit(&out, "key", 3, 0600, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	assert_file("k", "key", 0600);
	assert_int_equal(sdsi_path_output_openat(&out, dirfd, "k", "DIR/k", "key", SDSI_PATH_NOREPLACE,
						 err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "key DIR/k: exists"));
	assert_int_equal(sdsi_path_output_openat(&out, dirfd, "a/b", "DIR/a/b", "key", 0, err,
						 sizeof(err)), -EINVAL);
	memset(name, 'k', NAME_MAX);
	name[NAME_MAX] = '\0';
	assert_int_equal(sdsi_path_output_openat(&out, dirfd, name, name, "key", 0, err,
						 sizeof(err)), 0);
	sdsi_path_output_close(&out);
	name[NAME_MAX] = 'k';
	name[NAME_MAX + 1] = '\0';
	assert_int_equal(sdsi_path_output_openat(&out, dirfd, name, name, "key", 0, err,
						 sizeof(err)), -ENAMETOOLONG);
	close(dirfd);
	assert_entries(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCRATCH_TEST(test_output_new_and_kept_mode),
		SCRATCH_TEST(test_output_refusals),
		SCRATCH_TEST(test_output_name_changed_meanwhile),
		SCRATCH_TEST(test_output_longest_name),
		SCRATCH_TEST(test_output_in_an_open_directory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
