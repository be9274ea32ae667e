// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * AKC and CAP contents for pre-flight checks and --dry-run: the project's
 * format decoded through blob_codec.c, anything else reported as foreign.
 */
#include <errno.h>
#include <string.h>

#include "blob_codec.h"
#include "sdsi_internal.h"

_Static_assert(SDSI_BLOB_MAX_FEATURES == BLOB_CODEC_MAX_FEATURES, "bundle count");
_Static_assert(SDSI_KEY_IMAGE_SIZE == BLOB_CODEC_KEY_IMAGE_SIZE, "key image size");

const char *sdsi_blob_format_name(enum sdsi_blob_format format)
{
	switch (format) {
	case SDSI_BLOB_FORMAT_AKC:
		return "AKC";
	case SDSI_BLOB_FORMAT_CAP:
		return "CAP";
	case SDSI_BLOB_FORMAT_FOREIGN:
		break;
	}
	return "foreign";
}

static enum sdsi_blob_format public_format(enum blob_codec_format format)
{
	switch (format) {
	case BLOB_CODEC_AKC:
		return SDSI_BLOB_FORMAT_AKC;
	case BLOB_CODEC_CAP:
		return SDSI_BLOB_FORMAT_CAP;
	case BLOB_CODEC_FOREIGN:
		break;
	}
	return SDSI_BLOB_FORMAT_FOREIGN;
}

int sdsi_decode_blob(const uint8_t *buf, size_t len, struct sdsi_blob_info *info,
		     struct sdsi_error *err)
{
	struct blob_codec_contents c;
	size_t offset = (size_t)-1;
	char reason[256] = "";
	int ret;

	sdsi_clear_error(err);
	memset(info, 0, sizeof(*info));
	info->size = len;
	ret = blob_codec_decode(buf, len, &c, &offset, reason, sizeof(reason));
	info->format = public_format(c.format);
	if (ret == -ENOMEM)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "%s", reason);
	if (ret && offset == (size_t)-1)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, -1, "malformed %s: %s",
				 sdsi_blob_format_name(info->format), reason);
	if (ret)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)offset,
				 "malformed %s at offset %zu: %s",
				 sdsi_blob_format_name(info->format), offset, reason);
	info->key_revision = c.key_revision;
	memcpy(info->key_image, c.key_image, sizeof(info->key_image));
	info->type = c.type;
	info->id = c.id;
	info->ppin = c.ppin;
	info->previous_ppin = c.previous_ppin;
	info->revision = c.revision;
	info->num_features = c.num_features;
	memcpy(info->features, c.features, sizeof(info->features));
	return 0;
}
