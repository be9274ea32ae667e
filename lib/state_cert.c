// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoder of the state certificate (docs/interface.md §3.1).  Every count and
 * size read from the certificate is checked against the bytes present before
 * anything it points to is touched; a malformed certificate is reported with
 * the offset of the field that does not fit and why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi/license_header.h"
#include "sdsi_internal.h"

void sdsi_state_cert_free(struct sdsi_state_cert *cert)
{
	free(cert->licenses);
	cert->licenses = NULL;
}

uint32_t sdsi_license_feature(const struct sdsi_license *lic, uint32_t k)
{
	if (!lic->present || k >= lic->num_features)
		return 0;
	return sdsi_le32(lic->features + (size_t)k * SDSI_BUNDLE_SIZE);
}

static int decode_license(const uint8_t *buf, size_t len, uint32_t index,
			  uint64_t *cursor, struct sdsi_license *lic, struct sdsi_error *err)
{
	const size_t word_off = SDSI_STATE_OFF_SIZE_WORDS + (size_t)index * 4;
	const uint32_t word = sdsi_le32(buf + word_off);
	const uint64_t size = (uint64_t)(word & SDSI_BLOB_SIZE_MASK) * 4;
	const uint64_t start = *cursor;
	const uint8_t *blob;
	uint64_t bundles_end;

	lic->index = index;
	lic->offset = (size_t)start;
	lic->size = (uint32_t)size;
	lic->valid = word & SDSI_BLOB_VALID;
	if (size == 0) {
		if (lic->valid)
			return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)word_off,
					 "state certificate: license %u: size word 0x%08x has the valid bit but a size of 0",
					 index, word);
		return 0;	/* an empty slot: no blob content provisioned */
	}
	if (size < SDSI_BLOB_HEADER_SIZE)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)word_off,
				 "state certificate: license %u: size %llu bytes is smaller than the %u-byte blob header",
				 index, (unsigned long long)size, SDSI_BLOB_HEADER_SIZE);
	if (start + size > len)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)word_off,
				 "state certificate: license %u at 0x%llx: size %llu bytes runs past the end (%zu bytes present)",
				 index, (unsigned long long)start, (unsigned long long)size, len);
	blob = buf + start;
	lic->present = true;
	sdsi_license_header_get(blob, &lic->type, &lic->id, &lic->ppin, &lic->previous_ppin,
				&lic->revision, &lic->num_features);
	bundles_end = SDSI_BLOB_HEADER_SIZE + (uint64_t)lic->num_features * SDSI_BUNDLE_SIZE;
	if (bundles_end > size)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED,
				 (long)(start + SDSI_BLOB_OFF_NUM_BUNDLES),
				 "state certificate: license %u: %u feature bundles need %llu bytes, the blob has %llu",
				 index, lic->num_features, (unsigned long long)bundles_end,
				 (unsigned long long)size);
	lic->features = blob + SDSI_BLOB_HEADER_SIZE;
	*cursor = start + size;
	return 0;
}

int sdsi_decode_state_cert(const uint8_t *buf, size_t len, struct sdsi_state_cert *cert,
			   struct sdsi_error *err)
{
	uint64_t key_off, cursor;
	int ret;

	sdsi_clear_error(err);
	memset(cert, 0, sizeof(*cert));
	ret = sdsi_check_cert_header("state certificate", len, SDSI_STATE_HEADER_SIZE, err);
	if (ret)
		return ret;
	cert->content_type = sdsi_le32(buf + SDSI_STATE_OFF_CONTENT_TYPE);
	cert->region_rev_id = sdsi_le32(buf + SDSI_STATE_OFF_REGION_REV);
	cert->header_size = sdsi_le32(buf + SDSI_STATE_OFF_HEADER_SIZE);
	cert->total_size = sdsi_le32(buf + SDSI_STATE_OFF_TOTAL_SIZE);
	cert->key_size = sdsi_le32(buf + SDSI_STATE_OFF_KEY_SIZE);
	cert->num_licenses = sdsi_le32(buf + SDSI_STATE_OFF_NUM_LICENSES);

	key_off = SDSI_STATE_OFF_SIZE_WORDS + (uint64_t)cert->num_licenses * 4;
	if (key_off > len)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_STATE_OFF_NUM_LICENSES,
				 "state certificate: %u licenses need size words up to 0x%llx, only %zu bytes present",
				 cert->num_licenses, (unsigned long long)key_off, len);

	/*
	 * The header is the six fields and the size words: it cannot be smaller
	 * than that, nor larger than the certificate.  What lies between is left
	 * to the hardware, whose reading of "the entire header" is not known.
	 * A region never written (empty, every field 0) has no header size.
	 */
	if (cert->header_size == 0 && cert->content_type == SDSI_STATE_CONTENT_EMPTY &&
	    cert->num_licenses == 0)
		return 0;
	if ((uint64_t)cert->header_size * 4 < key_off)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_STATE_OFF_HEADER_SIZE,
				 "state certificate: header size %u dwords (%llu bytes) cannot hold the %u-byte header and %u license size words (%llu bytes)",
				 cert->header_size, (unsigned long long)cert->header_size * 4,
				 SDSI_STATE_HEADER_SIZE, cert->num_licenses,
				 (unsigned long long)key_off);
	if ((uint64_t)cert->header_size * 4 > len)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_STATE_OFF_HEADER_SIZE,
				 "state certificate: header size %u dwords (%llu bytes) runs past the end (%zu bytes present)",
				 cert->header_size, (unsigned long long)cert->header_size * 4, len);

	if (cert->content_type != SDSI_STATE_CONTENT_EMPTY &&
	    cert->content_type != SDSI_STATE_CONTENT_KEY &&
	    cert->content_type != SDSI_STATE_CONTENT_KEY_BLOBS)
		cert->warnings |= SDSI_STATE_WARN_CONTENT_TYPE;

	/* Nothing provisioned yet: whatever follows the header means nothing. */
	if (cert->content_type == SDSI_STATE_CONTENT_EMPTY && cert->num_licenses == 0)
		return 0;
	if (key_off + SDSI_STATE_KEY_INFO_SIZE > len)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)key_off,
				 "state certificate: the %u-byte license key info at 0x%llx runs past the end (%zu bytes present)",
				 SDSI_STATE_KEY_INFO_SIZE, (unsigned long long)key_off, len);
	cert->key_present = true;
	cert->key_rev_id = sdsi_le32(buf + key_off);
	memcpy(cert->key_image, buf + key_off + SDSI_STATE_KEY_OFF_IMAGE,
	       SDSI_STATE_KEY_IMAGE_SIZE);
	if (cert->key_size != SDSI_STATE_KEY_SIZE_DWORDS)
		cert->warnings |= SDSI_STATE_WARN_KEY_SIZE;

	if (cert->num_licenses == 0)
		return 0;
	cert->licenses = calloc(cert->num_licenses, sizeof(*cert->licenses));
	if (!cert->licenses)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1,
				 "state certificate: out of memory for %u licenses", cert->num_licenses);
	cursor = key_off + SDSI_STATE_KEY_INFO_SIZE;
	for (uint32_t i = 0; i < cert->num_licenses; i++) {
		ret = decode_license(buf, len, i, &cursor, &cert->licenses[i], err);
		if (ret) {
			sdsi_state_cert_free(cert);
			return ret;
		}
	}
	return 0;
}
