// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rules of the attribute files, on a real FUSE mount of one model socket
 * in a private mount namespace (so nothing is left mounted if the test dies):
 *   - after an unbind, every handle opened before fails with ENODEV, even
 *     once the socket is bound again; a new open works;
 *   - a provisioning write at a non-zero offset inside the mailbox is
 *     ESPIPE (past it, EFBIG; nothing at all, 0), for both ABIs;
 *   - the requests an open+read+close costs once its path is cached (OPEN,
 *     READ, RELEASE: no lookup, no getattr), and that unbind drops from the
 *     kernel's cache the names it hid and no others.
 * The conformance suite checks the same through sdsi-emu; this catches a
 * regression in a second.  Needs root and /dev/fuse: without them the test
 * is skipped, except under CI=true, where that is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/fuse.h>

#include "drivers/fuse/fusedrv_internal.h"
#include "sdsi/hw.h"
#include "backends/inproc/inproc_backend.h"

#define DEV	"/devices/intel_vsec.sdsi.0/"

struct rig {
	char mnt[64];
	struct sdsi_model *model;
	struct sdsi_fusedrv *drv;
};

static void rig_up(struct rig *r, enum sdsi_abi abi)
{
	/* The early driver knows only the V1 layout, as on Debian 12's 6.1. */
	struct sdsi_model_config mcfg = {
		.guid = abi == SDSI_ABI_EARLY ? SDSI_GUID_V1 : SDSI_GUID_V2, .ppin = 0x1234, .features = SDSI_MODEL_DEFAULT_FEATURES,
	};
	struct sdsi_fusedrv_backend backend;
	struct sdsi_fusedrv_config cfg = { .abi = abi, .backends = &backend, .nsockets = 1 };
	char err[256];

	strcpy(r->mnt, "/tmp/sdsi-fusedrv-files-XXXXXX");
	assert_non_null(mkdtemp(r->mnt));
	assert_int_equal(sdsi_model_create(&mcfg, &r->model, err, sizeof(err)), 0);
	backend = inproc_backend_for(r->model);
	if (sdsi_fusedrv_mount(&cfg, r->mnt, &r->drv, err, sizeof(err)))
		fail_msg("mount: %s", err);
}

static void rig_down(struct rig *r)
{
	sdsi_fusedrv_unmount(r->drv);
	sdsi_model_destroy(r->model);
	rmdir(r->mnt);
}

static int open_attr(const struct rig *r, const char *name, int flags)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s" DEV "%s", r->mnt, name);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	return fd;
}

static void assert_errno(ssize_t ret, int want)
{
	if (ret != -1 || errno != want)
		fail_msg("returned %zd (%s), expected %s", ret, ret < 0 ? strerror(errno) : "-",
			 strerror(want));
}

static void test_unbind_kills_open_handles(void **unused)
{
	static const char *const readable[] = { "guid", "registers", "state_certificate",
						"meter_certificate" };
	uint8_t buf[SDSI_READ_MSG_MAX] = { 0 };
	int fd[4], akc, unbind;
	struct rig r;

	rig_up(&r, SDSI_ABI_CURRENT);
	for (int i = 0; i < 4; i++) {
		fd[i] = open_attr(&r, readable[i], O_RDONLY);
		assert_true(pread(fd[i], buf, sizeof(buf), 0) > 0);
	}
	akc = open_attr(&r, "provision_akc", O_WRONLY);

	assert_int_equal(sdsi_fusedrv_unbind(r.drv, 0), 0);
	for (int i = 0; i < 4; i++)
		assert_errno(pread(fd[i], buf, sizeof(buf), 0), ENODEV);
	assert_errno(pwrite(akc, buf, 64, 0), ENODEV);

	/* Bound again: the old handles stay dead, a new one works. */
	assert_int_equal(sdsi_fusedrv_bind(r.drv, 0), 0);
	for (int i = 0; i < 4; i++) {
		assert_errno(pread(fd[i], buf, sizeof(buf), 0), ENODEV);
		close(fd[i]);
	}
	assert_errno(pwrite(akc, buf, 64, 0), ENODEV);
	close(akc);
	fd[0] = open_attr(&r, "state_certificate", O_RDONLY);
	assert_true(pread(fd[0], buf, sizeof(buf), 0) > 0);

	/* The same through drivers/intel_sdsi/unbind, as a user would. */
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/drivers/intel_sdsi/unbind", r.mnt);
		unbind = open(path, O_WRONLY | O_CLOEXEC);
		assert_true(unbind >= 0);
		assert_int_equal(write(unbind, "intel_vsec.sdsi.0\n", 18), 18);
		close(unbind);
	}
	assert_errno(pread(fd[0], buf, sizeof(buf), 0), ENODEV);
	close(fd[0]);
	rig_down(&r);
}

static void check_offsets(enum sdsi_abi abi, const char *file)
{
	uint8_t blob[SDSI_MBOX_SIZE] = { 0 };
	struct rig r;
	int fd;

	rig_up(&r, abi);
	fd = open_attr(&r, file, O_WRONLY);
	assert_errno(pwrite(fd, blob, 16, 1), ESPIPE);
	assert_errno(pwrite(fd, blob, 16, SDSI_MBOX_SIZE - 1), ESPIPE);
	assert_errno(pwrite(fd, blob, 16, SDSI_MBOX_SIZE), EFBIG);
	assert_int_equal(pwrite(fd, blob, 0, 1), 0);
	/* At offset 0 it reaches the mailbox: the silicon refuses zeros. */
	assert_errno(pwrite(fd, blob, 16, 0), EIO);
	close(fd);
	rig_down(&r);
}

static void test_provision_offsets(void **unused)
{
	check_offsets(SDSI_ABI_CURRENT, "provision_akc");
	check_offsets(SDSI_ABI_CURRENT, "provision_cap");
	check_offsets(SDSI_ABI_EARLY, "provision_akc");
	check_offsets(SDSI_ABI_EARLY, "provision_cap");
}

static uint64_t requests(const struct rig *r, unsigned int opcode)
{
	return __atomic_load_n(&r->drv->requests[opcode], __ATOMIC_RELAXED);
}

/* The kernel sends RELEASE after close() has returned: wait up to 2 s. */
static void wait_releases(const struct rig *r, uint64_t want)
{
	for (int i = 0; i < 2000 && requests(r, FUSE_RELEASE) < want; i++)
		usleep(1000);
	assert_int_equal(requests(r, FUSE_RELEASE), want);
}

static void open_read_close(const struct rig *r, const char *name)
{
	char buf[4096];
	int fd = open_attr(r, name, O_RDONLY);

	assert_true(read(fd, buf, sizeof(buf)) > 0);
	close(fd);
}

static void test_requests_per_open(void **unused)
{
	char stats[] = "/tmp/sdsi-fusedrv-stats-XXXXXX", text[512] = "";
	uint64_t lookups, getattrs;
	struct rig r;
	FILE *f;
	int fd;

	fd = mkstemp(stats);
	assert_true(fd >= 0);
	close(fd);
	setenv("SDSI_FUSEDRV_STATS", stats, 1);
	rig_up(&r, SDSI_ABI_CURRENT);
	unsetenv("SDSI_FUSEDRV_STATS");

	/* The first walk looks up devices, intel_vsec.sdsi.0 and guid. */
	open_read_close(&r, "guid");
	wait_releases(&r, 1);
	lookups = requests(&r, FUSE_LOOKUP);
	getattrs = requests(&r, FUSE_GETATTR);
	assert_int_equal(lookups, 3);
	for (int i = 0; i < 10; i++)
		open_read_close(&r, "guid");
	wait_releases(&r, 11);
	assert_int_equal(requests(&r, FUSE_OPEN), 11);
	assert_int_equal(requests(&r, FUSE_READ), 11);
	assert_int_equal(requests(&r, FUSE_LOOKUP), lookups);
	assert_int_equal(requests(&r, FUSE_GETATTR), getattrs);

	/* Unbind dropped guid from the cache, not the directories above it. */
	assert_int_equal(sdsi_fusedrv_unbind(r.drv, 0), 0);
	assert_int_equal(sdsi_fusedrv_bind(r.drv, 0), 0);
	open_read_close(&r, "guid");
	wait_releases(&r, 12);
	assert_int_equal(requests(&r, FUSE_LOOKUP), lookups + 1);
	rig_down(&r);

	/* The counts reach the file at unmount. */
	f = fopen(stats, "r");
	assert_non_null(f);
	assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
	fclose(f);
	unlink(stats);
	assert_non_null(strstr(text, "OPEN 12\n"));
	assert_non_null(strstr(text, "RELEASE 12\n"));
}

/* A private mount namespace, or the reason there is none. */
static const char *private_namespace(void)
{
	if (geteuid() != 0)
		return "not root";
	if (access("/dev/fuse", R_OK | W_OK) != 0)
		return "no usable /dev/fuse";
	if (unshare(CLONE_NEWNS) != 0)
		return "unshare(CLONE_NEWNS) failed";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return "cannot make / private";
	return NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unbind_kills_open_handles),
		cmocka_unit_test(test_provision_offsets),
		cmocka_unit_test(test_requests_per_open),
	};
	const char *why = private_namespace();
	const char *ci = getenv("CI");

	if (why) {
		fprintf(stderr, "test_fusedrv_files: %s: %s\n", why,
			ci && !strcmp(ci, "true") ? "FAIL under CI=true" : "skipped");
		return ci && !strcmp(ci, "true") ? 1 : 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
