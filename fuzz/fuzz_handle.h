/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libsdsi's handles for one harness call: FUZZ_ERROR(err) and
 * FUZZ_PREFLIGHT(pf) declare one, allocated, and free it when the call's scope
 * ends (LeakSanitizer watches).
 * Only for translation units that include libsdsi.h alone (cert_decode.h).
 */
#ifndef SDSI_FUZZ_HANDLE_H
#define SDSI_FUZZ_HANDLE_H

#include "sdsi/libsdsi.h"
#include "fuzz_check.h"
#include "util/util_cleanup.h"

#define FUZZ_PREFLIGHT(name) \
	util_scoped_preflight name = sdsi_preflight_new(); \
	FUZZ_CHECK(name != NULL, "out of memory for the checks")
#define FUZZ_ERROR(name) \
	util_scoped_error name = sdsi_error_new(); \
	FUZZ_CHECK(name != NULL, "out of memory for an error")

#endif /* SDSI_FUZZ_HANDLE_H */
