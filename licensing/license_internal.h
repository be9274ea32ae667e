/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the licensing sources; not part of the library's API. */
#ifndef SDSI_LICENSE_INTERNAL_H
#define SDSI_LICENSE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sdsi/le.h>

#include "sdsi_license.h"

#if defined(__GNUC__)
#define LICENSE_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define LICENSE_PRINTF(fmt, args)
#endif

/* Fill err (when not NULL) and return rc, so callers can `return fail(...)`. */
int license_fail(struct sdsi_license_error *err, int rc, size_t offset,
		 const char *fmt, ...) LICENSE_PRINTF(4, 5);

/* Append OpenSSL's most recent error text to err->reason, and clear the queue. */
int license_fail_openssl(struct sdsi_license_error *err, int rc,
			 const char *what);

#endif /* SDSI_LICENSE_INTERNAL_H */
