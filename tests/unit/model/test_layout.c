// SPDX-License-Identifier: GPL-2.0-only
/*
 * MMIO layouts of both GUIDs, the register file, the discovery table and
 * accesses no register decodes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"

static void open_socket(struct tsock *ts, uint32_t guid)
{
	struct sdsi_model_config cfg;

	tsock_config(ts, &cfg, guid);
	cfg.socket_id = 0xb;
	tsock_open(ts, &cfg);
}

static void test_v1_layout(void **state)
{
	struct tsock ts;
	uint32_t regs = SDSI_CTRL_SIZE_V1 + SDSI_MBOX_SIZE;

	open_socket(&ts, SDSI_GUID_V1);
	assert_int_equal(sdsi_model_guid(ts.m), SDSI_GUID_V1);
	assert_int_equal(sdsi_model_mmio_size(ts.m), 8 + 1024 + 72);
	/* PPIN at byte 0x408, socket ID at 0x448 (register file 0x40). */
	assert_int_equal(sdsi_model_read64(ts.m, 0x408), 0x0123456789abcdefull);
	assert_int_equal(sdsi_model_read64(ts.m, 0x448), 0xb);
	assert_int_equal(sdsi_model_read64(ts.m, regs + SDSI_REG_CAPID1),
			 0x8877665544332211ull);
	assert_int_equal(sdsi_model_read64(ts.m, regs + SDSI_REG_FEATURES),
			 SDSI_MODEL_DEFAULT_FEATURES);
	/* The mailbox starts right after the 8-byte control register. */
	mbox_write(&ts, 0, 0x77);
	assert_int_equal(sdsi_model_read64(ts.m, 8), 0x77);
	tsock_close(&ts);
}

static void test_v2_layout(void **state)
{
	struct tsock ts;

	open_socket(&ts, SDSI_GUID_V2);
	assert_int_equal(sdsi_model_mmio_size(ts.m), 16 + 1024 + 80);
	assert_int_equal(sdsi_model_read64(ts.m, 0x410), 0x0123456789abcdefull);
	/* CAPID1 is 4 bytes on V2, then 4 reserved. */
	assert_int_equal(reg_read(&ts, SDSI_REG_CAPID1), 0x44332211ull);
	/* Socket ID where Intel's corrected layout and the upstream tool read. */
	assert_int_equal(reg_read(&ts, SDSI_REG_SOCKET_ID), 0xb);
	assert_int_equal(reg_read(&ts, SDSI_REG_SOCKET_ID_V2_TOOL), 0xb);
	/* Control qword 1: the metering update period, read-only. */
	assert_int_equal(sdsi_model_read64(ts.m, 8), SDSI_MODEL_METER_PERIOD);
	sdsi_model_write64(ts.m, 8, 0);
	assert_int_equal(sdsi_model_read64(ts.m, 8), SDSI_MODEL_METER_PERIOD);
	mbox_write(&ts, 0, 0x77);
	assert_int_equal(sdsi_model_read64(ts.m, 16), 0x77);
	tsock_close(&ts);
}

static void test_unknown_guid_gets_v1_layout(void **state)
{
	struct tsock ts;

	open_socket(&ts, 0x12345678);
	assert_int_equal(sdsi_model_guid(ts.m), 0x12345678);
	assert_int_equal(sdsi_model_mmio_size(ts.m), 8 + 1024 + 72);
	tsock_close(&ts);
}

static void test_register_fields(void **state)
{
	struct tsock ts;
	struct sdsi_model_config cfg;

	tsock_config(&ts, &cfg, SDSI_GUID_V2);
	cfg.features = ~0ull;
	cfg.akc_fail_threshold = 5;
	cfg.cap_fail_threshold = 6;
	cfg.updates_threshold = 2;
	tsock_open(&ts, &cfg);
	assert_int_equal(reg_read(&ts, SDSI_REG_FEATURES),
			 SDSI_FEATURES_SETTABLE);
	assert_int_equal(reg_read(&ts, SDSI_REG_FAIL_COUNT),
			 5ull << 3 | 6ull << 9);
	assert_int_equal(reg_read(&ts, SDSI_REG_AVAILABILITY),
			 2ull << 48 | 2ull << 51);
	tsock_close(&ts);
}

static void test_unclaimed_accesses(void **state)
{
	struct tsock ts;
	uint32_t size;

	open_socket(&ts, SDSI_GUID_V1);
	size = sdsi_model_mmio_size(ts.m);
	assert_int_equal(sdsi_model_read64(ts.m, size), ~0ull);
	assert_int_equal(sdsi_model_read64(ts.m, 4), ~0ull);
	/* Misaligned or out-of-range writes change nothing. */
	sdsi_model_write64(ts.m, 12, ~0ull);
	sdsi_model_write64(ts.m, size, ~0ull);
	assert_int_equal(ctrl_read(&ts), 0);
	assert_int_equal(mbox_read(&ts, 0), 0);
	tsock_close(&ts);
}

/* The first two dwords of a discovery table: access, type, size, GUID. */
static void assert_table_header(const uint32_t *table, uint32_t access,
				uint32_t size_dwords, uint32_t guid)
{
	assert_int_equal(table[0] & SDSI_DISC_ACCESS_MASK, access);
	assert_int_equal(table[0] >> SDSI_DISC_TYPE_SHIFT & SDSI_DISC_TYPE_MASK,
			 SDSI_DISC_TYPE);
	assert_int_equal(table[0] >> SDSI_DISC_SIZE_SHIFT & SDSI_DISC_SIZE_MASK,
			 size_dwords);
	assert_int_equal(table[1], guid);
}

static void test_discovery_table(void **state)
{
	struct tsock ts;
	uint32_t table[4];

	open_socket(&ts, SDSI_GUID_V1);
	sdsi_model_discovery(ts.m, 0x20, table);
	/* 276 dwords: Linux's SDSI_MIN_SIZE_DWORDS for V1. */
	assert_table_header(table, SDSI_DISC_ACCESS_LOCAL, 276, SDSI_GUID_V1);
	assert_int_equal(table[2] & SDSI_DISC_TBIR_MASK, 0);
	assert_int_equal(table[2], 0x20);
	assert_int_equal(table[3], 0);
	tsock_close(&ts);

	open_socket(&ts, SDSI_GUID_V2);
	sdsi_model_discovery(ts.m, 0, table);
	assert_table_header(table, SDSI_DISC_ACCESS_LOCAL, 280, SDSI_GUID_V2);
	assert_int_equal(table[2], 0);
	tsock_close(&ts);
}

/* BARID: TBIR in bits 2:0, the BAR offset above; 0 and 5 both kept. */
static void test_discovery_table_barid(void **state)
{
	struct tsock ts;
	uint32_t table[4];

	open_socket(&ts, SDSI_GUID_V2);
	sdsi_model_discovery_barid(ts.m, 5, 0x3000, table);
	assert_table_header(table, SDSI_DISC_ACCESS_BARID, 280, SDSI_GUID_V2);
	assert_int_equal(table[2] & SDSI_DISC_TBIR_MASK, 5);
	assert_int_equal(table[2] & SDSI_DISC_OFFSET_MASK, 0x3000);
	assert_int_equal(table[3], 0);
	sdsi_model_discovery_barid(ts.m, 0, 0x1000, table);
	assert_int_equal(table[2], 0x1000);
	tsock_close(&ts);
}

static void test_generated_ppin(void **state)
{
	struct tsock a, b;
	struct sdsi_model_config cfg;

	tsock_config(&a, &cfg, SDSI_GUID_V1);
	cfg.ppin = 0;
	tsock_open(&a, &cfg);
	tsock_config(&b, &cfg, SDSI_GUID_V1);
	cfg.ppin = 0;
	tsock_open(&b, &cfg);
	assert_int_not_equal(reg_read(&a, SDSI_REG_PPIN), 0);
	assert_int_not_equal(reg_read(&a, SDSI_REG_PPIN),
			     reg_read(&b, SDSI_REG_PPIN));
	tsock_close(&a);
	tsock_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_layout),
		cmocka_unit_test(test_v2_layout),
		cmocka_unit_test(test_unknown_guid_gets_v1_layout),
		cmocka_unit_test(test_register_fields),
		cmocka_unit_test(test_unclaimed_accesses),
		cmocka_unit_test(test_discovery_table),
		cmocka_unit_test(test_discovery_table_barid),
		cmocka_unit_test(test_generated_ppin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
