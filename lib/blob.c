// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * AKC and CAP contents for pre-flight checks and --dry-run: the project's
 * AKC decoded with the licensing library's strict decoder (the one the
 * silicon model and sdsi-authority use, so the tool and the silicon never
 * disagree on what is well formed); any CAP, Intel's or ours, read by the
 * published licence-blob layout (sdsi_lic_cap_read()); anything else
 * reported as foreign.
 */
#include <errno.h>
#include <string.h>

#include "sdsi_internal.h"
#include "licensing/sdsi_lic.h"

_Static_assert(SDSI_BLOB_MAX_FEATURES == SDSI_CAP_MAX_BUNDLES, "one feature per bundle");
_Static_assert(SDSI_KEY_IMAGE_SIZE == SDSI_LICENSE_KEY_IMAGE_SIZE, "SHA-384");

/* libsdsi's public enum is the vocabulary's, value for value. */
_Static_assert(SDSI_BLOB_FORMAT_FOREIGN == (int)SDSI_PAYLOAD_FOREIGN &&
	       SDSI_BLOB_FORMAT_AKC == (int)SDSI_PAYLOAD_AKC &&
	       SDSI_BLOB_FORMAT_CAP == (int)SDSI_PAYLOAD_CAP, "enum sdsi_blob_format");

const char *sdsi_blob_format_name(enum sdsi_blob_format format)
{
	return sdsi_payload_name((enum sdsi_payload_kind)format);
}

/* A decoder's refusal, with the offset when it is about one byte. */
static int malformed(const struct sdsi_blob_info *info, const struct sdsi_lic_error *lerr,
		     struct sdsi_error *err)
{
	const char *name = sdsi_blob_format_name(info->format);

	if (lerr->offset == SDSI_LIC_NO_OFFSET)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, -1, "malformed %s: %s",
				 name, lerr->reason);
	return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)lerr->offset,
			 "malformed %s at offset %zu: %s", name, lerr->offset, lerr->reason);
}

static int decode_akc(const uint8_t *buf, size_t len, struct sdsi_blob_info *info,
		      struct sdsi_error *err)
{
	struct sdsi_lic_error lerr = { .offset = SDSI_LIC_NO_OFFSET };
	struct sdsi_lic_akc akc;

	if (sdsi_lic_akc_decode(buf, len, &akc, &lerr))
		return malformed(info, &lerr, err);
	info->key_revision = akc.key_revision;
	if (sdsi_lic_key_image(akc.licensor_key, info->key_image))
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1,
				 "computing the SHA-384 key image failed");
	return 0;
}

static int decode_cap(const uint8_t *buf, size_t len, struct sdsi_blob_info *info,
		      struct sdsi_error *err)
{
	struct sdsi_lic_error lerr = { .offset = SDSI_LIC_NO_OFFSET };
	struct sdsi_lic_blob lic;
	uint32_t k;

	if (sdsi_lic_cap_read(buf, len, &lic, NULL, &lerr))
		return malformed(info, &lerr, err);
	info->type = lic.type;
	info->id = lic.id;
	info->ppin = lic.ppin;
	info->previous_ppin = lic.previous_ppin;
	info->revision = lic.revision;
	info->num_features = lic.bundle_count;
	for (k = 0; k < lic.bundle_count; k++)
		info->features[k] = lic.bundles[k].code;
	return 0;
}

int sdsi_decode_blob(const uint8_t *buf, size_t len, struct sdsi_blob_info *info,
		     struct sdsi_error *err)
{
	sdsi_clear_error(err);
	memset(info, 0, sizeof(*info));
	info->size = len;
	info->format = (enum sdsi_blob_format)sdsi_lic_blob_kind(buf, len);
	switch (info->format) {
	case SDSI_BLOB_FORMAT_AKC:
		return decode_akc(buf, len, info, err);
	case SDSI_BLOB_FORMAT_CAP:
		return decode_cap(buf, len, info, err);
	case SDSI_BLOB_FORMAT_FOREIGN:
		break;
	}
	return 0;
}
