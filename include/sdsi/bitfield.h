/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Register fields as the kernel names them (linux/bits.h, linux/bitfield.h),
 * for the code that builds outside the kernel too: the driver core, the
 * hardware model and libsdsi.  One convention: a mask is in place (shifted
 * to its field, as SDSI_CTRL_*_MASK are in hw.h), and the shift is the
 * mask's lowest set bit, never a second constant to keep in step.  The
 * kernel module's own glue keeps the kernel's macros.
 */
#ifndef SDSI_BITFIELD_H
#define SDSI_BITFIELD_H

/* Bits h..l set, 0 <= l <= h <= 63. */
#define SDSI_GENMASK_ULL(h, l) \
	((~0ull >> (63 - (h))) & (~0ull << (l)))

/* The field mask selects in reg, moved down to bit 0. */
#define SDSI_FIELD_GET(mask, reg) \
	(((unsigned long long)(reg) & (mask)) >> __builtin_ctzll(mask))

/* val moved up into the field mask selects (bits above the field dropped). */
#define SDSI_FIELD_PREP(mask, val) \
	(((unsigned long long)(val) << __builtin_ctzll(mask)) & (mask))

#endif /* SDSI_BITFIELD_H */
