/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libsdsi's handles for one test: SCOPED_ERROR(err) and SCOPED_PREFLIGHT(pf)
 * declare one, allocated, and free it when the test's scope ends, so that no
 * early return leaks it (the sanitizer build checks leaks).
 */
#ifndef SDSI_TESTS_UNIT_LIB_SCOPED_HANDLE_H
#define SDSI_TESTS_UNIT_LIB_SCOPED_HANDLE_H

#include "sdsi/libsdsi.h"
#include "util/util_cleanup.h"

#define SCOPED_ERROR(name)	util_scoped_error name = sdsi_error_new()
#define SCOPED_PREFLIGHT(name)	util_scoped_preflight name = sdsi_preflight_new()

#endif /* SDSI_TESTS_UNIT_LIB_SCOPED_HANDLE_H */
