/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libsdsi error handle for one test: SCOPED_ERROR(err) declares err,
 * allocated, and frees it when the test's scope ends, so that no assertion's
 * early exit leaks it (the sanitizer build checks leaks).
 */
#ifndef SCOPED_ERROR_H
#define SCOPED_ERROR_H

#include "sdsi/libsdsi.h"

static inline void release_error(struct sdsi_error **err)
{
	sdsi_error_free(*err);
}

#define SCOPED_ERROR(name) \
	__attribute__((cleanup(release_error))) struct sdsi_error *name = sdsi_error_new()

#endif /* SCOPED_ERROR_H */
