/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Little-endian loads and stores on byte buffers.  Every layout of the
 * interface (registers, certificates, licence blobs, the AKC and CAP, the
 * NVRAM file, the shared window) is little-endian whatever the host is, so
 * every component reads and writes those bytes through these helpers.
 * Static inline on plain integer types: usable by the model, the licensing
 * library, libsdsi, the tools and the tests alike.
 */
#ifndef SDSI_LE_H
#define SDSI_LE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

static inline uint16_t sdsi_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline void sdsi_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline uint32_t sdsi_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t sdsi_le64(const uint8_t *p)
{
	return (uint64_t)sdsi_le32(p) | (uint64_t)sdsi_le32(p + 4) << 32;
}

static inline void sdsi_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void sdsi_put_le64(uint8_t *p, uint64_t v)
{
	sdsi_put_le32(p, (uint32_t)v);
	sdsi_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif /* SDSI_LE_H */
