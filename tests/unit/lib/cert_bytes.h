/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte-level writers for the tests: certificates and register files are laid
 * out field by field at the offsets of docs/interface.md §2.7, §3.1 and §3.2,
 * independently of the decoders under test.
 */
#ifndef CERT_BYTES_H
#define CERT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sdsi/le.h>

static inline void put32(uint8_t *p, size_t off, uint32_t v)
{
	sdsi_put_le32(p + off, v);
}

static inline void put64(uint8_t *p, size_t off, uint64_t v)
{
	sdsi_put_le64(p + off, v);
}

/* A four-character code in the stored byte order: "MTDB" -> 42 44 54 4D. */
static inline void putcode(uint8_t *p, size_t off, const char code[4])
{
	p[off] = (uint8_t)code[3];
	p[off + 1] = (uint8_t)code[2];
	p[off + 2] = (uint8_t)code[1];
	p[off + 3] = (uint8_t)code[0];
}

/*
 * One license blob at off: header of 36 bytes, then 32 bytes per feature.
 * Returns the blob size in bytes (what the size word encodes / 4).
 */
static inline size_t put_blob(uint8_t *p, size_t off, uint32_t type, uint64_t id,
			      uint64_t ppin, uint64_t prev_ppin, uint32_t rev,
			      const char *const *features, uint32_t nfeatures)
{
	put32(p, off + 0x00, type);
	put64(p, off + 0x04, id);
	put64(p, off + 0x0c, ppin);
	put64(p, off + 0x14, prev_ppin);
	put32(p, off + 0x1c, rev);
	put32(p, off + 0x20, nfeatures);
	for (uint32_t k = 0; k < nfeatures; k++) {
		putcode(p, off + 0x24 + 32 * k, features[k]);
		/* The reserved 28 bytes are signed content: fill them. */
		memset(p + off + 0x28 + 32 * k, 0xa5, 28);
	}
	return 36 + 32 * (size_t)nfeatures;
}

#endif /* CERT_BYTES_H */
