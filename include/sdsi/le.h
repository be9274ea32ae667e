/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Little-endian loads and stores on byte buffers.  Every layout of the
 * interface (registers, certificates, licence blobs, the AKC and CAP, the
 * NVRAM file, the shared window) is little-endian whatever the host is, so
 * every component reads and writes those bytes through these helpers.
 * Static inline on the kernel's integer types (ktypes.h outside it): usable
 * by the model, the licensing library, libsdsi, the tools and the tests
 * alike, and by the driver core in the kernel module.
 */
#ifndef SDSI_LE_H
#define SDSI_LE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "ktypes.h"
#endif

static inline u16 sdsi_le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static inline void sdsi_put_le16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static inline u32 sdsi_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
	       (u32)p[3] << 24;
}

static inline u64 sdsi_le64(const u8 *p)
{
	return (u64)sdsi_le32(p) | (u64)sdsi_le32(p + 4) << 32;
}

static inline void sdsi_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static inline void sdsi_put_le64(u8 *p, u64 v)
{
	sdsi_put_le32(p, (u32)v);
	sdsi_put_le32(p + 4, (u32)(v >> 32));
}

#endif /* SDSI_LE_H */
