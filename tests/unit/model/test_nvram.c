// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NVRAM file: round trip across destroy/create (a power cycle), no
 * temporary files left behind, refusal of truncated, corrupt, foreign and
 * newer files with the file left untouched, and a failed write that changes
 * nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "scratch_dir.h"
#include "model/model_priv.h"

struct fixture {
	char dir[64];
	char path[128];
	struct tsock ts;
	struct sdsi_model_config cfg;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/sdsi-model-nvram-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/socket0.nvram", f->dir);
	tsock_config(&f->ts, &f->cfg, SDSI_GUID_V2);
	f->cfg.state_dir = f->dir;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	scratch_socket_remove(&f->ts, f->dir);
	free(f);
	return 0;
}

static size_t read_file(const char *path, uint8_t *buf, size_t max)
{
	int fd = open(path, O_RDONLY);
	ssize_t got;

	assert_true(fd >= 0);
	got = read(fd, buf, max);
	assert_true(got >= 0);
	close(fd);
	return (size_t)got;
}

static void write_file(const char *path, const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static unsigned int count_entries(const char *dir)
{
	unsigned int n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Create a provisioned file: key, one metered licence. */
static void provision(struct fixture *f)
{
	static const uint8_t key[MODEL_PUBKEY_SIZE] = { 0xee, 1 };
	uint8_t blob[SDSI_BLOB_HEADER_SIZE + SDSI_BUNDLE_SIZE] = { 0 };

	sdsi_put_le32(blob, SDSI_BLOB_TYPE_METERED);
	sdsi_put_le32(blob + 0x20, 1);
	sdsi_put_le32(blob + SDSI_BLOB_HEADER_SIZE, SDSI_FOURCC('C', 'C', '0', '2'));
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(nvram_install_key(f->ts.m, 3, key), 0);
	assert_int_equal(nvram_add_license(f->ts.m, blob, sizeof(blob), false), 0);
	tsock_close(&f->ts);
}

/* Provision, then the bytes of the NVRAM file it stored, to be tampered with. */
static size_t provisioned_file(struct fixture *f, uint8_t *buf, size_t max)
{
	provision(f);
	return read_file(f->path, buf, max);
}

static void test_created_when_missing(void **state)
{
	struct fixture *f = *state;
	struct stat st;

	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(count_entries(f->dir), 1);
	/* Creation is not a provisioning write. */
	assert_int_equal(f->ts.m->nv.wear, 0);
}

static void test_round_trip_is_a_power_cycle(void **state)
{
	struct fixture *f = *state;
	uint8_t before[SDSI_READ_MSG_MAX], after[SDSI_READ_MSG_MAX];
	size_t len_before, len_after;

	provision(f);
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, before,
				 &len_before), 0);
	assert_int_equal(lx_write(&f->ts, SDSI_CMD_PROVISION_CAP, "c", 1, true),
			 -EIO);
	assert_int_equal(cap_failures(&f->ts), 1);
	tsock_close(&f->ts);

	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, after,
				 &len_after), 0);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(after, before, len_before);
	assert_int_equal(sdsi_le32(after), SDSI_STATE_CONTENT_KEY_BLOBS);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV),
			 SDSI_KEY_PROVISIONED);
	assert_int_equal(f->ts.m->nv.wear, 2);
	/* Volatile state starts afresh; the licence is now in effect. */
	assert_int_equal(cap_failures(&f->ts), 0);
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_METER, true, after,
				 &len_after), 0);
	assert_int_equal(len_after, 48);
}

static void test_no_temporary_files_left(void **state)
{
	struct fixture *f = *state;
	static const uint8_t key[MODEL_PUBKEY_SIZE];
	unsigned int i;

	tsock_open(&f->ts, &f->cfg);
	for (i = 0; i < 5; i++)
		assert_int_equal(nvram_install_key(f->ts.m, i, key), 0);
	assert_int_equal(count_entries(f->dir), 1);
}

static void test_ppin_stored_and_reused(void **state)
{
	struct fixture *f = *state;
	uint64_t ppin;

	f->cfg.ppin = 0;
	tsock_open(&f->ts, &f->cfg);
	ppin = reg_read(&f->ts, SDSI_REG_PPIN);
	assert_int_not_equal(ppin, 0);
	tsock_close(&f->ts);
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_PPIN), ppin);
	tsock_close(&f->ts);
	/* Configuring the stored PPIN explicitly is fine too. */
	f->cfg.ppin = ppin;
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_PPIN), ppin);
}

/*
 * Apply damage to a provisioned file, then check that creation is refused
 * with the code and a message naming the file and the reason, and that the
 * file is byte for byte what it was.
 */
static void expect_refused(struct fixture *f, const char *path, int code,
			   const char *reason)
{
	uint8_t before[8192], after[8192];
	size_t len = read_file(path, before, sizeof(before));
	struct stat st1, st2;
	const char *err;

	assert_int_equal(stat(path, &st1), 0);
	err = tsock_expect_refused(&f->cfg, code, path);
	if (!strstr(err, reason))
		fail_msg("\"%s\" does not say \"%s\"", err, reason);
	assert_int_equal(read_file(path, after, sizeof(after)), len);
	assert_memory_equal(after, before, len);
	assert_int_equal(stat(path, &st2), 0);
	assert_int_equal(st2.st_mtim.tv_nsec, st1.st_mtim.tv_nsec);
	assert_int_equal(st2.st_ino, st1.st_ino);
}

/* These bytes as socket 0's file: refused, and the file left as it was. */
static void expect_bytes_refused(struct fixture *f, const uint8_t *buf,
				 size_t len, int code, const char *reason)
{
	write_file(f->path, buf, len);
	expect_refused(f, f->path, code, reason);
}

static void test_truncated_refused(void **state)
{
	struct fixture *f = *state;
	uint8_t buf[8192];
	size_t len;

	len = provisioned_file(f, buf, sizeof(buf));
	expect_bytes_refused(f, buf, len - 1, -EPROTO, "truncated");
	expect_bytes_refused(f, buf, 12, -EPROTO, "truncated");
	expect_bytes_refused(f, buf, 0, -EPROTO, "truncated");
}

static void test_corrupt_refused(void **state)
{
	struct fixture *f = *state;
	uint8_t buf[8192];
	size_t len;

	len = provisioned_file(f, buf, sizeof(buf));
	buf[100] ^= 0x01;
	expect_bytes_refused(f, buf, len, -EPROTO, "checksum");
	buf[100] ^= 0x01;
	buf[len] = 0;
	expect_bytes_refused(f, buf, len + 1, -EPROTO, "corrupt");
}

static void test_foreign_refused(void **state)
{
	struct fixture *f = *state;
	char other[160];
	uint8_t buf[8192];
	size_t len;

	len = provisioned_file(f, buf, sizeof(buf));
	/* Another socket's file copied in place of socket 1's. */
	snprintf(other, sizeof(other), "%s/socket1.nvram", f->dir);
	write_file(other, buf, len);
	f->cfg.socket_index = 1;
	expect_refused(f, other, -EINVAL, "foreign");
	/* A file for the other GUID. */
	f->cfg.socket_index = 0;
	f->cfg.guid = SDSI_GUID_V1;
	expect_refused(f, f->path, -EINVAL, "GUID");
	/* A different configured PPIN. */
	f->cfg.guid = SDSI_GUID_V2;
	f->cfg.ppin = 0x1111;
	expect_refused(f, f->path, -EINVAL, "PPIN");
	/* Not our file at all. */
	f->cfg.ppin = 0;
	memcpy(buf, "NOTNVRAM", 8);
	expect_bytes_refused(f, buf, len, -EINVAL, "magic");
}

static void test_newer_version_refused(void **state)
{
	struct fixture *f = *state;
	uint8_t buf[8192];
	size_t len;

	len = provisioned_file(f, buf, sizeof(buf));
	sdsi_put_le32(buf + 8, 3);
	expect_bytes_refused(f, buf, len, -EPROTONOSUPPORT, "newer");
}

static void test_missing_directory_named(void **state)
{
	struct fixture *f = *state;

	f->cfg.state_dir = "/nonexistent/sdsi-state";
	tsock_expect_refused(&f->cfg, -ENOENT, "/nonexistent/sdsi-state/socket0.nvram");
}

static void test_failed_write_changes_nothing(void **state)
{
	struct fixture *f = *state;
	static const uint8_t key[MODEL_PUBKEY_SIZE] = { 9 };
	char moved[160];

	tsock_open(&f->ts, &f->cfg);
	/* Take the directory away under the running model. */
	snprintf(moved, sizeof(moved), "%s.moved", f->dir);
	assert_int_equal(rename(f->dir, moved), 0);
	assert_int_equal(nvram_install_key(f->ts.m, 1, key), -ENOENT);
	assert_int_equal(rename(moved, f->dir), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV), 0);
	assert_int_equal(f->ts.m->nv.wear, 0);
	assert_int_equal(count_entries(f->dir), 1);
	/* And the next write goes through. */
	assert_int_equal(nvram_install_key(f->ts.m, 1, key), 0);
	tsock_close(&f->ts);
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV),
			 SDSI_KEY_PROVISIONED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_created_when_missing),
		T(test_round_trip_is_a_power_cycle),
		T(test_no_temporary_files_left),
		T(test_ppin_stored_and_reused),
		T(test_truncated_refused),
		T(test_corrupt_refused),
		T(test_foreign_refused),
		T(test_newer_version_refused),
		T(test_missing_directory_named),
		T(test_failed_write_changes_nothing),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
