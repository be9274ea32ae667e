// SPDX-License-Identifier: GPL-2.0-only
/*
 * The functions of include/sdsi/: the one GUID -> layout choice and the
 * little-endian helpers every layout is read and written with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <sdsi/hw.h>
#include <sdsi/le.h>

static void guid_picks_layout(void **state)
{
	(void)state;
	assert_int_equal(sdsi_guid_layout(SDSI_GUID_V1), 1);
	assert_int_equal(sdsi_guid_layout(SDSI_GUID_V2), 2);
	/* A GUID one off either known one is unknown. */
	assert_int_equal(sdsi_guid_layout(SDSI_GUID_V1 + 1), 0);
	assert_int_equal(sdsi_guid_layout(SDSI_GUID_V2 - 1), 0);
	assert_int_equal(sdsi_guid_layout(0), 0);
	/* The early driver's reading: anything but V2 is V1. */
	assert_int_equal(sdsi_guid_layout_or_v1(SDSI_GUID_V2), 2);
	assert_int_equal(sdsi_guid_layout_or_v1(SDSI_GUID_V1), 1);
	assert_int_equal(sdsi_guid_layout_or_v1(0x12345678u), 1);
}

static void layout_sizes(void **state)
{
	(void)state;
	assert_int_equal(sdsi_layout_ctrl_size(1), 8);
	assert_int_equal(sdsi_layout_ctrl_size(2), 16);
	assert_int_equal(sdsi_layout_regs_size(1), 72);
	assert_int_equal(sdsi_layout_regs_size(2), 80);
	assert_int_equal(sdsi_layout_regs_offset(1), 8 + 1024);
	assert_int_equal(sdsi_layout_regs_offset(2), 16 + 1024);
	/* What no GUID names falls back to V1, never to a size of 0. */
	assert_int_equal(sdsi_layout_ctrl_size(0), 8);
	assert_int_equal(sdsi_layout_regs_size(3), 72);
}

static void le_byte_order(void **state)
{
	static const uint8_t want[8] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	uint8_t buf[10];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	sdsi_put_le64(buf + 1, 0x0102030405060708ull);
	assert_memory_equal(buf + 1, want, sizeof(want));
	/* Exactly eight bytes written: the neighbours keep their canary. */
	assert_int_equal(buf[0], 0xee);
	assert_int_equal(buf[9], 0xee);
	assert_true(sdsi_le64(buf + 1) == 0x0102030405060708ull);
	assert_int_equal(sdsi_le32(buf + 1), 0x05060708u);
	assert_int_equal(sdsi_le32(buf + 5), 0x01020304u);

	memset(buf, 0xee, sizeof(buf));
	sdsi_put_le32(buf + 1, 0xa1b2c3d4u);
	assert_int_equal(buf[1], 0xd4);
	assert_int_equal(buf[4], 0xa1);
	assert_int_equal(buf[0], 0xee);
	assert_int_equal(buf[5], 0xee);
	/* "MTDB" is stored as 42 44 54 4D. */
	sdsi_put_le32(buf, SDSI_METER_SIGNATURE);
	assert_memory_equal(buf, "BDTM", 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guid_picks_layout),
		cmocka_unit_test(layout_sizes),
		cmocka_unit_test(le_byte_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
