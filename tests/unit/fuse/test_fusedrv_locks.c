// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FUSE driver's lock rule, asserted: the binding state is read under
 * either socket lock.  fusedrv_attr_visible() called with neither reports;
 * with either one it does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "drivers/fuse/fusedrv_internal.h"
#include "tests/unit/lock/lock_violations.h"

static void test_attr_visible_needs_a_socket_lock(void **state)
{
	struct sdsi_fusedrv drv = { .abi = SDSI_ABI_CURRENT, .nsockets = 1 };
	struct fusedrv_socket s = { .bound = true };

	if (!SDSI_LOCK_ASSERTS)
		skip();
	sdsi_lock_init(&s.mbox_lock);
	sdsi_lock_init(&s.state_lock);
	lock_violations_count();

	assert_true(fusedrv_attr_visible(&drv, &s, SDSI_FILE_GUID));
	assert_int_equal(lock_violations, 1);
	assert_non_null(strstr(lock_last_violation, "fusedrv_attr_visible() called without holding "
				   "&s->state_lock or &s->mbox_lock"));

	sdsi_lock_take(&s.state_lock);
	assert_true(fusedrv_attr_visible(&drv, &s, SDSI_FILE_GUID));
	sdsi_lock_release(&s.state_lock);
	sdsi_lock_take(&s.mbox_lock);
	assert_true(fusedrv_attr_visible(&drv, &s, SDSI_FILE_GUID));
	sdsi_lock_release(&s.mbox_lock);
	assert_int_equal(lock_violations, 1);

	sdsi_lock_set_violation_hook(NULL);
	sdsi_lock_destroy(&s.mbox_lock);
	sdsi_lock_destroy(&s.state_lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_visible_needs_a_socket_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
