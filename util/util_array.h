/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The number of elements of an array, as every room of the project counts
 * its tables.  Given a pointer instead of an array, the build fails: the
 * division would silently answer 1 or 0 (the size of a pointer over the
 * size of an element), the bug the kernel's ARRAY_SIZE guards against too.
 */
#ifndef SDSI_UTIL_ARRAY_H
#define SDSI_UTIL_ARRAY_H

#include <stddef.h>

/* 0, or a build failure when e is true (a constant expression). */
#define UTIL_BUILD_BUG_ON_ZERO(e)	((size_t)sizeof(struct { int: (-!!(e)); }))

/* a and &a[0] have the same type only when a is a pointer. */
#define UTIL_MUST_BE_ARRAY(a) \
	UTIL_BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))

#define UTIL_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]) + UTIL_MUST_BE_ARRAY(a))

#endif /* SDSI_UTIL_ARRAY_H */
