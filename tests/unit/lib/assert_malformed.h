/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every libsdsi decoder's refusal of malformed bytes must say, for the
 * tests of each decoder (include <cmocka.h> first).
 */
#ifndef SDSI_TESTS_UNIT_LIB_ASSERT_MALFORMED_H
#define SDSI_TESTS_UNIT_LIB_ASSERT_MALFORMED_H

#include <errno.h>
#include <string.h>

#include "sdsi/libsdsi.h"

/* ret is -EBADMSG, err says so, points at offset, and its message holds needle ("": any). */
static inline void assert_malformed(int ret, const struct sdsi_error *err, long offset,
				    const char *needle)
{
	assert_int_equal(ret, -EBADMSG);
	assert_int_equal(sdsi_error_errno(err), EBADMSG);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_MALFORMED);
	assert_int_equal(sdsi_error_offset(err), offset);
	assert_non_null(strstr(sdsi_error_message(err), needle));
}

#endif /* SDSI_TESTS_UNIT_LIB_ASSERT_MALFORMED_H */
