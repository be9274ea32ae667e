/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libsdsi error handle for one harness call: FUZZ_ERROR(err) declares it,
 * allocated, and frees it when the call's scope ends (LeakSanitizer watches).
 * Only for translation units that include libsdsi.h alone (cert_decode.h).
 */
#ifndef FUZZ_ERROR_H
#define FUZZ_ERROR_H

#include "sdsi/libsdsi.h"
#include "fuzz_check.h"

static inline void fuzz_release_error(struct sdsi_error **err)
{
	sdsi_error_free(*err);
}

#define FUZZ_ERROR(name) \
	__attribute__((cleanup(fuzz_release_error))) struct sdsi_error *name = sdsi_error_new(); \
	FUZZ_CHECK(name != NULL, "out of memory for an error")

#endif /* FUZZ_ERROR_H */
