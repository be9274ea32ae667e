// SPDX-License-Identifier: GPL-2.0-only
/*
 * The answers of the read commands: the state certificate (reference section
 * 3.1) built from the NVRAM, and the meter certificate (section 3.2) built
 * from the clock and the metered licences in effect.  Where the layout is
 * ambiguous, docs/model.md records the reading chosen here.
 */
#include "model_priv.h"

#define STATE_HEADER_DWORDS	(SDSI_STATE_HEADER_SIZE / 4)
#define STATE_REGION_ALIGN	16u
#define METER_VERSION		1u

/* Offsets inside a licence blob (section 3.1, "License Blob Format"). */
#define BLOB_TYPE_OFF		0x00u
#define BLOB_BUNDLES_OFF	0x20u

static uint32_t align_up(uint32_t v, uint32_t to)
{
	return (v + to - 1) / to * to;
}

/* Total size counts the whole region, bytes, padded to 16 like the NVRAM. */
uint32_t certs_state_size(const struct model_nvram *nv)
{
	return align_up(SDSI_STATE_HEADER_SIZE + 4 * nv->num_licences +
			SDSI_STATE_KEY_INFO_SIZE + nv->blobs_len,
			STATE_REGION_ALIGN);
}

static uint32_t content_type(const struct model_nvram *nv)
{
	if (nv->num_licences)
		return SDSI_STATE_CONTENT_KEY_BLOBS;
	if (nv->key_provisioned)
		return SDSI_STATE_CONTENT_KEY;
	return SDSI_STATE_CONTENT_EMPTY;
}

uint32_t certs_state(const struct sdsi_model *m, uint8_t *out)
{
	const struct model_nvram *nv = &m->nv;
	uint32_t size = certs_state_size(nv);
	uint32_t i, body;

	memset(out, 0, size);
	put_le32(out + 0x00, content_type(nv));
	/* The region is rewritten once per provisioning write. */
	put_le32(out + 0x04, nv->wear);
	put_le32(out + 0x08, STATE_HEADER_DWORDS + nv->num_licences);
	put_le32(out + 0x0c, size);
	put_le32(out + 0x10, SDSI_STATE_KEY_SIZE_DWORDS);
	put_le32(out + 0x14, nv->num_licences);
	for (i = 0; i < nv->num_licences; i++)
		put_le32(out + SDSI_STATE_HEADER_SIZE + 4 * i,
			 nv->licence_words[i]);

	body = SDSI_STATE_HEADER_SIZE + 4 * nv->num_licences;
	put_le32(out + body, nv->key_rev);
	memcpy(out + body + 4, nv->key_image, SDSI_STATE_KEY_IMAGE_SIZE);
	memcpy(out + body + SDSI_STATE_KEY_INFO_SIZE, nv->blobs, nv->blobs_len);
	return size;
}

/*
 * Append one (feature code, counter) pair per bundle of each valid metered
 * licence in effect since power-on.  A blob too short for the bundles it
 * announces contributes the ones it holds.
 */
static uint32_t metered_pairs(const struct sdsi_model *m, uint32_t counter,
			      uint8_t *pairs)
{
	const struct model_nvram *nv = &m->nv;
	uint32_t n = 0, off = 0, i, k;

	for (i = 0; i < m->active_licences; i++) {
		uint32_t word = nv->licence_words[i];
		uint32_t len = (word & SDSI_BLOB_SIZE_MASK) * 4;
		const uint8_t *blob = nv->blobs + off;
		uint32_t bundles;

		off += len;
		if (!(word & SDSI_BLOB_VALID) ||
		    len < SDSI_BLOB_HEADER_SIZE ||
		    get_le32(blob + BLOB_TYPE_OFF) != SDSI_BLOB_TYPE_METERED)
			continue;
		bundles = get_le32(blob + BLOB_BUNDLES_OFF);
		for (k = 0; k < bundles && n < SDSI_METER_MAX_PAIRS; k++) {
			uint32_t code_off = SDSI_BLOB_HEADER_SIZE +
					    k * SDSI_BUNDLE_SIZE;

			if (code_off + 4 > len)
				break;
			memcpy(pairs + n * SDSI_METER_PAIR_SIZE,
			       blob + code_off, 4);
			put_le32(pairs + n * SDSI_METER_PAIR_SIZE + 4, counter);
			n++;
		}
	}
	return n;
}

/*
 * The attested copy is latched every 8 hours of powered-up time; the current
 * one (control bit 33) is live.  Every counter counts units of powered-up time
 * since the last power cycle: the master reference, and each metered feature,
 * which has been in use since power-on.
 */
uint32_t certs_meter(const struct sdsi_model *m, bool current, uint64_t now,
		     uint8_t *out)
{
	uint64_t unit_ns = (uint64_t)SDSI_METER_UNIT_MS_DEFAULT * 1000000u;
	uint64_t up = now - m->powered_on_at;
	uint64_t units;
	uint32_t counter, pairs;

	if (!current)
		up -= up % MODEL_LATCH_PERIOD_NS;
	units = up / unit_ns;
	counter = units > UINT32_MAX ? UINT32_MAX : (uint32_t)units;

	pairs = metered_pairs(m, counter, out + SDSI_METER_HEADER_SIZE);
	put_le32(out + 0x00, SDSI_METER_SIGNATURE);
	put_le32(out + 0x04, METER_VERSION);
	put_le64(out + 0x08, m->nv.ppin);
	put_le32(out + 0x10, SDSI_METER_UNIT_MS_DEFAULT);
	put_le32(out + 0x14, pairs * SDSI_METER_PAIR_SIZE);
	put_le64(out + 0x18, 0);
	put_le32(out + 0x20, SDSI_METER_MMRC);
	put_le32(out + 0x24, counter);
	return SDSI_METER_HEADER_SIZE + pairs * SDSI_METER_PAIR_SIZE;
}
