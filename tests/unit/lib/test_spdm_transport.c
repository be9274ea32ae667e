// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attestation transport's ABI header and what sdsi_spdm_transact()
 * refuses before it reaches a device: the ioctl numbers as Intel's posted
 * header computes them (a pointer's size in the size field), the
 * structures' layouts, the request bound on both sides, and a device
 * whose /dev/isdsiN does not exist.  The transactions themselves run
 * inside sdsi-emu run (tests/integration/platform/test_isdsi.py).
 */
#include <errno.h>
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
#include "sdsi/spdm_ioctl.h"

static void test_ioctl_numbers(void **state)
{
	(void)state;
	assert_int_equal(_IOC_TYPE(SDSI_IF_SPDM_INFO), 0xFC);
	assert_int_equal(_IOC_NR(SDSI_IF_SPDM_INFO), 0);
	assert_int_equal(_IOC_DIR(SDSI_IF_SPDM_INFO), _IOC_READ);
	assert_int_equal(_IOC_SIZE(SDSI_IF_SPDM_INFO), sizeof(void *));
	assert_int_equal(_IOC_TYPE(SDSI_IF_SPDM_COMMAND), 0xFC);
	assert_int_equal(_IOC_NR(SDSI_IF_SPDM_COMMAND), 1);
	assert_int_equal(_IOC_DIR(SDSI_IF_SPDM_COMMAND), _IOC_READ | _IOC_WRITE);
	assert_int_equal(_IOC_SIZE(SDSI_IF_SPDM_COMMAND), sizeof(void *));
#if defined(__x86_64__)
	/* what Intel's tool, built from Intel's header, sends on x86-64 */
	assert_int_equal(SDSI_IF_SPDM_INFO, 0x8008FC00u);
	assert_int_equal(SDSI_IF_SPDM_COMMAND, 0xC008FC01u);
#endif
}

static void test_layouts(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct sdsi_spdm_info), 12);
	assert_int_equal(offsetof(struct sdsi_spdm_info, driver_version), 4);
	assert_int_equal(offsetof(struct sdsi_spdm_info, dev_no), 6);
	assert_int_equal(offsetof(struct sdsi_spdm_info, max_request_size), 8);
	assert_int_equal(offsetof(struct sdsi_spdm_info, max_response_size), 10);
	assert_int_equal(sizeof(struct sdsi_spdm_command), 4100);
	assert_int_equal(offsetof(struct sdsi_spdm_command, message), SDSI_SPDM_COMMAND_HDR);
	/* the mailbox's limits, once */
	assert_int_equal(SDSI_SPDM_REQUEST_MAX, SDSI_ATTEST_REQUEST_MAX);
	assert_int_equal(SDSI_SPDM_RESPONSE_MAX, SDSI_ATTEST_RESPONSE_MAX);
}

/* intel_vsec.sdsi.N in a temporary sysfs-shaped tree, N with no /dev/isdsiN */
static struct sdsi_device *open_device(char *root, const char *devno)
{
	struct sdsi_device *dev = NULL;
	char dir[256];
	FILE *f;

	strcpy(root, "/tmp/libsdsi-spdm-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/intel_vsec.sdsi.%s", root, devno);
	assert_int_equal(mkdir(dir, 0755), 0);
	strcat(dir, "/guid");
	f = fopen(dir, "w");
	assert_non_null(f);
	fputs("0xf210d9ef\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(sdsi_device_open(root, devno, &dev, NULL), 0);
	return dev;
}

static void remove_tree(const char *root, const char *devno)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/intel_vsec.sdsi.%s/guid", root, devno);
	assert_int_equal(unlink(dir), 0);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(rmdir(root), 0);
}

static void test_refusals_before_the_device(void **state)
{
	static uint8_t req[SDSI_SPDM_REQUEST_MAX + 1] = { 0x10, 0x84 };
	static uint8_t rsp[SDSI_SPDM_RESPONSE_MAX];
	const char *devno = "4000000";
	struct sdsi_error *err = sdsi_error_new();
	struct sdsi_device *dev;
	char root[64];
	size_t len = 99;

	(void)state;
	assert_non_null(err);
	dev = open_device(root, devno);
	assert_int_equal(sdsi_spdm_transact(NULL, req, 4, rsp, sizeof(rsp), &len, err), -EINVAL);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_USAGE);
	assert_int_equal(sdsi_spdm_transact(dev, req, 0, rsp, sizeof(rsp), &len, err), -EINVAL);
	assert_int_equal(sdsi_spdm_transact(dev, NULL, 4, rsp, sizeof(rsp), &len, err), -EINVAL);
	assert_int_equal(sdsi_spdm_transact(dev, req, 4, rsp, sizeof(rsp), NULL, err), -EINVAL);
	/* one byte over the mailbox's 1008: refused before any file is opened */
	assert_int_equal(sdsi_spdm_transact(dev, req, sizeof(req), rsp, sizeof(rsp), &len, err),
			 -EOVERFLOW);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_USAGE);
	assert_int_equal(len, 0);
	assert_non_null(strstr(sdsi_error_message(err), "at most 1008"));
	/* exactly 1008 goes to the device, which is not there */
	assert_int_equal(sdsi_spdm_transact(dev, req, sizeof(req) - 1, rsp, sizeof(rsp), &len,
					    err), -ENODEV);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_NO_DEVICE);
	assert_non_null(strstr(sdsi_error_message(err), "/dev/isdsi4000000: "));
	assert_non_null(strstr(sdsi_error_message(err), "bit 12"));
	sdsi_device_close(dev);
	remove_tree(root, devno);
	sdsi_error_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioctl_numbers),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_refusals_before_the_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
