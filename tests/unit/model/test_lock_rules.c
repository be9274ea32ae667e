// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's lock rule, asserted: its internals (model_priv.h) run only
 * under m->lock.  Called without it, each checked one reports; the public
 * entry points take the lock themselves and report nothing, a whole
 * transaction and a power cycle included.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "tests/unit/lock/lock_violations.h"
#include "model/model_priv.h"

/* The call reports, first of all (callees may report too) for itself. */
#define EXPECT_REPORT(fn, ...)	do {					\
		lock_violations_count();				\
		fn(__VA_ARGS__);					\
		assert_true(lock_violations >= 1);			\
		assert_non_null(strstr(lock_first_violation, #fn "() called without holding &m->lock")); \
	} while (0)

static int setup(void **state)
{
	lock_violations_count();
	return tsock_setup_v2(state);
}

static int teardown(void **state)
{
	int ret = tsock_teardown(state);

	sdsi_lock_set_violation_hook(NULL);
	return ret;
}

/* Each internal that changes or reads live state, called unlocked. */
static void test_internals_unlocked_report(void **state)
{
	struct tsock *ts = *state;
	struct sdsi_model *m = ts->m;

	if (!SDSI_LOCK_ASSERTS)
		skip();
	assert_int_equal(lock_violations, 0);	/* create took the lock */
	EXPECT_REPORT(fault_take, m, SDSI_FAULT_NO_RDY, NULL);
	EXPECT_REPORT(fault_armed, m, SDSI_FAULT_NO_RDY);
	EXPECT_REPORT(mailbox_read, m, 0);
	EXPECT_REPORT(mailbox_read_control, m, model_now(m));
	EXPECT_REPORT(mailbox_write_control, m, 0, model_now(m));
	EXPECT_REPORT(mailbox_write, m, 1, 0, model_now(m));
	EXPECT_REPORT(mailbox_reset, m);
	EXPECT_REPORT(meter_tick, m, model_now(m));
	EXPECT_REPORT(meter_sync, m, model_now(m));
	EXPECT_REPORT(meter_power_on, m, model_now(m));
	EXPECT_REPORT(nvram_save_meters, m);
	EXPECT_REPORT(provision_execute, m, 0, NULL, 0);
}

static void test_internals_locked_are_quiet(void **state)
{
	struct tsock *ts = *state;
	struct sdsi_model *m = ts->m;

	sdsi_lock_take(&m->lock);
	fault_take(m, SDSI_FAULT_NO_RDY, NULL);
	mailbox_read(m, 0);
	mailbox_read_control(m, model_now(m));
	meter_tick(m, model_now(m));
	nvram_save_meters(m);
	sdsi_lock_release(&m->lock);
	assert_int_equal(lock_violations, 0);
}

static void test_entry_points_are_quiet(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_int_equal(sdsi_model_power_cycle(ts->m), 0);
	sdsi_model_set_features(ts->m, SDSI_FEATURE_ON_DEMAND);
	sdsi_model_set_iblock(ts->m, false);
	assert_int_equal(sdsi_model_fault_set(ts->m, SDSI_FAULT_RDY_LATENCY, 1, 1), 0);
	sdsi_model_fault_clear_all(ts->m);
	assert_int_equal(lock_violations, 0);
}

struct holder {
	struct sdsi_model *m;
	pthread_barrier_t taken, checked;
};

static void *hold_model_lock(void *arg)
{
	struct holder *h = arg;

	sdsi_lock_take(&h->m->lock);
	pthread_barrier_wait(&h->taken);
	pthread_barrier_wait(&h->checked);
	sdsi_lock_release(&h->m->lock);
	return NULL;
}

/* The lock taken by another thread is not the caller holding it. */
static void test_lock_of_another_thread_reports(void **state)
{
	struct tsock *ts = *state;
	struct holder h = { .m = ts->m };
	pthread_t t;

	if (!SDSI_LOCK_ASSERTS)
		skip();
	pthread_barrier_init(&h.taken, NULL, 2);
	pthread_barrier_init(&h.checked, NULL, 2);
	assert_int_equal(pthread_create(&t, NULL, hold_model_lock, &h), 0);
	pthread_barrier_wait(&h.taken);
	/* fault_armed only reads, so calling it here races with nobody */
	fault_armed(ts->m, SDSI_FAULT_OOB_OWNER);
	assert_int_equal(lock_violations, 1);
	pthread_barrier_wait(&h.checked);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_barrier_destroy(&h.taken);
	pthread_barrier_destroy(&h.checked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_internals_unlocked_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_internals_locked_are_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_points_are_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_of_another_thread_reports, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
