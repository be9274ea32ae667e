/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scope-bound cleanup (GCC's and Clang's cleanup attribute): a variable
 * declared with one is released when its scope ends, so that no early
 * return leaks it.  The libsdsi handles' forms name libsdsi's *p release
 * functions (sdsi/libsdsi.h, "For __attribute__((cleanup(...)))"), which
 * the file using them includes; this header itself depends on nothing.
 */
#ifndef SDSI_UTIL_CLEANUP_H
#define SDSI_UTIL_CLEANUP_H

/* fn(&variable) runs when the variable's scope ends. */
#define UTIL_CLEANUP(fn)	__attribute__((cleanup(fn)))

/* `util_scoped_error err = sdsi_error_new();`: freed at the end of its scope. */
#define util_scoped_error	UTIL_CLEANUP(sdsi_error_freep) struct sdsi_error *
/* The same for the pre-flight checks' results. */
#define util_scoped_preflight	UTIL_CLEANUP(sdsi_preflight_freep) struct sdsi_preflight *
/* `util_scoped_device dev = NULL;`: closed (if opened) at the end of its scope. */
#define util_scoped_device	UTIL_CLEANUP(sdsi_device_closep) struct sdsi_device *

#endif /* SDSI_UTIL_CLEANUP_H */
