/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte-level writers for the tests: certificates and register files are laid
 * out field by field at the offsets of docs/interface.md §2.7, §3.1 and §3.2,
 * independently of the decoders under test.
 */
#ifndef SDSI_TESTS_UNIT_LIB_CERT_BYTES_H
#define SDSI_TESTS_UNIT_LIB_CERT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sdsi/hw.h>
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
	put32(p, off + SDSI_BLOB_OFF_TYPE, type);
	put64(p, off + SDSI_BLOB_OFF_ID, id);
	put64(p, off + SDSI_BLOB_OFF_PPIN, ppin);
	put64(p, off + SDSI_BLOB_OFF_PREV_PPIN, prev_ppin);
	put32(p, off + SDSI_BLOB_OFF_REVISION, rev);
	put32(p, off + SDSI_BLOB_OFF_NUM_BUNDLES, nfeatures);
	for (uint32_t k = 0; k < nfeatures; k++) {
		size_t bundle = off + SDSI_BLOB_HEADER_SIZE + SDSI_BUNDLE_SIZE * (size_t)k;

		putcode(p, bundle + SDSI_BUNDLE_OFF_CODE, features[k]);
		/* The reserved 28 bytes are signed content: fill them. */
		memset(p + bundle + SDSI_BUNDLE_OFF_RESERVED, 0xa5,
		       SDSI_BUNDLE_SIZE - SDSI_BUNDLE_OFF_RESERVED);
	}
	return SDSI_BLOB_HEADER_SIZE + SDSI_BUNDLE_SIZE * (size_t)nfeatures;
}

#endif /* SDSI_TESTS_UNIT_LIB_CERT_BYTES_H */
