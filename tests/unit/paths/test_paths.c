// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_path.h on real files in a temporary directory under /tmp: links on
 * the way and at the end, owners and modes (another owner made by chown
 * to an unused uid, which needs root as CI runs), kinds of file, name
 * lengths and read sizes at their bounds, and outputs that must leave the
 * name as it was whenever they fail.
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

#include "sdsi_path.h"

/* Nobody's: owns nothing on a test machine. */
#define OTHER_UID	65534

static char dir[] = "/tmp/sdsi-paths-XXXXXX";
static char err[SDSI_PATH_ERR_SIZE];

static const char *in_dir(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_text(const char *name, const char *text, mode_t mode)
{
	int fd = open(in_dir(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

/* name in the directory made a symbolic link to target there. */
static void make_link(const char *target, const char *name)
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

static int setup(void **state)
{
	strcpy(dir, "/tmp/sdsi-paths-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	remove_tree(dir);
	return 0;
}

static void need_root(void)
{
	if (geteuid() != 0)
		skip();	/* another owner needs chown; CI runs as root */
}

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

static void assert_file(const char *name, const char *text, mode_t mode)
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
static void assert_entries(int n)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int count = 0;

	while ((e = readdir(d)))
		count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	assert_int_equal(count, n);
}

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
		cmocka_unit_test_setup_teardown(test_dir_and_file_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_links_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_of_a_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writable_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owned_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kinds_of_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_length_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_length_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_size_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_new_and_kept_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_name_changed_meanwhile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_longest_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_in_an_open_directory, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
