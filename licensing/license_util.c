// SPDX-License-Identifier: LGPL-2.1-or-later
/* Error reporting and byte order helpers of the licensing library. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

#include "license_internal.h"

int sdsi_lic_fail(struct sdsi_lic_error *err, int rc, size_t offset,
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

int sdsi_lic_fail_openssl(struct sdsi_lic_error *err, int rc,
			  const char *what)
{
	char detail[160] = "no detail";
	unsigned long code = ERR_peek_last_error();

	if (code)
		ERR_error_string_n(code, detail, sizeof(detail));
	/* The queue is per thread; leave nothing behind for an unrelated call. */
	ERR_clear_error();
	return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET, "%s: %s", what,
			     detail);
}
