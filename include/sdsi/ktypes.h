/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's names of the fixed-width integers (linux/types.h), for the
 * user-space builds of the code that is also compiled into the kernel
 * module (drivers/core, le.h): that code is written as kernel code, and
 * outside the kernel these names are the C library's types.  Never
 * included by the module, which has the kernel's own.
 */
#ifndef SDSI_KTYPES_H
#define SDSI_KTYPES_H

#ifdef __KERNEL__
#error "the kernel has its own u8/u32/u64 (linux/types.h)"
#endif

#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#endif /* SDSI_KTYPES_H */
