// SPDX-License-Identifier: GPL-2.0-only
/*
 * The errors intel_sdsi finds itself (tool_error.h).  No offset: they are
 * about files and paths, never about a byte of a blob.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sdsi/exit_status.h"
#include "tool_error.h"

/* A handle libsdsi could not allocate leaves no error to report it in. */
static void *allocated(void *handle)
{
	if (!handle) {
		fputs("intel_sdsi: out of memory\n", stderr);
		exit(SDSI_EXIT_INTERNAL);
	}
	return handle;
}

struct sdsi_error *tool_error_new(void)
{
	return allocated(sdsi_error_new());
}

struct sdsi_preflight *tool_preflight_new(void)
{
	return allocated(sdsi_preflight_new());
}

int tool_verror(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
		const char *fmt, va_list ap)
{
	char *message;

	if (vasprintf(&message, fmt, ap) < 0) {
		sdsi_error_set(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
		return -1;
	}
	sdsi_error_set(err, errnum, cls, -1, "%s", message);
	free(message);
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
