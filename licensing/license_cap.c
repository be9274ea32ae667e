// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CAP (docs/formats.md section 3): the published licence blob from byte
 * 0, then a signature.  One reader for any CAP, Intel's or ours
 * (sdsi_lic_cap_read), and the strict codec of our own, whose signature is
 * exactly 96 bytes, for the model and sdsi-authority.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "license_internal.h"
#include "sdsi/license_header.h"

_Static_assert(SDSI_CAP_SIZE(SDSI_CAP_MAX_BUNDLES) <= SDSI_LICENSE_BLOB_MAX &&
	       SDSI_CAP_SIZE(SDSI_CAP_MAX_BUNDLES + 1) > SDSI_LICENSE_BLOB_MAX,
	       "SDSI_CAP_MAX_BUNDLES is the most that fit one mailbox write");
_Static_assert(SDSI_CAP_SIG_MIN == SDSI_LICENSE_SIG_SIZE,
	       "the reader's bound on bundles is the format's");

int sdsi_lic_cap_encode(const struct sdsi_lic_cap *cap, void *buf, size_t size,
		    size_t *len, struct sdsi_lic_error *err)
{
	const struct sdsi_lic_blob *lic = &cap->license;
	uint8_t *p = buf;
	size_t total = SDSI_CAP_SIZE(lic->bundle_count);
	int rc;

	rc = sdsi_lic_blob_encodable(lic, SDSI_CAP_BLOB_OFFSET, size, total, "CAP", err);
	if (rc)
		return rc;
	sdsi_lic_blob_put(lic, p + SDSI_CAP_BLOB_OFFSET);
	memcpy(p + total - SDSI_LICENSE_SIG_SIZE, cap->signature,
	       SDSI_LICENSE_SIG_SIZE);
	*len = total;
	return 0;
}

/*
 * The published fields, read where they are published: a known type, at
 * least one bundle, and every bundle inside the bytes with room left for a
 * signature.  No byte is judged beyond that: Intel's files and ours alike.
 */
int sdsi_lic_cap_read(const void *buf, size_t len, struct sdsi_lic_blob *lic,
		      size_t *sig_len, struct sdsi_lic_error *err)
{
	const uint8_t *p = buf;
	const uint8_t *bundle;
	size_t fit;
	uint32_t i;

	if (len > SDSI_LICENSE_BLOB_MAX)
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_BLOB_MAX,
				     "oversized: %zu bytes, a CAP is written in one mailbox write of at most %u",
				     len, SDSI_LICENSE_BLOB_MAX);
	if (len < SDSI_BLOB_HEADER_SIZE + SDSI_CAP_SIG_MIN)
		return sdsi_lic_fail(err, -EINVAL, len,
				     "truncated: %zu bytes, a licence blob's header (%u bytes) and a signature (at least %u) need %u",
				     len, SDSI_BLOB_HEADER_SIZE, SDSI_CAP_SIG_MIN,
				     SDSI_BLOB_HEADER_SIZE + SDSI_CAP_SIG_MIN);
	memset(lic, 0, sizeof(*lic));
	sdsi_license_header_get(p, &lic->type, &lic->id, &lic->ppin, &lic->previous_ppin,
				&lic->revision, &lic->bundle_count);
	if (!sdsi_lic_type_name(lic->type))
		return sdsi_lic_fail(err, -EINVAL, SDSI_BLOB_OFF_TYPE,
				     "licence type 0x%08x is neither %u (%s) nor %u (%s)",
				     lic->type,
				     SDSI_LICENSE_ONE_TIME, sdsi_license_type_name(SDSI_LICENSE_ONE_TIME),
				     SDSI_LICENSE_METERED, sdsi_license_type_name(SDSI_LICENSE_METERED));
	if (lic->bundle_count == 0)
		return sdsi_lic_fail(err, -EINVAL, SDSI_BLOB_OFF_NUM_BUNDLES,
				     "bundle count 0: a licence enables at least one feature");
	fit = (len - SDSI_BLOB_HEADER_SIZE - SDSI_CAP_SIG_MIN) / SDSI_BUNDLE_SIZE;
	if (lic->bundle_count > fit)
		return sdsi_lic_fail(err, -EINVAL, SDSI_BLOB_OFF_NUM_BUNDLES,
				     "bundle count %u does not fit in %zu bytes: with a signature of at least %u bytes, %zu bundle%s",
				     lic->bundle_count, len,
				     SDSI_CAP_SIG_MIN, fit, fit == 1 ? " does" : "s do");
	for (i = 0; i < lic->bundle_count; i++) {
		bundle = p + SDSI_BLOB_HEADER_SIZE + i * SDSI_BUNDLE_SIZE;
		lic->bundles[i].code = sdsi_le32(bundle + SDSI_BUNDLE_OFF_CODE);
		memcpy(lic->bundles[i].reserved, bundle + SDSI_BUNDLE_OFF_RESERVED,
		       SDSI_BUNDLE_RESERVED_SIZE);
	}
	if (sig_len)
		*sig_len = len - SDSI_LICENSE_BLOB_SIZE(lic->bundle_count);
	return 0;
}

int sdsi_lic_cap_decode(const void *buf, size_t len, struct sdsi_lic_cap *cap,
		    struct sdsi_lic_error *err)
{
	const uint8_t *p = buf;
	size_t sig_len;
	int rc;

	rc = sdsi_lic_cap_read(buf, len, &cap->license, &sig_len, err);
	if (rc)
		return rc;
	/* Ours: the codes our encoder allows, and a signature of exactly 96 bytes. */
	rc = sdsi_lic_blob_check(&cap->license, SDSI_CAP_BLOB_OFFSET, err);
	if (rc)
		return -EINVAL;
	if (sig_len != SDSI_LICENSE_SIG_SIZE)
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_BLOB_SIZE(cap->license.bundle_count),
				     "%zu bytes after the last of %u bundles: the sdsi format's signature is %u",
				     sig_len, cap->license.bundle_count, SDSI_LICENSE_SIG_SIZE);
	memcpy(cap->signature, p + len - SDSI_LICENSE_SIG_SIZE, SDSI_LICENSE_SIG_SIZE);
	return 0;
}

size_t sdsi_lic_cap_unpadded_len(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t bundles;
	size_t want, i;

	if (len < SDSI_BLOB_HEADER_SIZE)
		return len;
	bundles = sdsi_le32(p + SDSI_BLOB_OFF_NUM_BUNDLES);
	if (bundles > SDSI_CAP_MAX_BUNDLES)
		return len;
	want = SDSI_CAP_SIZE(bundles);
	if (len <= want || len != ((want + 7) & ~(size_t)7))
		return len;
	for (i = want; i < len; i++)
		if (p[i])
			return len;
	return want;
}

/*
 * Which payload this is: an AKC by its header, a CAP when it reads as a
 * licence blob.  Here, beside the CAP reader it calls, so that the codec
 * (which the CAP reader calls) never calls back.
 */
enum sdsi_payload_kind sdsi_lic_blob_kind(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	struct sdsi_lic_blob *lic;
	enum sdsi_payload_kind kind = SDSI_PAYLOAD_FOREIGN;

	if (len >= SDSI_LICENSE_OFF_TOTAL_SIZE &&
	    sdsi_le32(p + SDSI_LICENSE_OFF_MAGIC) == SDSI_AKC_MAGIC &&
	    sdsi_le32(p + SDSI_LICENSE_OFF_VERSION) == SDSI_LICENSE_FORMAT_VERSION)
		return SDSI_PAYLOAD_AKC;
	/* Over 1 KiB with its bundles: keep it off small thread stacks. */
	lic = malloc(sizeof(*lic));
	if (lic && sdsi_lic_cap_read(buf, len, lic, NULL, NULL) == 0)
		kind = SDSI_PAYLOAD_CAP;
	free(lic);
	return kind;
}
