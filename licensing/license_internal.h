/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the licensing sources; not part of the library's API. */
#ifndef SDSI_LICENSING_LICENSE_INTERNAL_H
#define SDSI_LICENSING_LICENSE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/*
 * The licence blob's rules and bytes, shared by the blob codec
 * (license_codec.c) and the CAP's (license_cap.c); offsets in errors are
 * base plus the blob's own.
 */
int sdsi_lic_blob_check(const struct sdsi_lic_blob *lic, size_t base,
			struct sdsi_lic_error *err);
void sdsi_lic_blob_put(const struct sdsi_lic_blob *lic, uint8_t *p);
/* The rules kept, and need bytes of room in size (what: the message's noun). */
int sdsi_lic_blob_encodable(const struct sdsi_lic_blob *lic, size_t base, size_t size,
			    size_t need, const char *what, struct sdsi_lic_error *err);

/*
 * data into name in dirfd, never replacing a file (sdsi_path.h's output),
 * as a file of mode; what names the kind of file in messages ("key file").
 * The key files' writer (license_keyfile.c) and the certificates'
 * (attest_x509.c).
 */
int sdsi_lic_write_new_at(int dirfd, const char *name, const char *path, const char *what,
			  const void *data, size_t len, mode_t mode, struct sdsi_lic_error *err);

#endif /* SDSI_LICENSING_LICENSE_INTERNAL_H */
