// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Byte codecs of the AKC and the bare licence blob (docs/formats.md); the
 * CAP's are license_cap.c.
 * Every decoder accepts exactly one encoding of a value, so a signature over
 * the received bytes and a signature over a re-encoding are the same thing,
 * and any changed byte is either refused here or caught by the signature.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "license_internal.h"
#include "sdsi/license_header.h"

_Static_assert(SDSI_AKC_SIG_OFFSET == SDSI_AKC_KEY_OFFSET + SDSI_LICENSE_PUBKEY_SIZE,
	       "AKC signature follows the key");
_Static_assert(SDSI_AKC_SIZE == SDSI_AKC_SIG_OFFSET + SDSI_LICENSE_SIG_SIZE,
	       "AKC ends with its signature");

const char *sdsi_lic_kind_name(enum sdsi_payload_kind kind)
{
	return sdsi_payload_lower_name(kind);
}

const char *sdsi_lic_type_name(uint32_t type)
{
	return sdsi_license_type_name(type);
}

static bool code_char_valid(unsigned int c)
{
	return c > 0x20 && c < 0x7f;
}

bool sdsi_lic_code_valid(uint32_t code)
{
	int shift;

	for (shift = 24; shift >= 0; shift -= 8)
		if (!code_char_valid((code >> shift) & 0xffu))
			return false;
	return true;
}

int sdsi_lic_code_parse(const char *text, uint32_t *code)
{
	size_t i;

	if (strlen(text) != 4)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		if (!code_char_valid((unsigned char)text[i]))
			return -EINVAL;
	*code = SDSI_FOURCC(text[0], text[1], text[2], text[3]);
	return 0;
}

void sdsi_lic_code_format(uint32_t code, char text[5])
{
	unsigned int c;
	int i;

	for (i = 0; i < 4; i++) {
		c = (code >> (24 - 8 * i)) & 0xffu;
		text[i] = code_char_valid(c) ? (char)c : '?';
	}
	text[4] = '\0';
}

/* Checks shared by the blob encoder and decoder; offsets are blob-relative. */
int sdsi_lic_blob_check(const struct sdsi_lic_blob *lic, size_t base,
			 struct sdsi_lic_error *err)
{
	uint32_t i;
	char text[5];

	if (!sdsi_lic_type_name(lic->type))
		return sdsi_lic_fail(err, -EINVAL, base + SDSI_BLOB_OFF_TYPE,
				     "licence type %u is neither %u (%s) nor %u (%s)", lic->type,
				     SDSI_LICENSE_ONE_TIME, sdsi_license_type_name(SDSI_LICENSE_ONE_TIME),
				     SDSI_LICENSE_METERED, sdsi_license_type_name(SDSI_LICENSE_METERED));
	if (lic->bundle_count == 0)
		return sdsi_lic_fail(err, -EINVAL, base + SDSI_BLOB_OFF_NUM_BUNDLES,
				     "bundle count is 0: a licence enables at least one feature");
	if (lic->bundle_count > SDSI_CAP_MAX_BUNDLES)
		return sdsi_lic_fail(err, -EOVERFLOW, base + SDSI_BLOB_OFF_NUM_BUNDLES,
				     "bundle count %u: at most %u bundles fit in %u bytes",
				     lic->bundle_count, SDSI_CAP_MAX_BUNDLES,
				     SDSI_LICENSE_BLOB_MAX);
	for (i = 0; i < lic->bundle_count; i++) {
		if (sdsi_lic_code_valid(lic->bundles[i].code))
			continue;
		sdsi_lic_code_format(lic->bundles[i].code, text);
		return sdsi_lic_fail(err, -EINVAL,
				     base + SDSI_BLOB_HEADER_SIZE + i * SDSI_BUNDLE_SIZE,
				     "bundle %u code 0x%08x (\"%s\") is not 4 printable non-space ASCII characters",
				     i, lic->bundles[i].code, text);
	}
	return 0;
}

void sdsi_lic_blob_put(const struct sdsi_lic_blob *lic, uint8_t *p)
{
	uint8_t *bundle;
	uint32_t i;

	sdsi_put_le32(p + SDSI_BLOB_OFF_TYPE, lic->type);
	sdsi_put_le64(p + SDSI_BLOB_OFF_ID, lic->id);
	sdsi_put_le64(p + SDSI_BLOB_OFF_PPIN, lic->ppin);
	sdsi_put_le64(p + SDSI_BLOB_OFF_PREV_PPIN, lic->previous_ppin);
	sdsi_put_le32(p + SDSI_BLOB_OFF_REVISION, lic->revision);
	sdsi_put_le32(p + SDSI_BLOB_OFF_NUM_BUNDLES, lic->bundle_count);
	for (i = 0; i < lic->bundle_count; i++) {
		bundle = p + SDSI_BLOB_HEADER_SIZE + i * SDSI_BUNDLE_SIZE;
		sdsi_put_le32(bundle + SDSI_BUNDLE_OFF_CODE, lic->bundles[i].code);
		memcpy(bundle + SDSI_BUNDLE_OFF_RESERVED, lic->bundles[i].reserved,
		       SDSI_BUNDLE_RESERVED_SIZE);
	}
}

/*
 * Decode the licence blob starting at p (byte base of the whole input), with
 * avail bytes left in the input.  Trailing bytes are the caller's business.
 */
static int license_get(const uint8_t *p, size_t avail, size_t base,
		       struct sdsi_lic_blob *lic, struct sdsi_lic_error *err)
{
	const uint8_t *bundle;
	uint32_t i;
	size_t need;

	if (avail < SDSI_BLOB_HEADER_SIZE)
		return sdsi_lic_fail(err, -EINVAL, base + avail,
				     "truncated: the licence header needs %u bytes from offset %zu, %zu present",
				     SDSI_BLOB_HEADER_SIZE, base, avail);
	memset(lic, 0, sizeof(*lic));
	sdsi_license_header_get(p, &lic->type, &lic->id, &lic->ppin, &lic->previous_ppin,
				&lic->revision, &lic->bundle_count);
	if (lic->bundle_count > SDSI_CAP_MAX_BUNDLES)
		return sdsi_lic_fail(err, -EINVAL, base + SDSI_BLOB_OFF_NUM_BUNDLES,
				     "bundle count %u exceeds the %u that fit in %u bytes",
				     lic->bundle_count, SDSI_CAP_MAX_BUNDLES,
				     SDSI_LICENSE_BLOB_MAX);
	need = SDSI_LICENSE_BLOB_SIZE(lic->bundle_count);
	if (avail < need)
		return sdsi_lic_fail(err, -EINVAL, base + avail,
				     "truncated: bundle count %u (at offset %zu) needs %zu bytes of licence, %zu present",
				    lic->bundle_count, base + SDSI_BLOB_OFF_NUM_BUNDLES,
				    need, avail);
	for (i = 0; i < lic->bundle_count; i++) {
		bundle = p + SDSI_BLOB_HEADER_SIZE + i * SDSI_BUNDLE_SIZE;
		lic->bundles[i].code = sdsi_le32(bundle + SDSI_BUNDLE_OFF_CODE);
		memcpy(lic->bundles[i].reserved, bundle + SDSI_BUNDLE_OFF_RESERVED,
		       SDSI_BUNDLE_RESERVED_SIZE);
	}
	/* Same rules as the encoder; the count range error is -EINVAL here. */
	return sdsi_lic_blob_check(lic, base, err) ? -EINVAL : 0;
}

/*
 * What an encoder checks before it writes a byte: the licence keeps the
 * rules, and the buffer holds the need bytes of the whole (what, in the
 * message).
 */
int sdsi_lic_blob_encodable(const struct sdsi_lic_blob *lic, size_t base,
			     size_t size, size_t need, const char *what,
			     struct sdsi_lic_error *err)
{
	int rc = sdsi_lic_blob_check(lic, base, err);

	if (rc)
		return rc;
	if (size < need)
		return sdsi_lic_fail(err, -ENOSPC, SDSI_LIC_NO_OFFSET,
				     "buffer of %zu bytes, the %s needs %zu",
				     size, what, need);
	return 0;
}

int sdsi_lic_blob_encode(const struct sdsi_lic_blob *lic, void *buf,
			 size_t size, size_t *len,
			     struct sdsi_lic_error *err)
{
	size_t need = SDSI_LICENSE_BLOB_SIZE(lic->bundle_count);
	int rc;

	rc = sdsi_lic_blob_encodable(lic, 0, size, need, "licence", err);
	if (rc)
		return rc;
	sdsi_lic_blob_put(lic, buf);
	*len = need;
	return 0;
}

int sdsi_lic_blob_decode(const void *buf, size_t len,
			     struct sdsi_lic_blob *lic,
			     struct sdsi_lic_error *err)
{
	size_t need;
	int rc;

	rc = license_get(buf, len, 0, lic, err);
	if (rc)
		return rc;
	need = SDSI_LICENSE_BLOB_SIZE(lic->bundle_count);
	if (len != need)
		return sdsi_lic_fail(err, -EINVAL, need,
				     "%zu bytes after the last of %u bundles",
				     len - need, lic->bundle_count);
	return 0;
}

static void header_put(uint8_t *p, uint32_t magic, size_t total)
{
	sdsi_put_le32(p + SDSI_LICENSE_OFF_MAGIC, magic);
	sdsi_put_le32(p + SDSI_LICENSE_OFF_VERSION, SDSI_LICENSE_FORMAT_VERSION);
	sdsi_put_le32(p + SDSI_LICENSE_OFF_TOTAL_SIZE, (uint32_t)total);
}

/* Magic, version and the mailbox limit: what makes the bytes ours at all. */
static int header_check(const uint8_t *p, size_t len, uint32_t magic,
			const char *kind, struct sdsi_lic_error *err)
{
	uint32_t found;
	char text[5];

	if (len < SDSI_AKC_KEY_REV_OFFSET)
		return sdsi_lic_fail(err, -EINVAL, len,
				     "truncated: %zu bytes, the %s header needs %u",
				     len, kind, SDSI_AKC_KEY_REV_OFFSET);
	found = sdsi_le32(p + SDSI_LICENSE_OFF_MAGIC);
	if (found != magic) {
		sdsi_lic_code_format(found, text);
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_OFF_MAGIC,
				     "foreign blob: magic 0x%08x (\"%s\") is not the sdsi %s magic",
				     found, text, kind);
	}
	found = sdsi_le32(p + SDSI_LICENSE_OFF_VERSION);
	if (found != SDSI_LICENSE_FORMAT_VERSION)
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_OFF_VERSION,
				     "foreign blob: %s format version %u, this build reads version %u",
				     kind, found, SDSI_LICENSE_FORMAT_VERSION);
	if (len > SDSI_LICENSE_BLOB_MAX)
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_BLOB_MAX,
				     "oversized: %zu bytes, a mailbox write carries at most %u",
				     len, SDSI_LICENSE_BLOB_MAX);
	return 0;
}

/* The total size field must name exactly the bytes the content implies. */
static int size_check(const uint8_t *p, size_t len, size_t total,
		      const char *kind, struct sdsi_lic_error *err)
{
	uint32_t field = sdsi_le32(p + SDSI_LICENSE_OFF_TOTAL_SIZE);

	if (len < total)
		return sdsi_lic_fail(err, -EINVAL, len,
				     "truncated: this %s is %zu bytes long, %zu present",
				     kind, total, len);
	if (field != total)
		return sdsi_lic_fail(err, -EINVAL, SDSI_LICENSE_OFF_TOTAL_SIZE,
				     "total size field says %u bytes, this %s is %zu",
				     field, kind, total);
	if (len > total)
		return sdsi_lic_fail(err, -EINVAL, total,
				     "%zu trailing bytes after the %s signature",
				     len - total, kind);
	return 0;
}

int sdsi_lic_akc_encode(const struct sdsi_lic_akc *akc, void *buf, size_t size,
			size_t *len)
{
	uint8_t *p = buf;

	if (size < SDSI_AKC_SIZE)
		return -ENOSPC;
	header_put(p, SDSI_AKC_MAGIC, SDSI_AKC_SIZE);
	sdsi_put_le32(p + SDSI_AKC_KEY_REV_OFFSET, akc->key_revision);
	memcpy(p + SDSI_AKC_KEY_OFFSET, akc->licensor_key,
	       SDSI_LICENSE_PUBKEY_SIZE);
	memcpy(p + SDSI_AKC_SIG_OFFSET, akc->signature, SDSI_LICENSE_SIG_SIZE);
	*len = SDSI_AKC_SIZE;
	return 0;
}

int sdsi_lic_akc_decode(const void *buf, size_t len, struct sdsi_lic_akc *akc,
		    struct sdsi_lic_error *err)
{
	const uint8_t *p = buf;
	int rc;

	rc = header_check(p, len, SDSI_AKC_MAGIC, "AKC", err);
	if (!rc)
		rc = size_check(p, len, SDSI_AKC_SIZE, "AKC", err);
	if (rc)
		return rc;
	akc->key_revision = sdsi_le32(p + SDSI_AKC_KEY_REV_OFFSET);
	memcpy(akc->licensor_key, p + SDSI_AKC_KEY_OFFSET,
	       SDSI_LICENSE_PUBKEY_SIZE);
	memcpy(akc->signature, p + SDSI_AKC_SIG_OFFSET, SDSI_LICENSE_SIG_SIZE);
	return 0;
}
