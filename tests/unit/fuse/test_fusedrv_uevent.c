// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the driver's uevent file accepts, as the kernel parses a synthetic
 * uevent (drivers/fuse/fusedrv_uevent.c): each rule on both sides.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "drivers/fuse/fusedrv_internal.h"
#include "util/util_array.h"

#define UUID	"0123abcd-ABCD-4ef0-89ab-0123456789aF"

/* Not NUL-terminated, as FUSE hands the written bytes over. */
static int check(const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, text, len);
	ret = fusedrv_check_uevent(copy, len);
	free(copy);
	return ret;
}

static int check_str(const char *text)
{
	return check(text, strlen(text));
}

static void test_accepted(void **state)
{
	static const char *const good[] = {
		"add", "remove", "change", "move", "online", "offline", "bind", "unbind",
		"change\n", "add " UUID, "add " UUID "\n", "change " UUID " A=1",
		"change " UUID " KEY=value x9=Z0\n",
	};

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(good); i++)
		if (check_str(good[i]) != 0)
			fail_msg("refused \"%s\"", good[i]);
	/* one trailing NUL counts as a newline */
	assert_int_equal(check("change\0", 7), 0);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"", "\n", "\n\n", "change\n\n", "chang", "changes", "CHANGE", " change",
		"change ", "change \n", "change\t", "change x",
		/* the UUID: one character short, one bad digit, a dash moved */
		"change 0123abcd-ABCD-4ef0-89ab-0123456789a",
		"change 0123abcd-ABCD-4ef0-89ab-0123456789ag",
		"change 0123abcd-ABCD-4ef0-89ab0-123456789aF",
		/* what follows it */
		"change " UUID "x", "change " UUID " ", "change " UUID " A",
		"change " UUID " A=", "change " UUID " =1", "change " UUID " A=1 ",
		"change " UUID " A-B=1", "change " UUID " A=1-2", "change " UUID "  A=1",
		"change " UUID " A=1=2", "change " UUID "\n\n",
	};

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(bad); i++)
		if (check_str(bad[i]) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
	assert_int_equal(check("change\0\0", 8), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
