// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's lock: a driver thread running transactions while a control
 * thread changes BIOS settings, arms harmless faults and reads registers, as
 * the FUSE and control-socket threads of sdsi-emu do.  Run under ASan (and
 * TSan, where available) this is what catches a missing lock.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"

#define ROUNDS	2000

struct shared {
	struct tsock driver;
	struct tsock control;
	volatile int done;
	int bad_results;
};

static void *driver_thread(void *arg)
{
	struct shared *s = arg;
	uint8_t buf[SDSI_READ_MSG_MAX];
	unsigned int i;
	size_t len;

	for (i = 0; i < ROUNDS; i++) {
		if (lx_read(&s->driver, SDSI_CMD_READ_STATE, false, buf, &len) ||
		    len != 80 || buf[0x0c] != 80)
			s->bad_results++;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *control_thread(void *arg)
{
	struct shared *s = arg;
	unsigned int i = 0;

	while (!__atomic_load_n(&s->done, __ATOMIC_SEQ_CST)) {
		sdsi_model_set_features(s->control.m, SDSI_FEATURE_ON_DEMAND |
					(i & 1 ? SDSI_FEATURE_METERING : 0));
		sdsi_model_set_iblock(s->control.m, i & 2);
		sdsi_model_fault_set(s->control.m, SDSI_FAULT_RDY_LATENCY, 0, 1);
		if (!(reg_read(&s->control, SDSI_REG_FEATURES) &
		      SDSI_FEATURE_ON_DEMAND))
			s->bad_results++;
		sdsi_model_fault_clear_all(s->control.m);
		i++;
	}
	return NULL;
}

static void test_driver_and_control_threads(void **state)
{
	struct sdsi_model_config cfg;
	struct shared s;
	pthread_t a, b;

	memset(&s, 0, sizeof(s));
	tsock_config(&s.driver, &cfg, SDSI_GUID_V2);
	cfg.clock = NULL;	/* the real clock: a shared virtual one would race */
	tsock_open(&s.driver, &cfg);
	s.control = s.driver;
	assert_int_equal(pthread_create(&a, NULL, driver_thread, &s), 0);
	assert_int_equal(pthread_create(&b, NULL, control_thread, &s), 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert_int_equal(s.bad_results, 0);
	assert_int_equal(ctrl_read(&s.driver) & ~SDSI_CTRL_IBLOCK, 0);
	tsock_close(&s.driver);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_and_control_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
