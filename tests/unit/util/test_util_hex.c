// SPDX-License-Identifier: GPL-2.0-only
/* util_hex.h: bytes in order, and the key image last byte first, as upstream prints it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/util_hex.h"

static void test_hex(void **state)
{
	static const uint8_t bytes[] = { 0x00, 0x01, 0xab, 0xf0, 0xff };
	char out[UTIL_HEX_SIZE(sizeof(bytes)) + 1];

	memset(out, 'X', sizeof(out));
	util_hex(out, bytes, sizeof(bytes));
	assert_string_equal(out, "0001abf0ff");
	assert_int_equal(out[sizeof(out) - 1], 'X');	/* no byte past the room */
	util_hex(out, bytes, 0);
	assert_string_equal(out, "");
}

static void test_key_image(void **state)
{
	uint8_t image[48];
	char out[UTIL_KEY_IMAGE_HEX_SIZE(48) + 1];
	char expect[UTIL_KEY_IMAGE_HEX_SIZE(48)];

	assert_int_equal(UTIL_KEY_IMAGE_HEX_SIZE(48), 2 + 96 + 1);
	for (unsigned int i = 0; i < 48; i++)
		image[i] = (uint8_t)(i * 5 + 1);
	strcpy(expect, "0x");
	/* Byte 47 leads: the little-endian qwords read as one number. */
	for (int i = 47; i >= 0; i--)
		snprintf(expect + 2 + 2 * (47 - i), 3, "%02x", image[i]);
	memset(out, 'X', sizeof(out));
	util_hex_key_image(out, image, sizeof(image));
	assert_string_equal(out, expect);
	assert_int_equal(out[sizeof(out) - 1], 'X');
	/* Any length: not 48 written in. */
	util_hex_key_image(out, (const uint8_t *)"\x01\x02\x03", 3);
	assert_string_equal(out, "0x030201");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_key_image),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
