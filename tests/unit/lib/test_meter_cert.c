// SPDX-License-Identifier: GPL-2.0-only
/* Meter certificate decoder: golden decode and hostile inputs. */
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

/* docs/interface.md §3.2, byte by byte: two counters after MMRC. */
static const uint8_t golden_meter[] = {
	/* 0x00 'MTDB' stored as 42 44 54 4D, version 1 */
	0x42, 0x44, 0x54, 0x4d,  0x01, 0, 0, 0,
	/* 0x08 PPIN 0x0123456789abcdef */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
	/* 0x10 unit 1000 ms, bundle length 16 */
	0xe8, 0x03, 0, 0,  0x10, 0, 0, 0,
	/* 0x18 reserved */
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 0x20 'MMRC', counter 12345 */
	'C', 'R', 'M', 'M',  0x39, 0x30, 0, 0,
	/* 0x28 'CC02' 7, 'SGX1' 0xffffffff */
	'2', '0', 'C', 'C',  0x07, 0, 0, 0,
	'1', 'X', 'G', 'S',  0xff, 0xff, 0xff, 0xff,
};

static void test_golden(void **state)
{
	struct sdsi_meter_cert cert;
	SCOPED_ERROR(err);
	uint32_t enc, count;
	char text[5];

	assert_int_equal(sdsi_decode_meter_cert(golden_meter, sizeof(golden_meter), &cert, err), 0);
	sdsi_fourcc(cert.signature, text);
	assert_string_equal(text, "MTDB");
	assert_int_equal(cert.version, 1);
	assert_int_equal(cert.ppin, 0x0123456789abcdefull);
	assert_int_equal(cert.unit_ms, 1000);
	assert_int_equal(cert.bundle_length, 16);
	sdsi_fourcc(cert.mmrc_encoding, text);
	assert_string_equal(text, "MMRC");
	assert_int_equal(cert.mmrc_counter, 12345);
	assert_int_equal(cert.num_counters, 2);
	assert_int_equal(cert.warnings, 0);
	sdsi_meter_counter(&cert, 0, &enc, &count);
	sdsi_fourcc(enc, text);
	assert_string_equal(text, "CC02");
	assert_int_equal(count, 7);
	sdsi_meter_counter(&cert, 1, &enc, &count);
	sdsi_fourcc(enc, text);
	assert_string_equal(text, "SGX1");
	assert_int_equal(count, 0xffffffffu);
	sdsi_meter_counter(&cert, 2, &enc, &count);	/* out of range: zeros */
	assert_int_equal(enc, 0);
}

static void expect_malformed(const uint8_t *buf, size_t len, long offset, const char *needle)
{
	struct sdsi_meter_cert cert;
	SCOPED_ERROR(err);

	assert_malformed(sdsi_decode_meter_cert(buf, len, &cert, err), err, offset, needle);
}

static void test_hostile(void **state)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	struct sdsi_meter_cert cert;

	memcpy(buf, golden_meter, sizeof(golden_meter));
	expect_malformed(buf, 39, 39, "header needs 40");
	expect_malformed(buf, sizeof(golden_meter) - 1, 0x14, "runs past the end");

	put32(buf, 0x14, 12);
	expect_malformed(buf, sizeof(golden_meter), 0x14, "not a multiple of 8");
	put32(buf, 0x14, 508 * 8);
	expect_malformed(buf, sizeof(buf), 0x14, "508 counters");
	put32(buf, 0x14, 0xfffffff8u);
	expect_malformed(buf, sizeof(buf), 0x14, "at most 507");

	memcpy(buf, golden_meter, sizeof(golden_meter));
	putcode(buf, 0, "MTDX");
	expect_malformed(buf, sizeof(golden_meter), 0, "('MTDX') is not 'MTDB'");

	/* 507 pairs is the most a 4096-byte read can hold: accepted. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, golden_meter, 0x28);
	put32(buf, 0x14, 507 * 8);
	assert_int_equal(sdsi_decode_meter_cert(buf, 40 + 507 * 8, &cert, NULL), 0);
	assert_int_equal(cert.num_counters, 507);

	/* A wrong MMRC word is only a warning. */
	putcode(buf, 0x20, "XXXX");
	assert_int_equal(sdsi_decode_meter_cert(buf, 40 + 507 * 8, &cert, NULL), 0);
	assert_int_equal(cert.warnings, SDSI_METER_WARN_MMRC);
}

static void test_fourcc_nonprintable(void **state)
{
	char text[5];

	sdsi_fourcc(0x41000a7f, text);
	assert_string_equal(text, "A...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_fourcc_nonprintable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
