/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the licensing sources; not part of the library's API. */
#ifndef SDSI_LIC_INTERNAL_H
#define SDSI_LIC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sdsi/le.h>

#include "sdsi_lic.h"

#if defined(__GNUC__)
#define SDSI_LIC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SDSI_LIC_PRINTF(fmt, args)
#endif

/* Fill err (when not NULL) and return rc, so callers can `return fail(...)`. */
int sdsi_lic_fail(struct sdsi_lic_error *err, int rc, size_t offset,
		 const char *fmt, ...) SDSI_LIC_PRINTF(4, 5);

/* Append OpenSSL's most recent error text to err->reason, and clear the queue. */
int sdsi_lic_fail_openssl(struct sdsi_lic_error *err, int rc,
			  const char *what);

#endif /* SDSI_LIC_INTERNAL_H */
