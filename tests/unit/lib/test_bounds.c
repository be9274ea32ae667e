// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every bound of libsdsi's decoders and pre-flight, on both sides: the input
 * that exactly fits is accepted, the one a unit too large (or a byte too
 * short) is refused, and refused by that bound (its offset or its message).
 * Each input lives in a heap buffer of its exact size, so that under
 * AddressSanitizer (build-san) a read one byte past it is caught as well.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "assert_malformed.h"
#include "cert_bytes.h"
#include "sdsi/hw.h"
#include "sdsi/libsdsi.h"
#include "scoped_handle.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, src, len);
	return p;
}

/* The certificate is read and freed here: the tests judge only ret and err. */
static int state(const uint8_t *src, size_t len, struct sdsi_error *err)
{
	struct sdsi_state_cert cert;
	uint8_t *buf = exact(src, len);
	int ret = sdsi_decode_state_cert(buf, len, &cert, err);

	/* Read every feature the decoder vouched for, inside the buffer. */
	for (uint32_t i = 0; !ret && i < cert.num_licenses; i++)
		for (uint32_t k = 0; k < cert.licenses[i].num_features; k++)
			sdsi_license_feature(&cert.licenses[i], k);
	if (!ret)
		sdsi_state_cert_free(&cert);
	free(buf);
	return ret;
}

/* The first len bytes of c decode; one byte fewer are refused, pointing at offset. */
static void assert_state_fits(const uint8_t *c, size_t len, long offset)
{
	SCOPED_ERROR(err);

	assert_int_equal(state(c, len, err), 0);
	assert_malformed(state(c, len - 1, err), err, offset, "");
}

/* Header of a state certificate with n size words; returns the key offset. */
static size_t state_header(uint8_t *p, uint32_t content, uint32_t n)
{
	put32(p, 0x00, content);
	put32(p, 0x04, 1);
	put32(p, 0x08, 6 + n);
	put32(p, 0x0c, 0);
	put32(p, 0x10, 12);
	put32(p, 0x14, n);
	return 24 + 4 * (size_t)n;
}

static void test_state_header(void **unused)
{
	uint8_t c[64] = { 0 };

	state_header(c, SDSI_STATE_CONTENT_EMPTY, 0);
	assert_state_fits(c, 24, 23);
}

static void test_state_size_words(void **unused)
{
	uint8_t c[64] = { 0 };
	SCOPED_ERROR(err);

	/* Two size words fit in 32 bytes; the key info after them does not. */
	state_header(c, SDSI_STATE_CONTENT_KEY_BLOBS, 2);
	assert_malformed(state(c, 32, err), err, 32, "");
	assert_malformed(state(c, 31, err), err, 0x14, "");
}

/* The header size field: at least the header and size words, at most the bytes there. */
static void test_state_header_size(void **unused)
{
	uint8_t c[128] = { 0 };
	SCOPED_ERROR(err);

	state_header(c, SDSI_STATE_CONTENT_KEY, 0);
	assert_int_equal(state(c, 76, err), 0);
	put32(c, 0x08, 5);
	assert_malformed(state(c, 76, err), err, 0x08, "");
	put32(c, 0x08, 76 / 4);
	assert_int_equal(state(c, 76, err), 0);
	put32(c, 0x08, 76 / 4 + 1);
	assert_malformed(state(c, 76, err), err, 0x08, "runs past the end");
}

static void test_state_key_info(void **unused)
{
	uint8_t c[128] = { 0 };

	state_header(c, SDSI_STATE_CONTENT_KEY, 0);
	assert_state_fits(c, 24 + 52, 24);
}

/* One licence of size_dwords whose blob announces bundles; returns the length. */
static size_t one_license(uint8_t *c, uint32_t size_dwords, uint32_t bundles)
{
	static const char *const codes[] = { "CC02", "DSA1", "QAT4" };
	size_t off = state_header(c, SDSI_STATE_CONTENT_KEY_BLOBS, 1);

	put32(c, 24, size_dwords | SDSI_BLOB_VALID);
	off += 52;
	put_blob(c, off, 1, 7, 0x1234, 0, 1, codes, bundles < 3 ? bundles : 3);
	put32(c, off + 0x20, bundles);
	return off + 4 * (size_t)size_dwords;
}

static void test_state_blob_header(void **unused)
{
	uint8_t c[512] = { 0 };
	SCOPED_ERROR(err);
	size_t len;

	len = one_license(c, 9, 0);		/* 36 bytes: the header alone */
	assert_int_equal(state(c, len, err), 0);
	len = one_license(c, 8, 0);		/* 32 bytes */
	assert_malformed(state(c, len + 4, err), err, 24, "smaller than the 36-byte blob header");
}

static void test_state_blob_runs_past_end(void **unused)
{
	uint8_t c[512] = { 0 };
	SCOPED_ERROR(err);
	size_t len = one_license(c, 17, 1);	/* 68 bytes: one bundle */

	assert_int_equal(state(c, len, err), 0);
	assert_int_equal(state(c, len - 1, err), -EBADMSG);
	assert_non_null(strstr(sdsi_error_message(err), "runs past the end"));
}

/*
 * The bound the issue names: a bundle count one too high for the blob, the
 * blob ending exactly at the end of the buffer.  Accepted, the feature read
 * past the buffer would be the caller's.
 */
static void test_state_bundle_count(void **unused)
{
	uint8_t c[512] = { 0 };
	SCOPED_ERROR(err);
	size_t len;

	len = one_license(c, 25, 2);		/* 100 bytes: 36 + 2 * 32 */
	assert_int_equal(state(c, len, err), 0);
	len = one_license(c, 25, 3);
	assert_malformed(state(c, len, err), err, 24 + 4 + 52 + 0x20,
			 "3 feature bundles need 132 bytes");
}

static int meter(const uint8_t *src, size_t len, struct sdsi_error *err)
{
	struct sdsi_meter_cert cert;
	uint8_t *buf = exact(src, len);
	uint32_t enc, count;
	int ret = sdsi_decode_meter_cert(buf, len, &cert, err);

	for (uint32_t i = 0; !ret && i < cert.num_counters; i++)
		sdsi_meter_counter(&cert, i, &enc, &count);
	free(buf);
	return ret;
}

static uint8_t *meter_cert(uint32_t bundle_length, size_t size)
{
	uint8_t *c = calloc(1, size);

	assert_non_null(c);
	putcode(c, 0x00, "MTDB");
	put32(c, 0x04, 1);
	put32(c, 0x10, 1000);
	put32(c, 0x14, bundle_length);
	putcode(c, 0x20, "MMRC");
	return c;
}

static void test_meter_header(void **unused)
{
	uint8_t *c = meter_cert(0, 40);
	SCOPED_ERROR(err);

	assert_int_equal(meter(c, 40, err), 0);
	assert_malformed(meter(c, 39, err), err, 39, "");
	free(c);
}

static void test_meter_bundle_length(void **unused)
{
	uint8_t *c = meter_cert(8, 48);
	SCOPED_ERROR(err);

	assert_int_equal(meter(c, 48, err), 0);
	assert_int_equal(meter(c, 47, err), -EBADMSG);
	assert_non_null(strstr(sdsi_error_message(err), "runs past the end"));
	put32(c, 0x14, 12);			/* a pair and a half */
	assert_int_equal(meter(c, 48, err), -EBADMSG);
	assert_non_null(strstr(sdsi_error_message(err), "not a multiple of 8"));
	free(c);
}

static void test_meter_most_pairs(void **unused)
{
	const size_t most = 40 + 8 * SDSI_METER_MAX_PAIRS;	/* 4096 */
	uint8_t *c = meter_cert(8 * SDSI_METER_MAX_PAIRS, most + 8);
	SCOPED_ERROR(err);

	assert_int_equal(most, SDSI_READ_MSG_MAX);
	assert_int_equal(meter(c, most, err), 0);
	put32(c, 0x14, 8 * (SDSI_METER_MAX_PAIRS + 1));
	assert_int_equal(meter(c, most + 8, err), -EBADMSG);
	assert_non_null(strstr(sdsi_error_message(err), "at most 507"));
	free(c);
}

static int registers(const uint8_t *src, size_t len, uint32_t guid, struct sdsi_registers *r)
{
	SCOPED_ERROR(err);
	uint8_t *buf = exact(src, len);
	int ret = sdsi_decode_registers(buf, len, guid, r, err);

	free(buf);
	return ret;
}

static void test_registers_size(void **unused)
{
	uint8_t regs[96] = { 0 };
	struct sdsi_registers r;

	/* With the GUID known, anything through the socket ID decodes. */
	assert_int_equal(registers(regs, 68, SDSI_GUID_V1, &r), 0);
	assert_int_equal(registers(regs, 67, SDSI_GUID_V1, &r), -EBADMSG);
	/* Without it, only the two sizes a registers file has. */
	assert_int_equal(registers(regs, 72, 0, &r), 0);
	assert_int_equal(r.layout, 1);
	assert_int_equal(registers(regs, 71, 0, &r), -EBADMSG);
	assert_int_equal(registers(regs, 73, 0, &r), -EBADMSG);
	assert_int_equal(registers(regs, 80, 0, &r), 0);
	assert_int_equal(r.layout, 2);
	assert_int_equal(registers(regs, 79, 0, &r), -EBADMSG);
	assert_int_equal(registers(regs, 81, 0, &r), -EBADMSG);
}

static int preflight(size_t regs_size, uint32_t guid, unsigned int fails, unsigned int updates,
		     size_t blob_len, struct sdsi_preflight *pf)
{
	uint8_t regs[96] = { 0 };
	struct sdsi_registers r;
	SCOPED_ERROR(err);

	put64(regs, SDSI_REG_FEATURES, SDSI_FEATURE_ON_DEMAND);
	put64(regs, SDSI_REG_KEY_PROV, SDSI_KEY_PROVISIONED);
	put64(regs, SDSI_REG_FAIL_COUNT, fails | 3u << 3 | fails << 6 | 3u << 9);
	put64(regs, SDSI_REG_AVAILABILITY, (uint64_t)updates << 48 | 4ull << 51);
	assert_int_equal(registers(regs, regs_size, guid, &r), 0);
	return sdsi_preflight(&r, SDSI_BLOB_CAP, blob_len, pf, err);
}

static void test_preflight_bounds(void **unused)
{
	SCOPED_PREFLIGHT(pf);

	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 4, 1016, pf), 0);
	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 4, 1017, pf), -EOVERFLOW);
	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 4, 1, pf), 0);
	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 4, 0, pf), -ENODATA);
	assert_int_equal(preflight(72, SDSI_GUID_V1, 0, 4, 8, pf), 0);
	assert_int_equal(preflight(73, SDSI_GUID_V1, 0, 4, 8, pf), -EBADMSG);
	assert_int_equal(preflight(81, SDSI_GUID_V2, 0, 4, 8, pf), -EBADMSG);
	/* Failures: one below the threshold is the last attempt, at it refused. */
	assert_int_equal(preflight(80, SDSI_GUID_V2, 1, 4, 8, pf), 0);
	assert_false(sdsi_preflight_last_attempt(pf));
	assert_int_equal(preflight(80, SDSI_GUID_V2, 2, 4, 8, pf), 0);
	assert_true(sdsi_preflight_last_attempt(pf));
	assert_int_equal(preflight(80, SDSI_GUID_V2, 3, 4, 8, pf), -EDQUOT);
	/* Updates: one left passes, none is refused. */
	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 1, 8, pf), 0);
	assert_int_equal(preflight(80, SDSI_GUID_V2, 0, 0, 8, pf), -EDQUOT);
	/* At most one record per check name (the ten libsdsi.h lists); none past the last. */
	assert_true(sdsi_preflight_num_checks(pf) > 0 && sdsi_preflight_num_checks(pf) <= 10);
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++) {
		assert_non_null(sdsi_preflight_check_name(pf, i));
		assert_non_null(sdsi_preflight_check_detail(pf, i));
	}
	assert_null(sdsi_preflight_check_name(pf, sdsi_preflight_num_checks(pf)));
	assert_null(sdsi_preflight_check_detail(pf, sdsi_preflight_num_checks(pf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_header),
		cmocka_unit_test(test_state_size_words),
		cmocka_unit_test(test_state_header_size),
		cmocka_unit_test(test_state_key_info),
		cmocka_unit_test(test_state_blob_header),
		cmocka_unit_test(test_state_blob_runs_past_end),
		cmocka_unit_test(test_state_bundle_count),
		cmocka_unit_test(test_meter_header),
		cmocka_unit_test(test_meter_bundle_length),
		cmocka_unit_test(test_meter_most_pairs),
		cmocka_unit_test(test_registers_size),
		cmocka_unit_test(test_preflight_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
