// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discovery, DEVNO validation, attribute and file reading, provisioning
 * writes: against a sysfs-shaped directory tree made in a temporary folder.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdsi/libsdsi.h"
#include "scoped_handle.h"
#include "util/util_array.h"

struct tree {
	char root[256];
};

static void write_text(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void make_device(const struct tree *t, const char *name, const char *guid)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", t->root, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	if (guid)
		write_text(dir, "guid", guid, strlen(guid));
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	strcpy(t->root, "/tmp/libsdsi-test-XXXXXX");
	assert_non_null(mkdtemp(t->root));
	make_device(t, "intel_vsec.sdsi.10", "0xf210d9ef\n");
	make_device(t, "intel_vsec.sdsi.0", "0x6dd191\n");
	make_device(t, "intel_vsec.sdsi.1", "garbage\n");
	make_device(t, "intel_vsec.sdsi.x", "0x6dd191\n");
	make_device(t, "intel_vsec.pmt.0", "0x6dd191\n");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

static void test_list(void **state)
{
	struct tree *t = *state;
	struct sdsi_device **devs;
	size_t n;

	assert_int_equal(sdsi_device_list(t->root, &devs, &n, NULL), 0);
	assert_int_equal(n, 3);
	assert_int_equal(sdsi_device_devno(devs[0]), 0);
	assert_string_equal(sdsi_device_name(devs[0]), "intel_vsec.sdsi.0");
	assert_true(sdsi_device_guid_valid(devs[0]));
	assert_int_equal(sdsi_device_guid(devs[0]), 0x6dd191);
	assert_int_equal(sdsi_device_devno(devs[1]), 1);
	assert_false(sdsi_device_guid_valid(devs[1]));
	assert_int_equal(sdsi_device_devno(devs[2]), 10);
	assert_int_equal(sdsi_device_guid(devs[2]), 0xf210d9ef);
	sdsi_device_list_free(devs, n);

	assert_int_equal(sdsi_device_list("/nonexistent/sdsi", &devs, &n, NULL), 0);
	assert_int_equal(n, 0);
	assert_null(devs);
}

static void test_root_from_environment(void **state)
{
	struct tree *t = *state;
	struct sdsi_device *dev = NULL;

	setenv(SDSI_SYSFS_ROOT_ENV, t->root, 1);
	assert_string_equal(sdsi_sysfs_root(), t->root);
	assert_int_equal(sdsi_device_open(NULL, "10", &dev, NULL), 0);
	assert_int_equal(sdsi_device_guid(dev), 0xf210d9ef);
	setenv(SDSI_SYSFS_ROOT_ENV, "", 1);
	assert_string_equal(sdsi_sysfs_root(), SDSI_DEFAULT_SYSFS_ROOT);
	unsetenv(SDSI_SYSFS_ROOT_ENV);
	sdsi_device_close(dev);
}

static void test_devno_validation(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", "1a", "../0", "0/..", " 1",
					   "1 ", "0x1", "1234567890", "sdsi.0" };
	struct tree *t = *state;
	struct sdsi_device *dev = NULL;
	SCOPED_ERROR(err);
	unsigned int n;

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(bad); i++) {
		assert_int_equal(sdsi_device_open(t->root, bad[i], &dev, err), -EINVAL);
		assert_int_equal(sdsi_error_class(err), SDSI_ERR_USAGE);
	}
	assert_int_equal(sdsi_parse_devno("007", &n, NULL), 0);
	assert_int_equal(n, 7);
	assert_null(dev);	/* a refused open gives no handle */
	assert_int_equal(sdsi_device_open(t->root, "3", &dev, err), -ENODEV);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_NO_DEVICE);
	assert_non_null(strstr(sdsi_error_message(err), "intel_vsec.sdsi.3"));
	assert_int_equal(sdsi_device_open(t->root, "1", &dev, err), -EBADMSG);
	assert_non_null(strstr(sdsi_error_message(err), "garbage"));
	sdsi_device_close(dev);
}

static void test_read_attr(void **state)
{
	struct tree *t = *state;
	uint8_t buf[SDSI_READ_BUF_SIZE], big[SDSI_READ_BUF_SIZE + 100];
	struct sdsi_device *dev = NULL;
	SCOPED_ERROR(err);
	size_t len;

	assert_int_equal(sdsi_device_open(t->root, "0", &dev, NULL), 0);
	assert_int_equal(sdsi_read_attr(dev, SDSI_ATTR_METER_CERT, buf, &len, err), -ENOENT);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_NO_DEVICE);
	assert_non_null(strstr(sdsi_error_message(err), "meter_certificate"));

	/* One read into 4096 bytes: a larger file gives its first 4096 bytes. */
	memset(big, 0x5a, sizeof(big));
	write_text(sdsi_device_path(dev), "state_certificate", big, sizeof(big));
	assert_int_equal(sdsi_read_attr(dev, SDSI_ATTR_STATE_CERT, buf, &len, NULL), 0);
	assert_int_equal(len, SDSI_READ_BUF_SIZE);

	write_text(sdsi_device_path(dev), "registers", big, 0);
	assert_int_equal(sdsi_read_attr(dev, SDSI_ATTR_REGISTERS, buf, &len, err), -ENODATA);
	sdsi_device_close(dev);
}

static void test_read_file(void **state)
{
	struct tree *t = *state;
	uint8_t buf[16], data[17] = { 1, 2, 3 };
	SCOPED_ERROR(err);
	char path[300];
	size_t len;

	snprintf(path, sizeof(path), "%s/saved.bin", t->root);
	write_text(t->root, "saved.bin", data, 16);
	assert_int_equal(sdsi_read_file(path, buf, sizeof(buf), &len, NULL), 0);
	assert_int_equal(len, 16);
	assert_int_equal(buf[2], 3);
	write_text(t->root, "saved.bin", data, 17);
	assert_int_equal(sdsi_read_file(path, buf, sizeof(buf), &len, err), -EFBIG);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_MALFORMED);
	assert_int_equal(sdsi_read_file("/nonexistent.bin", buf, sizeof(buf), &len, err), -ENOENT);
}

static void test_provision_writes_blob(void **state)
{
	struct tree *t = *state;
	const uint8_t blob[5] = { 9, 8, 7, 6, 5 };
	uint8_t back[16];
	struct sdsi_device *dev = NULL;
	SCOPED_ERROR(err);
	char path[SDSI_PATH_SIZE + 32];
	size_t len;

	assert_int_equal(sdsi_device_open(t->root, "0", &dev, NULL), 0);
	assert_int_equal(sdsi_provision(dev, SDSI_BLOB_CAP, blob, sizeof(blob), NULL, err),
			 -ENOENT);
	write_text(sdsi_device_path(dev), "provision_cap", "", 0);
	assert_int_equal(sdsi_provision(dev, SDSI_BLOB_CAP, blob, sizeof(blob), NULL, err), 0);
	snprintf(path, sizeof(path), "%s/provision_cap", sdsi_device_path(dev));
	assert_int_equal(sdsi_read_file(path, back, sizeof(back), &len, NULL), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(back, blob, 5);
	sdsi_device_close(dev);
}

static void test_errno_tables(void **state)
{
	assert_string_equal(sdsi_errno_name(EBUSY), "EBUSY");
	/* Outside libsdsi's meanings, glibc still names them (issue 19). */
	assert_string_equal(sdsi_errno_name(ELOOP), "ELOOP");
	assert_string_equal(sdsi_errno_name(EROFS), "EROFS");
	assert_string_equal(sdsi_errno_name(ENOSPC), "ENOSPC");
	assert_string_equal(sdsi_errno_name(ENXIO), "ENXIO");
	assert_string_equal(sdsi_errno_name(-EIO), "EIO");
	/* A number without a name: E and the number, an E-name all the same. */
	assert_string_equal(sdsi_errno_name(99999), "E99999");
	assert_string_equal(sdsi_errno_name(-99999), "E99999");
	assert_string_equal(sdsi_errno_name(0), "E0");
	assert_non_null(strstr(sdsi_errno_meaning(EIO, true), "rejected"));
	assert_non_null(strstr(sdsi_errno_meaning(EIO, false), "mailbox failure"));
	assert_non_null(strstr(sdsi_errno_meaning(EPERM, true), "in-band lock"));
}

/* The error handle: empty when new, filled, copied and prefixed as the tool does. */
static void test_error_handle(void **state)
{
	struct sdsi_error *none = NULL;
	SCOPED_ERROR(copy);
	SCOPED_ERROR(err);
	char long_prefix[600];

	assert_int_equal(sdsi_error_errno(err), 0);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_NONE);
	assert_int_equal(sdsi_error_offset(err), -1);
	assert_string_equal(sdsi_error_message(err), "");
	assert_int_equal(sdsi_error_set(err, EBADMSG, SDSI_ERR_MALFORMED, 12, "bad %s", "field"),
			 -EBADMSG);
	assert_int_equal(sdsi_error_offset(err), 12);
	assert_string_equal(sdsi_error_message(err), "bad field");
	/* Its own message as an argument: formatted before it is replaced. */
	sdsi_error_set(err, EBADMSG, SDSI_ERR_MALFORMED, 12, "%s, twice: %s",
		       sdsi_error_message(err), sdsi_error_message(err));
	assert_string_equal(sdsi_error_message(err), "bad field, twice: bad field");
	sdsi_error_prefix(err, "intel_vsec.sdsi.0");
	assert_string_equal(sdsi_error_message(err),
			    "intel_vsec.sdsi.0: bad field, twice: bad field");
	sdsi_error_copy(copy, err);
	assert_int_equal(sdsi_error_errno(copy), EBADMSG);
	assert_int_equal(sdsi_error_class(copy), SDSI_ERR_MALFORMED);
	assert_string_equal(sdsi_error_message(copy), sdsi_error_message(err));
	/* A prefix longer than any message leaves the message as it was. */
	memset(long_prefix, 'p', sizeof(long_prefix) - 1);
	long_prefix[sizeof(long_prefix) - 1] = '\0';
	sdsi_error_prefix(copy, long_prefix);
	assert_string_equal(sdsi_error_message(copy), sdsi_error_message(err));
	/* A successful call clears it. */
	assert_int_equal(sdsi_parse_devno("4", &(unsigned int){ 0 }, err), 0);
	assert_int_equal(sdsi_error_errno(err), 0);
	assert_string_equal(sdsi_error_message(err), "");
	sdsi_error_freep(&none);	/* NULL, as after a failed allocation */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_root_from_environment),
		cmocka_unit_test(test_devno_validation),
		cmocka_unit_test(test_read_attr),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_provision_writes_blob),
		cmocka_unit_test(test_errno_tables),
		cmocka_unit_test(test_error_handle),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
