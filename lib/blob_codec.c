// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only libsdsi source that includes the licensing library's header: it
 * decodes an AKC or CAP with the same strict decoders the silicon model and
 * sdsi-authority use, so the tool and the silicon never disagree on what is
 * well formed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blob_codec.h"
#include "sdsi_license.h"

_Static_assert(BLOB_CODEC_MAX_FEATURES == SDSI_CAP_MAX_BUNDLES, "one feature per bundle");
_Static_assert(BLOB_CODEC_KEY_IMAGE_SIZE == SDSI_LICENSE_KEY_IMAGE_SIZE, "SHA-384");

static int malformed(const struct sdsi_license_error *lerr, size_t *offset, char *reason,
		     size_t reason_size)
{
	*offset = lerr->offset;
	snprintf(reason, reason_size, "%s", lerr->reason);
	return -EBADMSG;
}

static int decode_akc(const uint8_t *buf, size_t len, struct blob_codec_contents *out,
		      size_t *offset, char *reason, size_t reason_size)
{
	struct sdsi_license_error lerr = { .offset = SDSI_LICENSE_NO_OFFSET };
	struct sdsi_akc akc;

	if (sdsi_akc_decode(buf, len, &akc, &lerr))
		return malformed(&lerr, offset, reason, reason_size);
	out->key_revision = akc.key_revision;
	if (sdsi_license_key_image(akc.licensor_key, out->key_image)) {
		*offset = (size_t)-1;
		snprintf(reason, reason_size, "computing the SHA-384 key image failed");
		return -ENOMEM;
	}
	return 0;
}

static int decode_cap(const uint8_t *buf, size_t len, struct blob_codec_contents *out,
		      size_t *offset, char *reason, size_t reason_size)
{
	struct sdsi_license_error lerr = { .offset = SDSI_LICENSE_NO_OFFSET };
	struct sdsi_cap cap;
	uint32_t k;

	if (sdsi_cap_decode(buf, len, &cap, &lerr))
		return malformed(&lerr, offset, reason, reason_size);
	out->type = cap.license.type;
	out->id = cap.license.id;
	out->ppin = cap.license.ppin;
	out->previous_ppin = cap.license.previous_ppin;
	out->revision = cap.license.revision;
	out->num_features = cap.license.bundle_count;
	for (k = 0; k < cap.license.bundle_count; k++)
		out->features[k] = cap.license.bundles[k].code;
	return 0;
}

int blob_codec_decode(const uint8_t *buf, size_t len, struct blob_codec_contents *out,
		      size_t *offset, char *reason, size_t reason_size)
{
	memset(out, 0, sizeof(*out));
	switch (sdsi_license_blob_kind(buf, len)) {
	case SDSI_BLOB_AKC:
		out->format = BLOB_CODEC_AKC;
		return decode_akc(buf, len, out, offset, reason, reason_size);
	case SDSI_BLOB_CAP:
		out->format = BLOB_CODEC_CAP;
		return decode_cap(buf, len, out, offset, reason, reason_size);
	case SDSI_BLOB_FOREIGN:
		break;
	}
	out->format = BLOB_CODEC_FOREIGN;
	return 0;
}
