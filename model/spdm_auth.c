// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPDM answers that show the part's identity: DIGESTS and CERTIFICATE
 * (slot 0's chain, the only one) and CHALLENGE_AUTH (M1 signed by
 * spdm_transcript.c; DSP0274 1.0 signs the transcript's digest directly,
 * raw r || s).  A part made without an identity has an empty slot 0.  Faults: attest-chain
 * serves a chain from another root (with its key); the signature and its
 * attest-signature fault are spdm_transcript.c's.
 */
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "model_priv.h"

static uint32_t fail(uint8_t code)
{
	return SPDM_FAIL | code;
}

static void header(uint8_t *rsp, uint8_t code, uint8_t param1, uint8_t param2)
{
	rsp[SDSI_SPDM_OFF_VERSION] = SDSI_SPDM_VERSION_10;
	rsp[SDSI_SPDM_OFF_CODE] = code;
	rsp[SDSI_SPDM_OFF_PARAM1] = param1;
	rsp[SDSI_SPDM_OFF_PARAM2] = param2;
}

uint32_t spdm_digests(struct sdsi_model *m, const uint8_t *req, uint32_t len,
		      uint8_t *rsp)
{
	const struct model_identity *id = identity_current(m);

	(void)req;
	if (len != SDSI_SPDM_HDR_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	if (!id->key) {
		header(rsp, SDSI_SPDM_DIGESTS, 0, 0);
		return SDSI_SPDM_DIGESTS_OFF_DIGEST;
	}
	header(rsp, SDSI_SPDM_DIGESTS, 0, 1u << 0);
	memcpy(rsp + SDSI_SPDM_DIGESTS_OFF_DIGEST, id->digest, SDSI_SPDM_HASH_SIZE);
	return SDSI_SPDM_DIGESTS_OFF_DIGEST + SDSI_SPDM_HASH_SIZE;
}

uint32_t spdm_cert_portion(uint32_t chain_len, uint32_t offset,
			   uint32_t length, uint32_t max)
{
	uint32_t portion = length;

	if (offset >= chain_len)
		return 0;
	if (portion > chain_len - offset)
		portion = chain_len - offset;
	/* More than one answer holds is served in part (DSP0274 allows it). */
	return portion > max ? max : portion;
}

uint32_t spdm_certificate(struct sdsi_model *m, const uint8_t *req,
			  uint32_t len, uint8_t *rsp)
{
	const struct model_identity *id = identity_current(m);
	uint32_t offset, length, portion;

	if (len != SDSI_SPDM_GETCERT_SIZE ||
	    (req[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_SLOT_MASK) != 0 || !id->key)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	offset = (uint32_t)req[SDSI_SPDM_GETCERT_OFF_OFFSET] |
		 (uint32_t)req[SDSI_SPDM_GETCERT_OFF_OFFSET + 1] << 8;
	length = (uint32_t)req[SDSI_SPDM_GETCERT_OFF_LENGTH] |
		 (uint32_t)req[SDSI_SPDM_GETCERT_OFF_LENGTH + 1] << 8;
	portion = spdm_cert_portion(id->chain_len, offset, length,
				    SDSI_SPDM_CERT_PORTION_MAX);
	/* An offset past the end, or nothing asked: a loop that never ends. */
	if (!portion)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	header(rsp, SDSI_SPDM_CERTIFICATE, 0, 0);
	rsp[SDSI_SPDM_CERT_OFF_PORTION] = (uint8_t)portion;
	rsp[SDSI_SPDM_CERT_OFF_PORTION + 1] = (uint8_t)(portion >> 8);
	rsp[SDSI_SPDM_CERT_OFF_REMAINDER] = (uint8_t)(id->chain_len - offset - portion);
	rsp[SDSI_SPDM_CERT_OFF_REMAINDER + 1] =
		(uint8_t)((id->chain_len - offset - portion) >> 8);
	memcpy(rsp + SDSI_SPDM_CERT_OFF_DATA, id->chain + offset, portion);
	return SDSI_SPDM_CERT_OFF_DATA + portion;
}

/*
 * The measurement summary hash (ours, as DSP0274 1.0 leaves the
 * concatenation open): SHA-384 of the DMTF measurements (type, size, value)
 * of the blocks it covers, in index order.  TCB covers every block whose
 * type is not immutable ROM, which is every block of this part, so TCB and
 * all give the same hash.
 */
static int summary_hash(struct sdsi_model *m, uint8_t *out)
{
	uint8_t blocks[2 * SDSI_SPDM_BLOCK_SIZE];
	uint32_t len, off;
	unsigned int n, i;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret = -1;

	n = spdm_measure_blocks(m, SDSI_SPDM_MEAS_ALL, blocks, &len);
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha384(), NULL))
		goto out;
	for (i = 0, off = 0; i < n; i++, off += SDSI_SPDM_BLOCK_SIZE)
		EVP_DigestUpdate(ctx, blocks + off + SDSI_SPDM_BLOCK_HDR_SIZE,
				 SDSI_SPDM_BLOCK_SIZE - SDSI_SPDM_BLOCK_HDR_SIZE);
	ret = EVP_DigestFinal_ex(ctx, out, NULL) ? 0 : -1;
out:
	EVP_MD_CTX_free(ctx);
	return ret;
}

uint32_t spdm_challenge(struct sdsi_model *m, const uint8_t *req, uint32_t len,
			uint8_t *rsp)
{
	const struct model_identity *id = identity_current(m);
	struct model_spdm *s = &m->spdm;
	uint8_t summary = req[SDSI_SPDM_OFF_PARAM2];
	uint32_t off = SDSI_SPDM_AUTH_OFF_SUMMARY;
	int ret;

	if (len != SDSI_SPDM_CHALLENGE_SIZE ||
	    (req[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_SLOT_MASK) != 0 || !id->key ||
	    (summary != SDSI_SPDM_SUMMARY_NONE && summary != SDSI_SPDM_SUMMARY_TCB &&
	     summary != SDSI_SPDM_SUMMARY_ALL))
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	header(rsp, SDSI_SPDM_CHALLENGE_AUTH, 0, 1u << 0);
	memcpy(rsp + SDSI_SPDM_AUTH_OFF_CHAIN_HASH, id->digest, SDSI_SPDM_HASH_SIZE);
	if (RAND_bytes(rsp + SDSI_SPDM_AUTH_OFF_NONCE, SDSI_SPDM_NONCE_SIZE) != 1)
		return fail(SDSI_SPDM_ERR_UNSPECIFIED);
	if (summary != SDSI_SPDM_SUMMARY_NONE) {
		if (summary_hash(m, rsp + off))
			return fail(SDSI_SPDM_ERR_UNSPECIFIED);
		off += SDSI_SPDM_HASH_SIZE;
	}
	/* M1 = A + B + C, C being CHALLENGE and CHALLENGE_AUTH unsigned. */
	off = spdm_end_unsigned(s->m1, req, len, rsp, off);
	ret = spdm_sign_transcript(m, id->key, s->m1, rsp + off);
	/* B and C start anew; A stays. */
	EVP_MD_CTX_copy_ex(s->m1, s->vca);
	return ret ? fail(SDSI_SPDM_ERR_UNSPECIFIED) : off + SDSI_SPDM_SIG_SIZE;
}
