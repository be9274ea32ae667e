/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The project's AKC and CAP formats (docs/formats.md): the byte layouts the
 * licensing library encodes and decodes, sdsi-authority issues, the model
 * verifies and libsdsi inspects.  Little-endian.
 *
 * The AKC is a stand-in for Intel's private format: a header (magic, format
 * version, total size), the contents, and an ECDSA P-384 signature over
 * every byte before it.
 *
 * The CAP is the licence blob of the published layout (hw.h,
 * SDSI_BLOB_OFF_*: type, ID, PPIN, previous PPIN, revision, bundles) from
 * its first byte, followed by its signature: the placement is inferred,
 * the fields are Intel's, so one reader serves Intel's CAPs and ours.  Ours
 * carry a 96-byte ECDSA P-384 signature over every byte of the blob.
 * Integer constants only; the size macros are size_t (stddef.h) expressions.
 */
#ifndef SDSI_LICENSE_BLOB_H
#define SDSI_LICENSE_BLOB_H

#include "hw.h"

#define SDSI_LICENSE_FORMAT_VERSION	1u
#define SDSI_AKC_MAGIC			SDSI_FOURCC('S', 'A', 'K', 'C')

#define SDSI_LICENSE_PUBKEY_SIZE	96u	/* X || Y, big-endian, 48 each */
#define SDSI_LICENSE_SIG_SIZE		96u	/* r || s, big-endian, 48 each */
#define SDSI_LICENSE_KEY_IMAGE_SIZE	SDSI_STATE_KEY_IMAGE_SIZE	/* 48 */
#define SDSI_LICENSE_BLOB_MAX		SDSI_WRITE_PAYLOAD_MAX		/* 1016 */

/* The AKC's header. */
#define SDSI_LICENSE_OFF_MAGIC		0x00u
#define SDSI_LICENSE_OFF_VERSION	0x04u
#define SDSI_LICENSE_OFF_TOTAL_SIZE	0x08u

/* AKC: header, key revision, licensor key, signature. */
#define SDSI_AKC_KEY_REV_OFFSET		0x0Cu
#define SDSI_AKC_KEY_OFFSET		0x10u
#define SDSI_AKC_SIG_OFFSET		0x70u
#define SDSI_AKC_SIZE			0xD0u	/* 208 */

/* CAP: licence blob (hw.h) from byte 0, then the signature. */
#define SDSI_CAP_BLOB_OFFSET		0u
#define SDSI_LICENSE_BLOB_SIZE(n) \
	(SDSI_BLOB_HEADER_SIZE + (size_t)(n) * SDSI_BUNDLE_SIZE)	/* size_t */
/* Ours: the blob and a 96-byte signature, nothing else. */
#define SDSI_CAP_SIZE(n) \
	(SDSI_LICENSE_BLOB_SIZE(n) + SDSI_LICENSE_SIG_SIZE)
/*
 * Any CAP, Intel's included, must leave room after its blob for at least
 * an ECDSA P-384 signature (r, s): the least a signed blob can carry.
 */
#define SDSI_CAP_SIG_MIN		SDSI_LICENSE_SIG_SIZE
/* (1016 - 36 - 96) / 32 = 27, so the largest CAP of ours is 996 bytes. */
#define SDSI_CAP_MAX_BUNDLES		27u
#define SDSI_BUNDLE_RESERVED_SIZE	(SDSI_BUNDLE_SIZE - SDSI_BUNDLE_OFF_RESERVED)	/* 28 */

#endif /* SDSI_LICENSE_BLOB_H */
