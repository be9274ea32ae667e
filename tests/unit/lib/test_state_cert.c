// SPDX-License-Identifier: GPL-2.0-only
/* State certificate decoder: golden decodes and hostile inputs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "assert_malformed.h"
#include "cert_bytes.h"
#include "sdsi/libsdsi.h"
#include "scoped_handle.h"

/*
 * One key, one one-time license with two features, written out byte by byte
 * (docs/interface.md §3.1).  Blob at 0x18 + 4*1 + 52 = 0x50.
 */
static const uint8_t golden_one_license[] = {
	/* 0x00 content type 0xE, region rev 1, header size 7, total size 180 */
	0x0e, 0, 0, 0,  0x01, 0, 0, 0,  0x07, 0, 0, 0,  0xb4, 0, 0, 0,
	/* 0x10 key size 12 dwords, 1 license */
	0x0c, 0, 0, 0,  0x01, 0, 0, 0,
	/* 0x18 size word: valid | 25 dwords (100 bytes) */
	0x19, 0, 0, 0x80,
	/* 0x1c key revision 0x2 */
	0x02, 0, 0, 0,
	/* 0x20 key image: 48 bytes 0x00..0x2f */
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23,
	0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	/* 0x50 blob: type 1 */
	0x01, 0, 0, 0,
	/* 0x54 id 0x1122334455667788 */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	/* 0x5c ppin 0xaabbccddeeff0011 */
	0x11, 0x00, 0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa,
	/* 0x64 previous ppin 0 */
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 0x6c revision 3, 0x70 two bundles */
	0x03, 0, 0, 0,  0x02, 0, 0, 0,
	/* 0x74 "CC02" + 28 reserved */
	'2', '0', 'C', 'C', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 0x94 "SGX1" + 28 reserved */
	'1', 'X', 'G', 'S', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static void feature_is(const struct sdsi_license *lic, uint32_t k, const char *want)
{
	char text[5];

	sdsi_fourcc(sdsi_license_feature(lic, k), text);
	assert_string_equal(text, want);
}

static void test_golden_one_license(void **state)
{
	struct sdsi_state_cert cert;
	SCOPED_ERROR(err);
	const struct sdsi_license *lic;

	assert_int_equal(sizeof(golden_one_license), 180);
	assert_int_equal(sdsi_decode_state_cert(golden_one_license, sizeof(golden_one_license),
						&cert, err), 0);
	assert_int_equal(cert.content_type, 0xe);
	assert_int_equal(cert.region_rev_id, 1);
	assert_int_equal(cert.header_size, 7);
	assert_int_equal(cert.total_size, 180);
	assert_int_equal(cert.key_size, 12);
	assert_int_equal(cert.num_licenses, 1);
	assert_true(cert.key_present);
	assert_int_equal(cert.key_rev_id, 2);
	for (int i = 0; i < 48; i++)
		assert_int_equal(cert.key_image[i], i);
	assert_int_equal(cert.warnings, 0);
	lic = &cert.licenses[0];
	assert_int_equal(lic->offset, 0x50);
	assert_int_equal(lic->size, 100);
	assert_true(lic->valid);
	assert_true(lic->present);
	assert_int_equal(lic->type, 1);
	assert_int_equal(lic->id, 0x1122334455667788ull);
	assert_int_equal(lic->ppin, 0xaabbccddeeff0011ull);
	assert_int_equal(lic->previous_ppin, 0);
	assert_int_equal(lic->revision, 3);
	assert_int_equal(lic->num_features, 2);
	feature_is(lic, 0, "CC02");
	feature_is(lic, 1, "SGX1");
	sdsi_state_cert_free(&cert);
}

/* Builds: one-time (2 features), empty slot, metered (10 features + 96-byte tail). */
static size_t build_three(uint8_t *buf)
{
	static const char *const two[] = { "CC02", "DSA4" };
	static const char *const ten[] = { "F000", "F001", "F002", "F003", "F004",
					   "F005", "F006", "F007", "F008", "F009" };
	size_t off, size;

	memset(buf, 0, SDSI_READ_BUF_SIZE);
	put32(buf, 0x00, 0xe);
	put32(buf, 0x04, 5);
	put32(buf, 0x08, 9);
	put32(buf, 0x10, 12);
	put32(buf, 0x14, 3);
	off = 0x18 + 4 * 3;
	put32(buf, off, 0x7);
	memset(buf + off + 4, 0x5c, 48);
	off += 52;
	size = put_blob(buf, off, 1, 0x100, 0xfeed, 0, 1, two, 2);
	put32(buf, 0x18, 0x80000000u | (uint32_t)(size / 4));
	off += size;
	put32(buf, 0x1c, 0);		/* slot 1: nothing provisioned */
	size = put_blob(buf, off, 2, 0x200, 0xfeed, 0xbeef, 9, ten, 10) + 96;
	put32(buf, 0x20, (uint32_t)(size / 4));	/* not valid */
	off += size;
	put32(buf, 0x0c, (uint32_t)off);
	return off;
}

static void test_three_licenses(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	struct sdsi_state_cert cert;
	SCOPED_ERROR(err);
	size_t len = build_three(buf);

	assert_int_equal(sdsi_decode_state_cert(buf, len, &cert, err), 0);
	assert_int_equal(cert.num_licenses, 3);
	assert_int_equal(cert.key_rev_id, 7);
	assert_int_equal(cert.key_image[47], 0x5c);
	assert_true(cert.licenses[0].valid);
	assert_int_equal(cert.licenses[0].size, 100);
	assert_int_equal(cert.licenses[0].type, 1);
	feature_is(&cert.licenses[0], 1, "DSA4");
	assert_false(cert.licenses[1].present);
	assert_false(cert.licenses[1].valid);
	assert_int_equal(cert.licenses[1].size, 0);
	assert_true(cert.licenses[2].present);
	assert_false(cert.licenses[2].valid);
	assert_int_equal(cert.licenses[2].size, 36 + 320 + 96);
	assert_int_equal(cert.licenses[2].type, 2);
	assert_int_equal(cert.licenses[2].id, 0x200);
	assert_int_equal(cert.licenses[2].previous_ppin, 0xbeef);
	assert_int_equal(cert.licenses[2].revision, 9);
	assert_int_equal(cert.licenses[2].num_features, 10);
	feature_is(&cert.licenses[2], 9, "F009");
	assert_int_equal(cert.licenses[2].offset, 0x18 + 12 + 52 + 100);
	sdsi_state_cert_free(&cert);

	/* The 4096-byte read of a device: zero padding after the end is fine. */
	assert_int_equal(sdsi_decode_state_cert(buf, sizeof(buf), &cert, err), 0);
	sdsi_state_cert_free(&cert);
}

static void test_empty_and_key_only(void **state)
{
	uint8_t buf[0x18 + 52] = { 0 };
	struct sdsi_state_cert cert;
	SCOPED_ERROR(err);

	assert_int_equal(sdsi_decode_state_cert(buf, 0x18, &cert, err), 0);
	assert_false(cert.key_present);
	assert_null(cert.licenses);
	/* The model's empty certificate: key size 12 and zeroed key info. */
	put32(buf, 0x10, 12);
	assert_int_equal(sdsi_decode_state_cert(buf, sizeof(buf), &cert, err), 0);
	assert_false(cert.key_present);
	assert_int_equal(cert.key_size, 12);

	put32(buf, 0, 0xd);
	put32(buf, 0x08, 6);		/* a key certificate has a header size */
	put32(buf, 0x10, 12);
	put32(buf, 0x18, 0x42);
	assert_int_equal(sdsi_decode_state_cert(buf, sizeof(buf), &cert, err), 0);
	assert_true(cert.key_present);
	assert_int_equal(cert.key_rev_id, 0x42);
	assert_int_equal(cert.warnings, 0);

	put32(buf, 0x10, 13);
	put32(buf, 0, 0x7);
	assert_int_equal(sdsi_decode_state_cert(buf, sizeof(buf), &cert, err), 0);
	assert_int_equal(cert.warnings, SDSI_STATE_WARN_KEY_SIZE | SDSI_STATE_WARN_CONTENT_TYPE);

	/* A key-only certificate cut inside the key info. */
	put32(buf, 0, 0xd);
	assert_int_equal(sdsi_decode_state_cert(buf, sizeof(buf) - 1, &cert, err), -EBADMSG);
	assert_int_equal(sdsi_error_offset(err), 0x18);
}

static void expect_malformed(const uint8_t *buf, size_t len, long offset, const char *needle)
{
	struct sdsi_state_cert cert;
	SCOPED_ERROR(err);

	assert_malformed(sdsi_decode_state_cert(buf, len, &cert, err), err, offset, needle);
	assert_null(cert.licenses);
}

static void test_hostile(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	size_t len;

	len = build_three(buf);
	expect_malformed(buf, 23, 23, "header needs 24");

	put32(buf, 0x14, 0xffffffffu);
	expect_malformed(buf, len, 0x14, "4294967295 licenses");

	len = build_three(buf);
	put32(buf, 0x1c, 0x80000000u);	/* only the valid bit */
	expect_malformed(buf, len, 0x1c, "valid bit but a size of 0");

	len = build_three(buf);
	put32(buf, 0x18, 0x80000000u | 4);	/* 16 bytes: shorter than a header */
	expect_malformed(buf, len, 0x18, "smaller than the 36-byte");

	len = build_three(buf);
	put32(buf, 0x20, 0x7fffffffu);	/* size points far past the end */
	expect_malformed(buf, len, 0x20, "runs past the end");

	len = build_three(buf);
	put32(buf, 0x18 + 12 + 52 + 0x20, 0xffffffffu);	/* bundle count of blob 0 */
	expect_malformed(buf, len, 0x18 + 12 + 52 + 0x20, "4294967295 feature bundles");
}

static void decodes(const uint8_t *buf, size_t len)
{
	struct sdsi_state_cert cert;
	SCOPED_ERROR(err);

	assert_int_equal(sdsi_decode_state_cert(buf, len, &cert, err), 0);
	sdsi_state_cert_free(&cert);
}

/*
 * The header size, in dwords, holds at least the six fields and the size
 * words, and at most the bytes present: both bounds, from both sides.
 */
static void test_header_size_bounds(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	size_t len = build_three(buf);

	assert_int_equal(len % 4, 0);
	put32(buf, 0x08, 6 + 3);		/* exactly the fields and 3 size words */
	decodes(buf, len);
	put32(buf, 0x08, 6 + 3 - 1);
	expect_malformed(buf, len, 0x08, "header size 8 dwords (32 bytes) cannot hold the 24-byte header and 3 license size words (36 bytes)");
	put32(buf, 0x08, 0);
	expect_malformed(buf, len, 0x08, "cannot hold");

	put32(buf, 0x08, (uint32_t)(len / 4));	/* the whole certificate */
	decodes(buf, len);
	put32(buf, 0x08, (uint32_t)(len / 4) + 1);
	expect_malformed(buf, len, 0x08, "runs past the end");
	put32(buf, 0x08, 0xffffffffu);
	expect_malformed(buf, len, 0x08, "header size 4294967295 dwords (17179869180 bytes) runs past the end");

	/* Empty: a region never written (all 0), or a header of 6 dwords. */
	memset(buf, 0, 0x18);
	decodes(buf, 0x18);
	put32(buf, 0x08, 6);
	decodes(buf, 0x18);
	put32(buf, 0x08, 5);
	expect_malformed(buf, 0x18, 0x08, "cannot hold");
	put32(buf, 0x08, 7);
	expect_malformed(buf, 0x18, 0x08, "runs past the end");
	put32(buf, 0x08, 0xffffffffu);
	expect_malformed(buf, 0x18, 0x08, "runs past the end");
	/* Only an empty certificate may have no header size. */
	put32(buf, 0x08, 0);
	put32(buf, 0x00, 0xd);
	expect_malformed(buf, 0x18, 0x08, "cannot hold");
}

/* Every prefix of a valid certificate decodes or fails cleanly (ASan watches). */
static void test_every_truncation(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	size_t len = build_three(buf);
	struct sdsi_state_cert cert;
	int ret;

	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		ret = sdsi_decode_state_cert(copy, cut, &cert, NULL);
		assert_int_equal(ret, -EBADMSG);
		free(copy);
	}
}

/* Random single-word corruptions never crash and never succeed half-way. */
static void test_corruptions(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE], *copy;
	size_t len = build_three(buf);
	struct sdsi_state_cert cert;
	unsigned int seed = 12345;
	int ret;

	for (int round = 0; round < 5000; round++) {
		size_t off = (size_t)rand_r(&seed) % (len - 3);

		copy = malloc(len);
		memcpy(copy, buf, len);
		put32(copy, off, (uint32_t)rand_r(&seed) * 2654435761u);
		ret = sdsi_decode_state_cert(copy, len, &cert, NULL);
		assert_true(ret == 0 || ret == -EBADMSG);
		if (ret == 0)
			sdsi_state_cert_free(&cert);
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_one_license),
		cmocka_unit_test(test_three_licenses),
		cmocka_unit_test(test_empty_and_key_only),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_header_size_bounds),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_corruptions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
