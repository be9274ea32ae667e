// SPDX-License-Identifier: GPL-2.0-only
/*
 * The errors intel_sdsi finds itself (tool_error.h).  No offset: they are
 * about files and paths, never about a byte of a blob.
 */
#include <stdio.h>

#include "tool_error.h"

int tool_verror(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
		const char *fmt, va_list ap)
{
	err->errnum = errnum;
	err->cls = cls;
	err->offset = -1;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	return -1;
}

int tool_error(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_verror(err, errnum, cls, fmt, ap);
	va_end(ap);
	return -1;
}
