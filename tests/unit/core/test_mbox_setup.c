// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core, binding to a device: GUID handling of both flavours, parameter
 * checks, the register file copy and the in-band lock.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core_rig.h"
#include "util/util_array.h"

#define UNKNOWN_GUID	0x12345678u

static void test_default_params_are_linux_timings(void **state)
{
	struct sdsi_mbox_params p;

	memset(&p, 0xa5, sizeof(p));
	sdsi_mbox_default_params(&p);
	assert_int_equal(p.poll_us, 100);
	assert_int_equal(p.acquire_timeout_us, 1000);
	assert_int_equal(p.acquire_retries, 5);
	assert_int_equal(p.acquire_retry_delay_ms, 500);
	assert_int_equal(p.rdy_timeout_us, 500000);
	assert_int_equal(p.flavor, SDSI_ABI_CURRENT);
}

static void assert_layout(const struct sdsi_mbox *mb, uint32_t guid,
			  uint32_t mbox_off, uint32_t regs_size)
{
	assert_int_equal(mb->guid, guid);
	assert_int_equal(mb->control_off, 0);
	assert_int_equal(mb->mbox_off, mbox_off);
	assert_int_equal(mb->regs_off, mbox_off + SDSI_MBOX_SIZE);
	assert_int_equal(mb->regs_size, regs_size);
}

static int init_flavor(struct sdsi_mbox *mb, uint32_t guid,
		       enum sdsi_abi flavor)
{
	struct sdsi_mbox_params p;

	sdsi_mbox_default_params(&p);
	p.flavor = flavor;
	return sdsi_mbox_init(mb, guid, &rig_ops, NULL, &p);
}

static void test_current_knows_two_layouts(void **state)
{
	struct sdsi_mbox mb;

	assert_int_equal(init_flavor(&mb, SDSI_GUID_V1, SDSI_ABI_CURRENT), 0);
	assert_layout(&mb, SDSI_GUID_V1, 8, 72);
	assert_int_equal(init_flavor(&mb, SDSI_GUID_V2, SDSI_ABI_CURRENT), 0);
	assert_layout(&mb, SDSI_GUID_V2, 16, 80);
	assert_ptr_equal(mb.ops, &rig_ops);
	assert_int_equal(mb.params.flavor, SDSI_ABI_CURRENT);
}

static void test_current_refuses_unknown_guid_untouched(void **state)
{
	struct sdsi_mbox mb, before;

	memset(&mb, 0x5a, sizeof(mb));
	before = mb;
	assert_int_equal(init_flavor(&mb, UNKNOWN_GUID, SDSI_ABI_CURRENT),
			 -ENODEV);
	assert_int_equal(init_flavor(&mb, 0, SDSI_ABI_CURRENT), -ENODEV);
	assert_memory_equal(&mb, &before, sizeof(mb));
}

static void test_early_uses_v1_layout_for_any_guid(void **state)
{
	static const uint32_t guids[] = {
		SDSI_GUID_V1, SDSI_GUID_V2, UNKNOWN_GUID, 0
	};
	struct sdsi_mbox mb;
	size_t i;

	for (i = 0; i < UTIL_ARRAY_SIZE(guids); i++) {
		assert_int_equal(init_flavor(&mb, guids[i], SDSI_ABI_EARLY),
				 0);
		assert_layout(&mb, guids[i], 8, 72);
		assert_int_equal(mb.params.flavor, SDSI_ABI_EARLY);
	}
}

static void test_null_params_select_defaults(void **state)
{
	struct sdsi_mbox mb;

	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &rig_ops, NULL,
					NULL), 0);
	assert_int_equal(mb.params.poll_us, 100);
	assert_int_equal(mb.params.rdy_timeout_us, 500000);
	assert_int_equal(mb.params.flavor, SDSI_ABI_CURRENT);
}

static void test_init_rejects_bad_arguments(void **state)
{
	struct sdsi_mbox_ops no_clock = rig_ops;
	struct sdsi_mbox_params p;
	struct sdsi_mbox mb;

	no_clock.now_us = NULL;
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, NULL, NULL, NULL),
			 -EINVAL);
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &no_clock, NULL,
					NULL), -EINVAL);

	sdsi_mbox_default_params(&p);
	p.poll_us = 0;
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &rig_ops, NULL,
					&p), -EINVAL);

	sdsi_mbox_default_params(&p);
	p.acquire_retry_delay_ms = 4294968;	/* its microseconds overflow */
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &rig_ops, NULL,
					&p), -EINVAL);
	p.acquire_retry_delay_ms = 4294967;
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &rig_ops, NULL,
					&p), 0);

	sdsi_mbox_default_params(&p);
	p.flavor = (enum sdsi_abi)7;
	assert_int_equal(sdsi_mbox_init(&mb, SDSI_GUID_V1, &rig_ops, NULL,
					&p), -EINVAL);
}

/* The copy must be the model's register file, qword for qword, no more. */
static void assert_registers_copied(struct core_rig *rig, size_t size)
{
	uint64_t qword;
	size_t off;

	memset(rig->buf, 0xee, sizeof(rig->buf));
	rig_clear_log(rig);
	sdsi_mbox_read_registers(&rig->mb, rig->buf);

	assert_int_equal(rig->log.mmio_accesses, size / 8);
	for (off = 0; off < size; off += 8) {
		memcpy(&qword, rig->buf + off, 8);
		assert_int_equal(qword, rig_register(rig, (uint32_t)off));
	}
	for (off = size; off < size + 8; off++)
		assert_int_equal(rig->buf[off], 0xee);

	memcpy(&qword, rig->buf + SDSI_REG_PPIN, 8);
	assert_int_equal(qword, RIG_PPIN);
	memcpy(&qword, rig->buf + SDSI_REG_FEATURES, 8);
	assert_int_equal(qword, SDSI_MODEL_DEFAULT_FEATURES);
	memcpy(&qword, rig->buf + SDSI_REG_SOCKET_ID, 8);
	assert_int_equal(qword & SDSI_SOCKET_ID_MASK, RIG_SOCKET_ID);
}

static void test_registers_v1(void **state)
{
	assert_registers_copied(*state, SDSI_REGS_SIZE_V1);
}

static void test_registers_v2(void **state)
{
	assert_registers_copied(*state, SDSI_REGS_SIZE_V2);
}

static void test_iblocked_follows_control_bit_32(void **state)
{
	struct core_rig *rig = *state;

	assert_false(sdsi_mbox_iblocked(&rig->mb));
	sdsi_model_set_iblock(rig->model, true);
	assert_true(rig_ctrl(rig) & SDSI_CTRL_IBLOCK);
	assert_true(sdsi_mbox_iblocked(&rig->mb));
	sdsi_model_set_iblock(rig->model, false);
	assert_false(sdsi_mbox_iblocked(&rig->mb));
}

static void test_iblocked_early_never_looks(void **state)
{
	struct core_rig *rig = *state;

	sdsi_model_set_iblock(rig->model, true);
	rig_clear_log(rig);
	assert_false(sdsi_mbox_iblocked(&rig->mb));
	assert_int_equal(rig->log.mmio_accesses, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_params_are_linux_timings),
		cmocka_unit_test(test_current_knows_two_layouts),
		cmocka_unit_test(test_current_refuses_unknown_guid_untouched),
		cmocka_unit_test(test_early_uses_v1_layout_for_any_guid),
		cmocka_unit_test(test_null_params_select_defaults),
		cmocka_unit_test(test_init_rejects_bad_arguments),
		cmocka_unit_test_setup_teardown(test_registers_v1,
						rig_setup_v1, rig_teardown),
		cmocka_unit_test_setup_teardown(test_registers_v2,
						rig_setup_v2, rig_teardown),
		cmocka_unit_test_setup_teardown(
			test_iblocked_follows_control_bit_32,
			rig_setup_v2, rig_teardown),
		cmocka_unit_test_setup_teardown(
			test_iblocked_follows_control_bit_32,
			rig_setup_v1, rig_teardown),
		cmocka_unit_test_setup_teardown(test_iblocked_early_never_looks,
						rig_setup_v1_early,
						rig_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
