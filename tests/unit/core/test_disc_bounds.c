// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core, the discovery table's bounds (drivers/core/sdsi_disc.c):
 * each on both sides, exactly fitting and one byte, dword or BAR too far;
 * and the fields decoded from the table the hardware model writes.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sdsi/hw.h>

#include "drivers/core/sdsi_disc.h"
#include "model/sdsi_model.h"

/* The register file's end, from the layouts of docs/interface.md §2.2. */
#define END_V1		(8u + 1024u + 72u)
#define END_V2		(16u + 1024u + 80u)

static struct sdsi_disc entry(uint32_t access, uint32_t bytes, uint32_t tbir,
			      uint32_t offset)
{
	struct sdsi_disc d = {
		.access = access, .size_dwords = bytes / 4, .tbir = tbir,
		.offset = offset,
	};

	return d;
}

static void test_region_end_is_the_register_file_end(void **state)
{
	(void)state;
	assert_int_equal(sdsi_layout_region_end(1), END_V1);
	assert_int_equal(sdsi_layout_region_end(2), END_V2);
	assert_int_equal(END_V1, 1104);
	assert_int_equal(END_V2, 1120);
}

static void test_resource_of_12_bytes_fits_11_does_not(void **state)
{
	(void)state;
	assert_int_equal(SDSI_DISC_TABLE_BYTES, 12);
	assert_int_equal(sdsi_disc_check_resource(12), SDSI_DISC_OK);
	assert_int_equal(sdsi_disc_check_resource(SDSI_DISC_BYTES), SDSI_DISC_OK);
	assert_int_equal(sdsi_disc_check_resource(11), SDSI_DISC_SHORT_RESOURCE);
	assert_int_equal(sdsi_disc_check_resource(0), SDSI_DISC_SHORT_RESOURCE);
}

/* Size exactly the region's end is enough; one dword less is not. */
static void test_size_reaches_region_end(void **state)
{
	struct sdsi_disc d;
	unsigned int layout;

	(void)state;
	for (layout = 1; layout <= 2; layout++) {
		uint32_t end = sdsi_layout_region_end(layout);

		d = entry(SDSI_DISC_ACCESS_LOCAL, end, 0, 0);
		assert_int_equal(sdsi_disc_check_table(&d, layout), SDSI_DISC_OK);
		d = entry(SDSI_DISC_ACCESS_LOCAL, end - 4, 0, 0);
		assert_int_equal(sdsi_disc_check_table(&d, layout),
				 SDSI_DISC_SHORT_REGION);
		d = entry(SDSI_DISC_ACCESS_BARID, end - 4, 0, 0);
		assert_int_equal(sdsi_disc_check_table(&d, layout),
				 SDSI_DISC_SHORT_REGION);
		d = entry(SDSI_DISC_ACCESS_LOCAL, 0, 0, 0);
		assert_int_equal(sdsi_disc_check_table(&d, layout),
				 SDSI_DISC_SHORT_REGION);
	}
	/* A region of V1's size is 16 bytes short of V2's. */
	d = entry(SDSI_DISC_ACCESS_LOCAL, END_V1, 0, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_SHORT_REGION);
	/* The largest size the 16-bit field holds. */
	d = entry(SDSI_DISC_ACCESS_LOCAL, SDSI_DISC_SIZE_MASK * 4u, 0, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_OK);
}

static void test_bar_5_accepted_6_and_7_refused(void **state)
{
	struct sdsi_disc d;

	(void)state;
	d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 5, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_OK);
	d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 0, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_OK);
	d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 6, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_BAR_INDEX);
	d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 7, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_BAR_INDEX);
	/* A short size is reported first, whatever the BAR. */
	d = entry(SDSI_DISC_ACCESS_BARID, END_V2 - 4, 7, 0);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_SHORT_REGION);
}

static void test_bar_must_be_memory(void **state)
{
	struct sdsi_disc d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 0, 0);

	(void)state;
	assert_int_equal(sdsi_disc_check_bar(&d, true, END_V2), SDSI_DISC_OK);
	assert_int_equal(sdsi_disc_check_bar(&d, false, END_V2),
			 SDSI_DISC_BAR_NOT_MEM);
	assert_int_equal(sdsi_disc_check_bar(&d, false, 1ull << 40),
			 SDSI_DISC_BAR_NOT_MEM);
}

/* offset + size exactly the BAR's length fits; one byte more does not. */
static void test_region_fits_in_bar(void **state)
{
	struct sdsi_disc d = entry(SDSI_DISC_ACCESS_BARID, END_V2, 1, 0x2000);

	(void)state;
	assert_int_equal(sdsi_disc_check_bar(&d, true, 0x2000 + END_V2),
			 SDSI_DISC_OK);
	assert_int_equal(sdsi_disc_check_bar(&d, true, 0x2000 + END_V2 - 1),
			 SDSI_DISC_BAR_OVERRUN);
	/* A BAR the kernel left unassigned has length 0. */
	assert_int_equal(sdsi_disc_check_bar(&d, true, 0),
			 SDSI_DISC_BAR_OVERRUN);
	/* The largest offset and size: the sum needs 64 bits. */
	d = entry(SDSI_DISC_ACCESS_BARID, SDSI_DISC_SIZE_MASK * 4u, 1,
		  SDSI_DISC_OFFSET_MASK);
	assert_int_equal(sdsi_disc_check_bar(&d, true, 0xffffffffull),
			 SDSI_DISC_BAR_OVERRUN);
	assert_int_equal(sdsi_disc_check_bar(&d, true,
					     (uint64_t)SDSI_DISC_OFFSET_MASK +
					     SDSI_DISC_SIZE_MASK * 4u),
			 SDSI_DISC_OK);
}

/* The fields of the table the model writes, and of one with every bit set. */
static void test_decode(void **state)
{
	const struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2, .ppin = 0x1234,
	};
	struct sdsi_model *m = NULL;
	char err[256] = "";
	struct sdsi_disc d;
	uint32_t table[4];
	const uint32_t ones[SDSI_DISC_DWORDS] = { ~0u, ~0u, ~0u };

	(void)state;
	if (sdsi_model_create(&cfg, &m, err, sizeof(err)))
		fail_msg("sdsi_model_create: %s", err);
	sdsi_model_discovery(m, 0x1000, table);
	sdsi_disc_decode(&d, table);
	assert_int_equal(d.access, SDSI_DISC_ACCESS_LOCAL);
	assert_int_equal(sdsi_disc_region_bytes(&d), END_V2);
	assert_int_equal(d.tbir, 0);
	assert_int_equal(d.offset, 0x1000);
	assert_int_equal(sdsi_disc_check_table(&d, 2), SDSI_DISC_OK);
	sdsi_model_destroy(m);

	sdsi_disc_decode(&d, ones);
	assert_int_equal(d.access, 0xf);
	assert_int_equal(d.size_dwords, 0xffff);
	assert_int_equal(d.tbir, 7);
	assert_int_equal(d.offset, 0xfffffff8u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_end_is_the_register_file_end),
		cmocka_unit_test(test_resource_of_12_bytes_fits_11_does_not),
		cmocka_unit_test(test_size_reaches_region_end),
		cmocka_unit_test(test_bar_5_accepted_6_and_7_refused),
		cmocka_unit_test(test_bar_must_be_memory),
		cmocka_unit_test(test_region_fits_in_bar),
		cmocka_unit_test(test_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
