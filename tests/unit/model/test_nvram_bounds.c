// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every bound of the NVRAM file loader (model/nvram_file.c, docs/model.md),
 * on both sides: files written byte by byte, independently of the encoder,
 * loaded by creating a socket on them.  The side that fits loads; the side a
 * unit too large is refused by that bound, with its message, and the file
 * is left as it was.
 */
#define _GNU_SOURCE
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

#include <sdsi/nvram_file.h>

#include "model/model_priv.h"
#include "nvram_crc.h"

#define LATCH		MODEL_LATCH_PERIOD_NS
#define FIXED_V2	SDSI_NVRAM_FIXED_BODY_LEN
#define FIXED_V1	SDSI_NVRAM_V1_FIXED_BODY_LEN

struct image {
	uint32_t version;
	uint32_t num_licenses;		/* as written, whatever follows */
	uint32_t num_meters;
	uint32_t meters_written;
	uint64_t powered, latched, meter_total, meter_latched;
	const uint8_t *licenses;	/* size words and blobs, back to back */
	size_t licenses_len;
	long body_cut;			/* bytes removed from the fixed body */
	size_t pad;			/* zero bytes after the body, counted */
};

static char dir[64], path[128];
static uint8_t file[16384];

/* Lay the file out field by field; returns its length. */
static size_t build(const struct image *im)
{
	const size_t fixed = (im->version == 1 ? FIXED_V1 : FIXED_V2) - im->body_cut;
	size_t off = SDSI_NVRAM_HEADER_LEN;

	memset(file, 0, sizeof(file));
	memcpy(file, SDSI_NVRAM_MAGIC, SDSI_NVRAM_MAGIC_LEN);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_VERSION, im->version);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_GUID, SDSI_GUID_V2);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_SOCKET, 0);
	sdsi_put_le64(file + SDSI_NVRAM_OFF_PPIN, 0x1234);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_FLAGS,
		      SDSI_NVRAM_FLAG_KEY | SDSI_NVRAM_FLAG_LICENSOR_KEY);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_KEY_REV, 1);
	memset(file + SDSI_NVRAM_OFF_KEY_IMAGE, 0x22, SDSI_STATE_KEY_IMAGE_SIZE);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_WEAR, 1);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_NUM_LIC, im->num_licenses);
	if (im->version >= 2) {
		memset(file + SDSI_NVRAM_OFF_LICENSOR, 0x33, MODEL_PUBKEY_SIZE);
		sdsi_put_le64(file + SDSI_NVRAM_OFF_POWERED, im->powered);
		sdsi_put_le64(file + SDSI_NVRAM_OFF_LATCHED, im->latched);
		sdsi_put_le32(file + SDSI_NVRAM_OFF_NUM_METERS, im->num_meters);
	}
	off += fixed;
	for (uint32_t i = 0; i < im->meters_written; i++, off += SDSI_NVRAM_METER_LEN) {
		sdsi_put_le32(file + off, 0x43433030 + i);
		sdsi_put_le64(file + off + 4, im->meter_total);
		sdsi_put_le64(file + off + 12, im->meter_latched);
	}
	if (im->licenses_len)
		memcpy(file + off, im->licenses, im->licenses_len);
	off += im->licenses_len + im->pad;
	sdsi_put_le32(file + SDSI_NVRAM_OFF_BODY_LEN, (uint32_t)(off - SDSI_NVRAM_HEADER_LEN));
	sdsi_put_le32(file + off, crc32_ieee(file, off));
	return off + SDSI_NVRAM_CRC_LEN;
}

static void write_file(const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

/* Load len bytes of file; on refusal, the message must hold want. */
static int load(size_t len, const char *want)
{
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2, .features = SDSI_MODEL_DEFAULT_FEATURES, .state_dir = dir,
	};
	struct sdsi_model *m = NULL;
	uint8_t after[sizeof(file) + 1];
	char err[512] = "";
	int ret, fd;

	write_file(file, len);
	ret = sdsi_model_create(&cfg, &m, err, sizeof(err));
	if (ret == 0) {
		assert_null(want);
		sdsi_model_destroy(m);
		return 0;
	}
	if (!want || !strstr(err, want) || !strstr(err, path))
		fail_msg("refused with \"%s\", expected \"%s\"", err, want ? want : "success");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, after, sizeof(after)), (ssize_t)len);
	close(fd);
	assert_memory_equal(after, file, len);
	return ret;
}

static int setup(void **unused)
{
	/* Every successful load is a store at switch-off: fsync is cheap on tmpfs. */
	snprintf(dir, sizeof(dir), "%s/sdsi-nvram-bounds-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/socket0.nvram", dir);
	return 0;
}

static int teardown(void **unused)
{
	char tmp[256];

	unlink(path);
	/* A store that failed halfway would leave its temporary file. */
	snprintf(tmp, sizeof(tmp), "rm -f %s/socket0.nvram.tmp.*", dir);
	assert_int_equal(system(tmp), 0);
	return rmdir(dir);
}

/* The oracle itself, on the check value of CRC-32/ISO-HDLC and on nothing. */
static void test_crc_check_value(void **unused)
{
	assert_int_equal(crc32_ieee((const uint8_t *)"123456789", 9), 0xcbf43926u);
	assert_int_equal(crc32_ieee(NULL, 0), 0);
}

static void test_magic_and_header(void **unused)
{
	struct image im = { .version = 2 };
	size_t len = build(&im);

	assert_int_equal(load(len, NULL), 0);
	build(&im);
	assert_int_equal(load(7, "truncated: 7 bytes"), -EPROTO);
	assert_int_equal(load(15, "truncated: 15 bytes, the header alone is 16"), -EPROTO);
	assert_int_equal(load(16, "the header announces"), -EPROTO);
	file[0] = 'X';
	assert_int_equal(load(8, "bad magic"), -EINVAL);
}

static void test_version(void **unused)
{
	struct image im = { .version = 2 };

	assert_int_equal(load(build(&im), NULL), 0);
	im.version = 3;
	assert_int_equal(load(build(&im), "newer version (format 3"), -EPROTONOSUPPORT);
	im.version = 1;
	assert_int_equal(load(build(&im), NULL), 0);
	im.version = 0;
	assert_int_equal(load(build(&im), "format version 0"), -EPROTO);
}

static void test_length(void **unused)
{
	struct image im = { .version = 2 };
	size_t len = build(&im);

	assert_int_equal(load(len - 1, "truncated"), -EPROTO);
	file[len] = 0;
	assert_int_equal(load(len + 1, "1 bytes after the checksum"), -EPROTO);
}

static void test_fixed_body(void **unused)
{
	struct image im = { .version = 2, .body_cut = 1 };

	assert_int_equal(load(build(&im), "body of 195 bytes, at least 196"), -EPROTO);
	im.version = 1;
	assert_int_equal(load(build(&im), "body of 79 bytes, at least 80"), -EPROTO);
	im.body_cut = 0;
	assert_int_equal(load(build(&im), NULL), 0);
}

static void test_meter_count(void **unused)
{
	struct image im = { .version = 2, .num_meters = MODEL_MAX_METERS,
			    .meters_written = MODEL_MAX_METERS };

	assert_int_equal(load(build(&im), NULL), 0);
	im.num_meters = im.meters_written = MODEL_MAX_METERS + 1;
	assert_int_equal(load(build(&im), "129 meters do not fit"), -EPROTO);
	/* One meter more than the bytes hold. */
	im.num_meters = 3;
	im.meters_written = 2;
	assert_int_equal(load(build(&im), "3 meters do not fit"), -EPROTO);
}

static void test_latch_and_meters(void **unused)
{
	struct image im = { .version = 2, .latched = LATCH, .powered = 2 * LATCH - 1,
			    .num_meters = 1, .meters_written = 1 };

	im.meter_total = im.powered;
	im.meter_latched = im.meter_total;
	assert_int_equal(load(build(&im), NULL), 0);
	im.meter_latched = im.meter_total + 1;
	assert_int_equal(load(build(&im), "meter 0 counts more"), -EPROTO);
	im.meter_latched = 0;
	im.meter_total = im.powered + 1;
	assert_int_equal(load(build(&im), "meter 0 counts more"), -EPROTO);
	im.meter_total = 0;
	im.powered = 2 * LATCH;
	assert_int_equal(load(build(&im), "latch point"), -EPROTO);
	im.powered = LATCH + 1;
	im.latched = LATCH + 1;
	assert_int_equal(load(build(&im), "latch point"), -EPROTO);
}

/* One licence entry of len bytes (a multiple of 4) announcing bundles. */
static size_t license(uint8_t *p, uint32_t len, uint32_t bundles)
{
	memset(p, 0, 4 + len);
	sdsi_put_le32(p, len / 4 | SDSI_BLOB_VALID);
	if (len >= SDSI_BLOB_HEADER_SIZE) {
		sdsi_put_le32(p + 4, SDSI_BLOB_TYPE_ONE_TIME);
		sdsi_put_le32(p + 4 + 0x20, bundles);
		for (uint32_t k = 0; k < bundles && 36 + 32 * (k + 1) <= len; k++)
			sdsi_put_le32(p + 4 + 36 + 32 * k, SDSI_FOURCC('C', 'C', '0', '2'));
	}
	return 4 + len;
}

/* The image with one licence entry in lic (len bytes announcing bundles), loaded. */
static int load_one_license(struct image *im, uint8_t *lic, uint32_t len, uint32_t bundles,
			    const char *want)
{
	im->num_licenses = 1;
	im->licenses_len = license(lic, len, bundles);
	return load(build(im), want);
}

static void test_license_entries(void **unused)
{
	uint8_t lic[8192];
	struct image im = { .version = 2, .num_licenses = 1, .licenses = lic };

	assert_int_equal(load_one_license(&im, lic, 36, 0, NULL), 0);
	/* 32 bytes, then a licence whose size word (9) would read as 9 bundles. */
	im.licenses_len = license(lic, 32, 0);
	im.licenses_len += license(lic + im.licenses_len, 36, 0);
	sdsi_put_le32(lic + 36, 9);
	im.num_licenses = 2;
	assert_int_equal(load(build(&im), "licence 0 of 32 bytes is not a licence"), -EPROTO);
	assert_int_equal(load_one_license(&im, lic, 68, 1, NULL), 0);
	assert_int_equal(load_one_license(&im, lic, 68, 2,
					  "licence 0 of 68 bytes is not a licence"), -EPROTO);
	/* The size word one dword past the bytes there. */
	im.licenses_len = license(lic, 68, 1);
	sdsi_put_le32(lic, 18 | SDSI_BLOB_VALID);
	assert_int_equal(load(build(&im), "licence 0 has a bad size"), -EPROTO);
	/* A second entry announced: 3 bytes cannot hold its size word, 4 can. */
	im.licenses_len = license(lic, 68, 1) + 3;
	lic[72] = lic[73] = lic[74] = lic[75] = 0;
	im.num_licenses = 2;
	assert_int_equal(load(build(&im), "licence 1 runs past the end"), -EPROTO);
	im.licenses_len++;
	assert_int_equal(load(build(&im), "licence 1 has a bad size"), -EPROTO);
	/* The blobs may take 4096 bytes (the certificate around them may not). */
	assert_int_equal(load_one_license(&im, lic, 4096, 124, "does not match its size"), -EPROTO);
	assert_int_equal(load_one_license(&im, lic, 4100, 124, "licence 0 has a bad size"),
			 -EPROTO);
}

static void test_license_count(void **unused)
{
	uint8_t lic[8192];
	struct image im = { .version = 2, .licenses = lic };

	/*
	 * 128 entries may be listed, but no 128 licences fit the 4 KiB the
	 * blobs may take (113 bare headers do): the count is the outer bound.
	 */
	for (uint32_t i = 0; i < MODEL_MAX_LICENSES + 1; i++)
		im.licenses_len += license(lic + im.licenses_len, 36, 0);
	im.num_licenses = MODEL_MAX_LICENSES + 1;
	assert_int_equal(load(build(&im), "129 licences, at most 128 fit"), -EPROTO);
	im.num_licenses = MODEL_MAX_LICENSES;
	im.licenses_len -= 40;
	assert_int_equal(load(build(&im), "licence 113 has a bad size"), -EPROTO);
}

/* A state certificate of 24 + 4 + 52 + 4016 = 4096 bytes loads; 16 more do not. */
static void test_state_certificate_size(void **unused)
{
	uint8_t lic[8192];
	struct image im = { .version = 2, .licenses = lic };

	assert_int_equal(load_one_license(&im, lic, 4016, 124, NULL), 0);
	assert_int_equal(load_one_license(&im, lic, 4020, 124, "does not match its size"), -EPROTO);
}

/* The read stops one byte past the largest image the format allows. */
static void test_file_size(void **unused)
{
	const size_t most = 16 + FIXED_V2 + 20 * MODEL_MAX_METERS + 4 * MODEL_MAX_LICENSES +
			    SDSI_READ_MSG_MAX + 4;
	struct image im = { .version = 2 };

	im.pad = most - build(&im);
	assert_int_equal(build(&im), most);
	assert_int_equal(load(most, "the licence list does not match its size"), -EPROTO);
	im.pad++;
	assert_int_equal(load(build(&im), "longer than the largest NVRAM image"), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_value),
		cmocka_unit_test(test_magic_and_header),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_length),
		cmocka_unit_test(test_fixed_body),
		cmocka_unit_test(test_meter_count),
		cmocka_unit_test(test_latch_and_meters),
		cmocka_unit_test(test_license_entries),
		cmocka_unit_test(test_license_count),
		cmocka_unit_test(test_state_certificate_size),
		cmocka_unit_test(test_file_size),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
