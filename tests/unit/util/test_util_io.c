// SPDX-License-Identifier: GPL-2.0-only
/*
 * util_io.h: util_write_all through short and interrupted writes (write(2)
 * wrapped, so each call's answer is the test's), and util_read_file at
 * its bound: a file of exactly max bytes read whole, one byte more refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/util_array.h"
#include "util/util_io.h"

/*
 * The wrapped write(2): while a script is set, each call takes the next
 * answer (bytes taken, or -errno) and keeps what it took; otherwise the
 * real write.
 */
ssize_t __real_write(int fd, const void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len);

static const long *script;
static size_t script_len, calls;
static unsigned char taken[64];
static size_t taken_len;

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	long answer;

	if (!script)
		return __real_write(fd, buf, len);
	assert_true(calls < script_len);
	answer = script[calls++];
	if (answer < 0) {
		errno = (int)-answer;
		return -1;
	}
	if ((size_t)answer > len)
		answer = (long)len;
	assert_true(taken_len + (size_t)answer <= sizeof(taken));
	memcpy(taken + taken_len, buf, (size_t)answer);
	taken_len += (size_t)answer;
	return answer;
}

static void play(const long *s, size_t n)
{
	script = s;
	script_len = n;
	calls = 0;
	taken_len = 0;
}

static void test_write_all_short_writes(void **state)
{
	static const long s[] = { 3, 1, 100 };
	static const char msg[] = "0123456789abcdef";

	play(s, UTIL_ARRAY_SIZE(s));
	assert_int_equal(util_write_all(99, msg, 16), 0);
	script = NULL;
	assert_int_equal(calls, 3);
	assert_int_equal(taken_len, 16);
	assert_memory_equal(taken, msg, 16);
}

static void test_write_all_eintr(void **state)
{
	static const long s[] = { -EINTR, 5, -EINTR, -EINTR, 100 };
	static const char msg[] = "interrupted twice";

	play(s, UTIL_ARRAY_SIZE(s));
	assert_int_equal(util_write_all(99, msg, sizeof(msg)), 0);
	script = NULL;
	assert_int_equal(calls, 5);
	assert_int_equal(taken_len, sizeof(msg));
	assert_memory_equal(taken, msg, sizeof(msg));
}

static void test_write_all_error(void **state)
{
	static const long s[] = { 4, -ENOSPC };

	play(s, UTIL_ARRAY_SIZE(s));
	assert_int_equal(util_write_all(99, "0123456789", 10), -ENOSPC);
	script = NULL;
	assert_int_equal(calls, 2);
	assert_int_equal(taken_len, 4);
	/* Nothing to write: no call at all. */
	play(s, 0);
	assert_int_equal(util_write_all(99, "", 0), 0);
	script = NULL;
	assert_int_equal(calls, 0);
}

static char dir[] = "/tmp/util-test-io.XXXXXX";

/* A file in dir of n bytes (a pattern, so that a byte out of place shows). */
static const char *make_file(const char *name, size_t n)
{
	static char path[sizeof(dir) + 32];
	char *data = malloc(n + 1);
	int fd;

	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(util_write_all(fd, data, n), 0);
	close(fd);
	free(data);
	return path;
}

static void check_read(size_t size, size_t max, int expect)
{
	const char *path = make_file("f", size);
	char *text = (char *)"untouched";
	size_t len = 12345;

	assert_int_equal(util_read_file(path, max, &text, &len), expect);
	if (expect) {
		assert_null(text);
		assert_int_equal(len, 0);
		return;
	}
	assert_non_null(text);
	assert_int_equal(len, size);
	for (size_t i = 0; i < size; i++)
		assert_int_equal(text[i], 'a' + i % 26);
	assert_int_equal(text[size], '\0');
	free(text);
}

static void test_read_file_bounds(void **state)
{
	/* Exactly max fits; one byte more is refused. */
	check_read(100, 100, 0);
	check_read(101, 100, -EFBIG);
	/* Across the first buffer's size (4096) and its doubling. */
	check_read(4095, 4095, 0);
	check_read(4096, 4096, 0);
	check_read(4097, 4096, -EFBIG);
	check_read(10000, 10000, 0);
	check_read(10001, 10000, -EFBIG);
	check_read(10000, 1 << 20, 0);
	/* Empty files, and a bound of nothing. */
	check_read(0, 0, 0);
	check_read(1, 0, -EFBIG);
	check_read(0, 10, 0);
}

static void test_read_file_missing(void **state)
{
	char path[sizeof(dir) + 32];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(util_read_file(path, 100, &text, &len), -ENOENT);
	assert_null(text);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[sizeof(dir) + 32];

	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_all_short_writes),
		cmocka_unit_test(test_write_all_eintr),
		cmocka_unit_test(test_write_all_error),
		cmocka_unit_test(test_read_file_bounds),
		cmocka_unit_test(test_read_file_missing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
