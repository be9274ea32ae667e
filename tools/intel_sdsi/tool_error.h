/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An error found by intel_sdsi itself (a file it cannot use, a target it
 * will not replace), in libsdsi's struct sdsi_error, so that it is reported
 * and mapped to an exit status like any error of the library.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_TOOL_ERROR_H
#define SDSI_TOOLS_INTEL_SDSI_TOOL_ERROR_H

#include <stdarg.h>

#include "sdsi/libsdsi.h"
#include "util/util_cleanup.h"

/*
 * A libsdsi error (an opaque handle) that is never NULL: running out of
 * memory for one ends the program with the internal error's exit status, as
 * there would be no error left to report it in.
 */
struct sdsi_error *tool_error_new(void);

/* The same for the pre-flight checks' results. */
struct sdsi_preflight *tool_preflight_new(void);

/* `util_scoped_error err = tool_error_new();`: util/util_cleanup.h. */

/* Fill err with the message as given (no strerror() after it); returns -1. */
int tool_error(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int tool_verror(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
		const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

#endif /* SDSI_TOOLS_INTEL_SDSI_TOOL_ERROR_H */
