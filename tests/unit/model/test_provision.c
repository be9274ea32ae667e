// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROVISION_AKC / PROVISION_CAP: refusal of blobs the part cannot
 * authenticate, the failure counters and thresholds, updates available,
 * NVRAM wear, and what a power cycle resets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "model/model_priv.h"

static void test_defaults(void **state)
{
	struct tsock *ts = *state;
	uint64_t fail = reg_read(ts, SDSI_REG_FAIL_COUNT);
	uint64_t avail = reg_read(ts, SDSI_REG_AVAILABILITY);

	assert_int_equal(fail, (uint64_t)SDSI_MODEL_DEFAULT_AKC_THRESH << 3 |
				(uint64_t)SDSI_MODEL_DEFAULT_CAP_THRESH << 9);
	assert_int_equal(avail,
			 (uint64_t)SDSI_MODEL_DEFAULT_UPDATES << 48 |
			 (uint64_t)SDSI_MODEL_DEFAULT_UPDATES << 51);
	assert_int_equal(reg_read(ts, SDSI_REG_AUTH_ERR), 0);
	assert_int_equal(reg_read(ts, SDSI_REG_KEY_PROV), 0);
	assert_int_equal(reg_read(ts, SDSI_REG_NVRAM_LIMITS), 0);
}

static void test_akc_and_cap_refused_and_counted(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "key", 3, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), 1);
	assert_int_equal(cap_failures(ts), 0);
	assert_int_equal(reg_read(ts, SDSI_REG_AUTH_ERR),
			 SDSI_AUTH_ERR_CONTENT);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, "licence", 7,
				  true), -EIO);
	assert_int_equal(cap_failures(ts), 1);
	/* A failure uses no update and writes nothing. */
	assert_int_equal(updates_available(ts), SDSI_MODEL_DEFAULT_UPDATES);
	assert_int_equal(reg_read(ts, SDSI_REG_KEY_PROV), 0);
}

static void test_threshold_refuses_without_counting(void **state)
{
	struct tsock *ts = *state;
	unsigned int i;

	for (i = 0; i < SDSI_MODEL_DEFAULT_AKC_THRESH; i++)
		assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1,
					  true), -EIO);
	assert_int_equal(akc_failures(ts), SDSI_MODEL_DEFAULT_AKC_THRESH);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), SDSI_MODEL_DEFAULT_AKC_THRESH);
	/* The CAP counter is separate. */
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, "c", 1, true),
			 -EIO);
	assert_int_equal(cap_failures(ts), 1);
}

static void test_threshold_seven_saturates_field(void **state)
{
	struct tsock ts;
	struct sdsi_model_config cfg;
	unsigned int i;

	tsock_config(&ts, &cfg, SDSI_GUID_V1);
	cfg.cap_fail_threshold = 7;
	tsock_open(&ts, &cfg);
	for (i = 0; i < 9; i++)
		assert_int_equal(lx_write(&ts, SDSI_CMD_PROVISION_CAP, "c", 1,
					  true), -EIO);
	assert_int_equal(cap_failures(&ts), 7);
	assert_int_equal(reg_read(&ts, SDSI_REG_FAIL_COUNT) >> 9 & 7, 7);
	tsock_close(&ts);
}

static void test_bad_thresholds_rejected(void **state)
{
	struct tsock ts;
	struct sdsi_model_config cfg;

	tsock_config(&ts, &cfg, SDSI_GUID_V1);
	cfg.updates_threshold = 8;
	tsock_expect_refused(&cfg, -EINVAL, "updates threshold 8");
	cfg.updates_threshold = 0;
	cfg.socket_id = 16;
	tsock_expect_refused(&cfg, -EINVAL, "socket ID 16");
}

static void test_no_update_left_refuses_without_counting(void **state)
{
	struct tsock *ts = *state;

	/* No blob authenticates yet, so spend the updates directly. */
	ts->m->updates_available = 0;
	assert_int_equal(updates_available(ts), 0);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), 0);
	assert_int_equal(reg_read(ts, SDSI_REG_AUTH_ERR), 0);
}

static void test_power_cycle_resets_volatile_state(void **state)
{
	struct tsock *ts = *state;
	static const uint8_t key[MODEL_PUBKEY_SIZE] = { 1, 2, 3 };

	assert_int_equal(nvram_install_key(ts->m, 5, key), 0);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true),
			 -EIO);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, "c", 1, true),
			 -EIO);
	ts->m->updates_available = 1;
	/* Leave the mailbox owned, as a crashed driver would. */
	mbox_write(ts, 0, SDSI_CMD_READ_STATE);
	assert_int_equal(ctrl_owner(ctrl_read(ts)), SDSI_OWNER_INBAND);

	assert_int_equal(sdsi_model_power_cycle(ts->m), 0);
	assert_int_equal(ctrl_read(ts), 0);
	assert_int_equal(akc_failures(ts), 0);
	assert_int_equal(cap_failures(ts), 0);
	assert_int_equal(updates_available(ts), SDSI_MODEL_DEFAULT_UPDATES);
	assert_int_equal(reg_read(ts, SDSI_REG_AUTH_ERR), 0);
	/* NVRAM survives. */
	assert_int_equal(reg_read(ts, SDSI_REG_KEY_PROV), SDSI_KEY_PROVISIONED);
	assert_int_equal(ts->m->nv.wear, 1);
}

static void test_nvram_wear_bits(void **state)
{
	static const uint8_t key[MODEL_PUBKEY_SIZE];
	/* Endurance 10: 50 % at 5 writes, 75 % at 8, 90 % at 9. */
	static const uint64_t expect[] = {
		0, 0, 0, 0, 0,
		SDSI_NVRAM_50_PCT, SDSI_NVRAM_50_PCT, SDSI_NVRAM_50_PCT,
		SDSI_NVRAM_50_PCT | SDSI_NVRAM_75_PCT,
		SDSI_NVRAM_50_PCT | SDSI_NVRAM_75_PCT | SDSI_NVRAM_90_PCT,
	};
	struct sdsi_model_config cfg;
	struct tsock ts;
	unsigned int writes;

	tsock_config(&ts, &cfg, SDSI_GUID_V2);
	cfg.nvram_endurance = 10;
	tsock_open(&ts, &cfg);
	for (writes = 0; writes < 10; writes++) {
		assert_int_equal(reg_read(&ts, SDSI_REG_NVRAM_LIMITS),
				 expect[writes]);
		assert_int_equal(nvram_install_key(ts.m, writes, key), 0);
	}
	assert_int_equal(reg_read(&ts, SDSI_REG_NVRAM_LIMITS),
			 SDSI_NVRAM_50_PCT | SDSI_NVRAM_75_PCT |
			 SDSI_NVRAM_90_PCT);
	tsock_close(&ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, tsock_setup_v2, tsock_teardown)
		T(test_defaults),
		T(test_akc_and_cap_refused_and_counted),
		T(test_threshold_refuses_without_counting),
		T(test_no_update_left_refuses_without_counting),
		T(test_power_cycle_resets_volatile_state),
#undef T
		cmocka_unit_test(test_threshold_seven_saturates_field),
		cmocka_unit_test(test_bad_thresholds_rejected),
		cmocka_unit_test(test_nvram_wear_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
