/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bridge to the licensing library (licensing/sdsi_license.h), which
 * decodes the project's AKC and CAP formats.  Its names (struct sdsi_license,
 * enum sdsi_blob_kind) collide with libsdsi's public ones, so only
 * blob_codec.c includes it, and the decoded contents cross over in this plain
 * structure.  Not installed.
 */
#ifndef SDSI_BLOB_CODEC_H
#define SDSI_BLOB_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define BLOB_CODEC_HIDDEN __attribute__((visibility("hidden")))

enum blob_codec_format { BLOB_CODEC_FOREIGN, BLOB_CODEC_AKC, BLOB_CODEC_CAP };

#define BLOB_CODEC_MAX_FEATURES		27u
#define BLOB_CODEC_KEY_IMAGE_SIZE	48u

struct blob_codec_contents {
	enum blob_codec_format format;
	/* AKC */
	uint32_t key_revision;
	uint8_t key_image[BLOB_CODEC_KEY_IMAGE_SIZE];
	/* CAP */
	uint32_t type;
	uint64_t id;
	uint64_t ppin;
	uint64_t previous_ppin;
	uint32_t revision;
	uint32_t num_features;
	uint32_t features[BLOB_CODEC_MAX_FEATURES];
};

/*
 * Decode buf by its magic.  0 for a foreign blob (format FOREIGN, nothing
 * else filled) and for a well-formed AKC or CAP; -EBADMSG for a malformed
 * one, with *offset and reason saying where and why; -ENOMEM when the key
 * image could not be computed.  Signatures are not verified: that needs the
 * keys, which only the authority and the silicon hold.
 */
BLOB_CODEC_HIDDEN int blob_codec_decode(const uint8_t *buf, size_t len,
					struct blob_codec_contents *out, size_t *offset,
					char *reason, size_t reason_size);

#endif /* SDSI_BLOB_CODEC_H */
