// SPDX-License-Identifier: LGPL-2.1-or-later
/* Error reporting and byte order helpers of the licensing library. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

#include "license_internal.h"

int license_fail(struct sdsi_license_error *err, int rc, size_t offset,
		 const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return rc;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	va_end(ap);
	return rc;
}

int license_fail_openssl(struct sdsi_license_error *err, int rc,
			 const char *what)
{
	char detail[160] = "no detail";
	unsigned long code = ERR_peek_last_error();

	if (code)
		ERR_error_string_n(code, detail, sizeof(detail));
	/* The queue is per thread; leave nothing behind for an unrelated call. */
	ERR_clear_error();
	return license_fail(err, rc, SDSI_LICENSE_NO_OFFSET, "%s: %s", what,
			    detail);
}

uint32_t license_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t license_get_le64(const uint8_t *p)
{
	return (uint64_t)license_get_le32(p) |
	       (uint64_t)license_get_le32(p + 4) << 32;
}

void license_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void license_put_le64(uint8_t *p, uint64_t v)
{
	license_put_le32(p, (uint32_t)v);
	license_put_le32(p + 4, (uint32_t)(v >> 32));
}
