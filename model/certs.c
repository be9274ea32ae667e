// SPDX-License-Identifier: GPL-2.0-only
/*
 * The answers of the read commands: the state certificate (docs/interface.md
 * §3.1) built from the NVRAM, and the meter certificate (§3.2) built
 * from the clock and the metered licences in effect.  Where the layout is
 * ambiguous, docs/model.md records the reading chosen here.
 */
#include "model_priv.h"

#define STATE_HEADER_DWORDS	(SDSI_STATE_HEADER_SIZE / 4)
#define METER_VERSION		1u

static uint32_t content_type(const struct model_nvram *nv)
{
	if (nv->num_licenses)
		return SDSI_STATE_CONTENT_KEY_BLOBS;
	if (nv->key_provisioned)
		return SDSI_STATE_CONTENT_KEY;
	return SDSI_STATE_CONTENT_EMPTY;
}

uint32_t certs_state(const struct sdsi_model *m, uint8_t *out)
{
	const struct model_nvram *nv = &m->nv;
	uint32_t size = state_region_size(nv);
	uint32_t i, body;

	memset(out, 0, size);
	sdsi_put_le32(out + SDSI_STATE_OFF_CONTENT_TYPE, content_type(nv));
	/* The region is rewritten once per provisioning write. */
	sdsi_put_le32(out + SDSI_STATE_OFF_REGION_REV, nv->wear);
	sdsi_put_le32(out + SDSI_STATE_OFF_HEADER_SIZE, STATE_HEADER_DWORDS + nv->num_licenses);
	sdsi_put_le32(out + SDSI_STATE_OFF_TOTAL_SIZE, size);
	sdsi_put_le32(out + SDSI_STATE_OFF_KEY_SIZE, SDSI_STATE_KEY_SIZE_DWORDS);
	sdsi_put_le32(out + SDSI_STATE_OFF_NUM_LICENSES, nv->num_licenses);
	for (i = 0; i < nv->num_licenses; i++)
		sdsi_put_le32(out + SDSI_STATE_OFF_SIZE_WORDS + 4 * i,
			      nv->license_words[i]);

	body = SDSI_STATE_HEADER_SIZE + 4 * nv->num_licenses;
	sdsi_put_le32(out + body, nv->key_rev);
	memcpy(out + body + SDSI_STATE_KEY_OFF_IMAGE, nv->key_image,
	       SDSI_STATE_KEY_IMAGE_SIZE);
	memcpy(out + body + SDSI_STATE_KEY_INFO_SIZE, nv->blobs, nv->blobs_len);
	return size;
}

/*
 * The attested copy is latched every 8 hours of powered-up time; the current
 * one (control bit 33) is live.  MMRC counts all powered-up time, and each
 * code of a metered licence in effect the time it has been in effect
 * (meter.c); neither restarts at a power cycle.
 */
uint32_t certs_meter(const struct sdsi_model *m, bool current, uint64_t now,
		     uint8_t *out)
{
	uint32_t codes[MODEL_MAX_METERS], counters[MODEL_MAX_METERS];
	uint32_t mmrc, pairs, i;

	pairs = meter_read(m, now, !current, &mmrc, codes, counters);
	for (i = 0; i < pairs; i++) {
		uint8_t *pair = out + SDSI_METER_HEADER_SIZE +
				i * SDSI_METER_PAIR_SIZE;

		sdsi_put_le32(pair, codes[i]);
		sdsi_put_le32(pair + SDSI_METER_PAIR_OFF_COUNTER, counters[i]);
	}
	sdsi_put_le32(out + SDSI_METER_OFF_SIGNATURE, SDSI_METER_SIGNATURE);
	sdsi_put_le32(out + SDSI_METER_OFF_VERSION, METER_VERSION);
	sdsi_put_le64(out + SDSI_METER_OFF_PPIN, m->nv.ppin);
	sdsi_put_le32(out + SDSI_METER_OFF_UNIT, SDSI_METER_UNIT_MS_DEFAULT);
	sdsi_put_le32(out + SDSI_METER_OFF_BUNDLE_LENGTH, pairs * SDSI_METER_PAIR_SIZE);
	sdsi_put_le64(out + SDSI_METER_OFF_RESERVED, 0);
	sdsi_put_le32(out + SDSI_METER_OFF_MMRC_ENCODING, SDSI_METER_MMRC);
	sdsi_put_le32(out + SDSI_METER_OFF_MMRC_COUNTER, mmrc);
	return SDSI_METER_HEADER_SIZE + pairs * SDSI_METER_PAIR_SIZE;
}
