// SPDX-License-Identifier: GPL-2.0-only
/*
 * GET_MEASUREMENTS.  What a measurement measures is ours (Intel publishes
 * only "the NVRAM region of the state certificate", "of the meter
 * certificate"): index 1 is the SHA-384 of exactly the bytes a read of
 * state_certificate returns at that moment (READ_STATE_CERT's answer),
 * index 2, on a part that meters, that of meter_certificate's (the latched
 * READ_METER_CERT answer); each a DMTF measurement block of type hardware
 * configuration.  L1 is every GET_MEASUREMENTS and MEASUREMENTS since the
 * last signed answer or the last other request; a signed answer signs it
 * and starts it anew.  Fault attest-measurement: index 1 measures a
 * different certificate (the state certificate with one bit flipped).
 */
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "model_priv.h"

static uint32_t fail(uint8_t code)
{
	return SPDM_FAIL | code;
}

unsigned int spdm_measure_count(const struct sdsi_model *m)
{
	return (m->features & SDSI_FEATURE_METERING) ? 2u : 1u;
}

/* One block: Index, specification, size, then type, value size, SHA-384. */
static void block(uint8_t *out, uint8_t index, const uint8_t *bytes,
		  uint32_t len)
{
	uint32_t size = SDSI_SPDM_DMTF_HDR_SIZE + SDSI_SPDM_HASH_SIZE;

	out[0] = index;
	out[1] = SDSI_SPDM_MEAS_SPEC_DMTF;
	out[2] = (uint8_t)size;
	out[3] = (uint8_t)(size >> 8);
	out[4] = SDSI_SPDM_DMTF_TYPE_HW_CONFIG;
	out[5] = SDSI_SPDM_HASH_SIZE;
	out[6] = 0;
	EVP_Digest(bytes, len, out + SDSI_SPDM_BLOCK_HDR_SIZE + SDSI_SPDM_DMTF_HDR_SIZE,
		   NULL, EVP_sha384(), NULL);
}

unsigned int spdm_measure_blocks(struct sdsi_model *m, uint8_t index,
				 uint8_t *out, uint32_t *out_len)
{
	uint8_t cert[MODEL_MSG_MAX];
	unsigned int n = 0;
	uint32_t len;

	if (index == SDSI_SPDM_MEAS_INDEX_STATE || index == SDSI_SPDM_MEAS_ALL) {
		len = certs_state(m, cert);
		if (fault_take(m, SDSI_FAULT_ATTEST_MEASUREMENT, NULL))
			cert[len - 1] ^= 1;
		block(out, SDSI_SPDM_MEAS_INDEX_STATE, cert, len);
		n++;
	}
	if ((index == SDSI_SPDM_MEAS_INDEX_METER || index == SDSI_SPDM_MEAS_ALL) &&
	    spdm_measure_count(m) >= SDSI_SPDM_MEAS_INDEX_METER) {
		len = certs_meter(m, false, model_now(m), cert);
		block(out + n * SDSI_SPDM_BLOCK_SIZE, SDSI_SPDM_MEAS_INDEX_METER,
		      cert, len);
		n++;
	}
	*out_len = n * SDSI_SPDM_BLOCK_SIZE;
	return n;
}

uint32_t spdm_measurements(struct sdsi_model *m, const uint8_t *req,
			   uint32_t len, uint8_t *rsp)
{
	const struct model_identity *id = identity_current(m);
	struct model_spdm *s = &m->spdm;
	bool sign = req[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_MEAS_ATTR_SIGNED;
	uint8_t what = req[SDSI_SPDM_OFF_PARAM2];
	uint32_t record = 0, off;
	unsigned int n = 0;

	if (len != (sign ? SDSI_SPDM_GETMEAS_SIGNED_SIZE : SDSI_SPDM_GETMEAS_SIZE) ||
	    (req[SDSI_SPDM_OFF_PARAM1] & ~SDSI_SPDM_MEAS_ATTR_SIGNED) ||
	    (sign && !id->key))
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	if (what != SDSI_SPDM_MEAS_COUNT && what != SDSI_SPDM_MEAS_ALL &&
	    what > spdm_measure_count(m))
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);

	rsp[SDSI_SPDM_OFF_VERSION] = SDSI_SPDM_VERSION_10;
	rsp[SDSI_SPDM_OFF_CODE] = SDSI_SPDM_MEASUREMENTS;
	rsp[SDSI_SPDM_OFF_PARAM1] = what == SDSI_SPDM_MEAS_COUNT ?
				    (uint8_t)spdm_measure_count(m) : 0;
	rsp[SDSI_SPDM_OFF_PARAM2] = 0;
	if (what != SDSI_SPDM_MEAS_COUNT)
		n = spdm_measure_blocks(m, what, rsp + SDSI_SPDM_MEAS_OFF_RECORD,
					&record);
	rsp[SDSI_SPDM_MEAS_OFF_BLOCKS] = (uint8_t)n;
	rsp[SDSI_SPDM_MEAS_OFF_RECORD_LEN] = (uint8_t)record;
	rsp[SDSI_SPDM_MEAS_OFF_RECORD_LEN + 1] = (uint8_t)(record >> 8);
	rsp[SDSI_SPDM_MEAS_OFF_RECORD_LEN + 2] = (uint8_t)(record >> 16);
	off = SDSI_SPDM_MEAS_OFF_RECORD + record;
	if (RAND_bytes(rsp + off, SDSI_SPDM_NONCE_SIZE) != 1)
		return fail(SDSI_SPDM_ERR_UNSPECIFIED);
	off += SDSI_SPDM_NONCE_SIZE;
	off = spdm_end_unsigned(s->l1, req, len, rsp, off);
	if (!sign)
		return off;
	if (spdm_sign_transcript(m, id->key, s->l1, rsp + off)) {
		spdm_hash_restart(s->l1);
		return fail(SDSI_SPDM_ERR_UNSPECIFIED);
	}
	spdm_hash_restart(s->l1);
	return off + SDSI_SPDM_SIG_SIZE;
}
