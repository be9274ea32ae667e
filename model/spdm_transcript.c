// SPDX-License-Identifier: GPL-2.0-only
/*
 * The transcripts SPDM 1.0 signs (DSP0274 1.0: M1 for CHALLENGE_AUTH, L1
 * for MEASUREMENTS) and the signature over one: ECDSA P-384 over the
 * SHA-384 of the transcript, as raw r || s, one bit flipped under the
 * attest-signature fault.  Apart from the responder and the answers so that
 * each of them uses these without reaching the others: the responder
 * dispatches to spdm_auth.c and spdm_measure.c, and both extend and sign
 * transcripts here, so no call circle joins the three.
 */
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "model_priv.h"

void spdm_hash_restart(EVP_MD_CTX *ctx)
{
	EVP_DigestInit_ex(ctx, EVP_sha384(), NULL);
}

void spdm_hash_add(EVP_MD_CTX *ctx, const uint8_t *msg, uint32_t len)
{
	EVP_DigestUpdate(ctx, msg, len);
}

uint32_t spdm_end_unsigned(EVP_MD_CTX *ctx, const uint8_t *req, uint32_t len,
			   uint8_t *rsp, uint32_t off)
{
	rsp[off++] = 0;		/* OpaqueLength */
	rsp[off++] = 0;
	spdm_hash_add(ctx, req, len);
	spdm_hash_add(ctx, rsp, off);
	return off;
}

int spdm_sign(EVP_PKEY *key, EVP_MD_CTX *ctx, uint8_t sig[SDSI_SPDM_SIG_SIZE])
{
	uint8_t digest[SDSI_SPDM_HASH_SIZE], der[128];
	const unsigned char *p = der;
	const BIGNUM *r, *s;
	EVP_MD_CTX *copy = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	ECDSA_SIG *es = NULL;
	size_t der_len = sizeof(der);
	int ret = -1;

	if (!copy || !EVP_MD_CTX_copy_ex(copy, ctx) ||
	    !EVP_DigestFinal_ex(copy, digest, NULL))
		goto out;
	pctx = EVP_PKEY_CTX_new(key, NULL);
	if (!pctx || EVP_PKEY_sign_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha384()) <= 0 ||
	    EVP_PKEY_sign(pctx, der, &der_len, digest, sizeof(digest)) <= 0)
		goto out;
	es = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	if (!es)
		goto out;
	ECDSA_SIG_get0(es, &r, &s);
	if (BN_bn2binpad(r, sig, SDSI_SPDM_SIG_SIZE / 2) < 0 ||
	    BN_bn2binpad(s, sig + SDSI_SPDM_SIG_SIZE / 2, SDSI_SPDM_SIG_SIZE / 2) < 0)
		goto out;
	ret = 0;
out:
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(pctx);
	EVP_MD_CTX_free(copy);
	return ret;
}

/* Sign, and flip the first bit of r under the attest-signature fault. */
int spdm_sign_transcript(struct sdsi_model *m, EVP_PKEY *key,
			   EVP_MD_CTX *ctx, uint8_t *sig)
{
	if (spdm_sign(key, ctx, sig))
		return -1;
	if (fault_take(m, SDSI_FAULT_ATTEST_SIGNATURE, NULL))
		sig[0] ^= 0x80;
	return 0;
}
