// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bytes of the socket<N>.nvram file (format in docs/model.md): the image
 * of a socket's NVRAM, and the checks of every byte of one before any of it
 * is trusted.  A file that is not this socket's is refused, never repaired.
 * Reading and writing the file itself is nvram_io.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <sdsi/nvram_file.h>

#include "model_priv.h"

#define NVRAM_FILE_MAX		(SDSI_NVRAM_HEADER_LEN + SDSI_NVRAM_FIXED_BODY_LEN + \
				 SDSI_NVRAM_METER_LEN * MODEL_MAX_METERS + \
				 4u * MODEL_MAX_LICENSES + SDSI_READ_MSG_MAX + \
				 SDSI_NVRAM_CRC_LEN)

__attribute__((format(printf, 5, 6)))
static int refuse(char *err, size_t errlen, const char *path, int code,
		  const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "NVRAM file %s refused: %s", path, reason);
	return code;
}

size_t nvram_image_encode(const struct sdsi_model *m, const struct model_nvram *nv,
			  uint8_t *buf)
{
	size_t off = SDSI_NVRAM_OFF_METERS, blob = 0;
	uint32_t i;

	memset(buf, 0, SDSI_NVRAM_OFF_METERS);
	memcpy(buf, SDSI_NVRAM_MAGIC, SDSI_NVRAM_MAGIC_LEN);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_VERSION, SDSI_NVRAM_VERSION);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_GUID, m->guid);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_SOCKET, m->socket_index);
	sdsi_put_le64(buf + SDSI_NVRAM_OFF_PPIN, nv->ppin);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_FLAGS,
		 (nv->key_provisioned ? SDSI_NVRAM_FLAG_KEY : 0) |
		 (nv->licensor_key_known ? SDSI_NVRAM_FLAG_LICENSOR_KEY : 0));
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_KEY_REV, nv->key_rev);
	memcpy(buf + SDSI_NVRAM_OFF_KEY_IMAGE, nv->key_image, SDSI_STATE_KEY_IMAGE_SIZE);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_WEAR, nv->wear);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_NUM_LIC, nv->num_licenses);
	memcpy(buf + SDSI_NVRAM_OFF_LICENSOR, nv->licensor_key, MODEL_PUBKEY_SIZE);
	sdsi_put_le64(buf + SDSI_NVRAM_OFF_POWERED, nv->powered_ns);
	sdsi_put_le64(buf + SDSI_NVRAM_OFF_LATCHED, nv->latched_powered_ns);
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_NUM_METERS, nv->num_meters);
	for (i = 0; i < nv->num_meters; i++) {
		sdsi_put_le32(buf + off, nv->meters[i].code);
		sdsi_put_le64(buf + off + SDSI_NVRAM_METER_OFF_TOTAL, nv->meters[i].total_ns);
		sdsi_put_le64(buf + off + SDSI_NVRAM_METER_OFF_LATCHED,
			      nv->meters[i].latched_ns);
		off += SDSI_NVRAM_METER_LEN;
	}
	for (i = 0; i < nv->num_licenses; i++) {
		uint32_t len = (nv->license_words[i] & SDSI_BLOB_SIZE_MASK) * 4;

		sdsi_put_le32(buf + off, nv->license_words[i]);
		memcpy(buf + off + 4, nv->blobs + blob, len);
		off += 4 + len;
		blob += len;
	}
	sdsi_put_le32(buf + SDSI_NVRAM_OFF_BODY_LEN, (uint32_t)(off - SDSI_NVRAM_HEADER_LEN));
	sdsi_put_le32(buf + off, sdsi_nvram_crc32(buf, off));
	return off + SDSI_NVRAM_CRC_LEN;
}

static int decode_meters(const uint8_t *buf, size_t end, size_t *off,
			 struct model_nvram *nv, const char *path, char *err,
			 size_t errlen)
{
	uint32_t i;

	nv->powered_ns = sdsi_le64(buf + SDSI_NVRAM_OFF_POWERED);
	nv->latched_powered_ns = sdsi_le64(buf + SDSI_NVRAM_OFF_LATCHED);
	nv->num_meters = sdsi_le32(buf + SDSI_NVRAM_OFF_NUM_METERS);
	if (nv->num_meters > MODEL_MAX_METERS ||
	    (end - SDSI_NVRAM_OFF_METERS) / SDSI_NVRAM_METER_LEN < nv->num_meters)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: %u meters do not fit", nv->num_meters);
	/* The latch point is the last 8-hour boundary of powered-up time. */
	if (nv->latched_powered_ns % MODEL_LATCH_PERIOD_NS ||
	    nv->latched_powered_ns > nv->powered_ns ||
	    nv->powered_ns - nv->latched_powered_ns >= MODEL_LATCH_PERIOD_NS)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: the meter latch point does not match the powered-up time");
	for (i = 0; i < nv->num_meters; i++) {
		struct model_meter *meter = &nv->meters[i];

		meter->code = sdsi_le32(buf + *off);
		meter->total_ns = sdsi_le64(buf + *off + SDSI_NVRAM_METER_OFF_TOTAL);
		meter->latched_ns = sdsi_le64(buf + *off + SDSI_NVRAM_METER_OFF_LATCHED);
		if (meter->total_ns > nv->powered_ns ||
		    meter->latched_ns > meter->total_ns)
			return refuse(err, errlen, path, -EPROTO,
				      "corrupt: meter %u counts more than the powered-up time",
				      i);
		*off += SDSI_NVRAM_METER_LEN;
	}
	return 0;
}

static int decode_licenses(const uint8_t *buf, size_t off, size_t end,
			   struct model_nvram *nv, const char *path, char *err,
			   size_t errlen)
{
	uint32_t i;

	if (nv->num_licenses > MODEL_MAX_LICENSES)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: %u licences, at most %u fit",
			      nv->num_licenses, MODEL_MAX_LICENSES);
	for (i = 0; i < nv->num_licenses; i++) {
		uint32_t word, len;

		if (end - off < 4)
			return refuse(err, errlen, path, -EPROTO,
				      "corrupt: licence %u runs past the end", i);
		word = sdsi_le32(buf + off);
		len = (word & SDSI_BLOB_SIZE_MASK) * 4;
		if (!len || end - off - 4 < len ||
		    nv->blobs_len + len > sizeof(nv->blobs))
			return refuse(err, errlen, path, -EPROTO,
				      "corrupt: licence %u has a bad size", i);
		/*
		 * Only authenticated licences are ever stored: an entry must
		 * at least hold a licence header and the bundles it counts,
		 * or the state certificate built from it would be malformed.
		 */
		if (len < SDSI_BLOB_HEADER_SIZE ||
		    (len - SDSI_BLOB_HEADER_SIZE) / SDSI_BUNDLE_SIZE <
		    sdsi_le32(buf + off + 4 + SDSI_BLOB_OFF_NUM_BUNDLES))
			return refuse(err, errlen, path, -EPROTO,
				      "corrupt: licence %u of %u bytes is not a licence (header and bundles)",
				      i, len);
		nv->license_words[i] = word;
		memcpy(nv->blobs + nv->blobs_len, buf + off + 4, len);
		nv->blobs_len += len;
		off += 4 + len;
	}
	if (off != end || !state_region_fits(nv))
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: the licence list does not match its size");
	return 0;
}

static int decode(const struct sdsi_model *m, uint64_t cfg_ppin,
		  const uint8_t *buf, size_t len, struct model_nvram *nv,
		  char *err, size_t errlen)
{
	const char *path = m->nvram_path;
	uint32_t version, body, fixed, flags;
	size_t end, off = SDSI_NVRAM_OFF_V1_LICENSES;
	int ret;

	if (len >= SDSI_NVRAM_MAGIC_LEN && memcmp(buf, SDSI_NVRAM_MAGIC, SDSI_NVRAM_MAGIC_LEN))
		return refuse(err, errlen, path, -EINVAL,
			      "foreign: not an sdsi NVRAM file (bad magic)");
	if (len < SDSI_NVRAM_HEADER_LEN)
		return refuse(err, errlen, path, -EPROTO,
			      "truncated: %zu bytes, the header alone is %u",
			      len, SDSI_NVRAM_HEADER_LEN);
	version = sdsi_le32(buf + SDSI_NVRAM_OFF_VERSION);
	if (version > SDSI_NVRAM_VERSION)
		return refuse(err, errlen, path, -EPROTONOSUPPORT,
			      "written by a newer version (format %u, this build reads up to %u)",
			      version, SDSI_NVRAM_VERSION);
	if (!version)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: format version 0");
	body = sdsi_le32(buf + SDSI_NVRAM_OFF_BODY_LEN);
	if (len < (size_t)SDSI_NVRAM_HEADER_LEN + body + SDSI_NVRAM_CRC_LEN)
		return refuse(err, errlen, path, -EPROTO,
			      "truncated: %zu bytes, the header announces %zu",
			      len, (size_t)SDSI_NVRAM_HEADER_LEN + body + SDSI_NVRAM_CRC_LEN);
	end = SDSI_NVRAM_HEADER_LEN + body;
	if (len != end + SDSI_NVRAM_CRC_LEN)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: %zu bytes after the checksum",
			      len - end - SDSI_NVRAM_CRC_LEN);
	if (sdsi_le32(buf + end) != sdsi_nvram_crc32(buf, end))
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: checksum mismatch");
	fixed = version == 1 ? SDSI_NVRAM_V1_FIXED_BODY_LEN : SDSI_NVRAM_FIXED_BODY_LEN;
	if (body < fixed)
		return refuse(err, errlen, path, -EPROTO,
			      "corrupt: body of %u bytes, at least %u expected",
			      body, fixed);

	if (sdsi_le32(buf + SDSI_NVRAM_OFF_GUID) != m->guid ||
	    sdsi_le32(buf + SDSI_NVRAM_OFF_SOCKET) != m->socket_index)
		return refuse(err, errlen, path, -EINVAL,
			      "foreign: made for GUID 0x%x socket %u, this is GUID 0x%x socket %u",
			      sdsi_le32(buf + SDSI_NVRAM_OFF_GUID), sdsi_le32(buf + SDSI_NVRAM_OFF_SOCKET),
			      m->guid, m->socket_index);
	memset(nv, 0, sizeof(*nv));
	nv->ppin = sdsi_le64(buf + SDSI_NVRAM_OFF_PPIN);
	if (!nv->ppin)
		return refuse(err, errlen, path, -EPROTO, "corrupt: PPIN 0");
	if (cfg_ppin && nv->ppin != cfg_ppin)
		return refuse(err, errlen, path, -EINVAL,
			      "foreign: PPIN 0x%llx, this socket is configured with 0x%llx",
			      (unsigned long long)nv->ppin,
			      (unsigned long long)cfg_ppin);
	flags = sdsi_le32(buf + SDSI_NVRAM_OFF_FLAGS);
	nv->key_provisioned = flags & SDSI_NVRAM_FLAG_KEY;
	nv->key_rev = sdsi_le32(buf + SDSI_NVRAM_OFF_KEY_REV);
	memcpy(nv->key_image, buf + SDSI_NVRAM_OFF_KEY_IMAGE, SDSI_STATE_KEY_IMAGE_SIZE);
	nv->wear = sdsi_le32(buf + SDSI_NVRAM_OFF_WEAR);
	nv->num_licenses = sdsi_le32(buf + SDSI_NVRAM_OFF_NUM_LIC);
	/* Version 1 kept the key image only: CAPs need the AKC again. */
	if (version >= 2) {
		nv->licensor_key_known = nv->key_provisioned &&
					 (flags & SDSI_NVRAM_FLAG_LICENSOR_KEY);
		memcpy(nv->licensor_key, buf + SDSI_NVRAM_OFF_LICENSOR, MODEL_PUBKEY_SIZE);
		off = SDSI_NVRAM_OFF_METERS;
		ret = decode_meters(buf, end, &off, nv, path, err, errlen);
		if (ret)
			return ret;
	}
	return decode_licenses(buf, off, end, nv, path, err, errlen);
}

size_t nvram_image_max(void)
{
	return NVRAM_FILE_MAX;
}

int nvram_image_decode(const struct sdsi_model *m, uint64_t cfg_ppin,
		       const uint8_t *buf, size_t len, struct model_nvram *nv,
		       char *err, size_t errlen)
{
	if (len > NVRAM_FILE_MAX)
		return refuse(err, errlen, m->nvram_path, -EPROTO,
			      "corrupt: longer than the largest NVRAM image");
	return decode(m, cfg_ppin, buf, len, nv, err, errlen);
}
