// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the chain proves once read: it verifies to the owner's anchor, its
 * RootHash and the slot digest are its own, the part holds the leaf's key
 * (CHALLENGE over M1, with a fresh nonce), and the measurements it signs
 * over L1 (with another) are the SHA-384 of the certificates read in this
 * run.  The CHALLENGE asks for no measurement summary: the measurements
 * are read signed and whole right after, so a summary would prove nothing
 * more.  L1 in 1.0 is the GET_MEASUREMENTS exchanges since the last other
 * request, here just the one signed exchange.
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "attest_internal.h"

static int fresh_nonce(uint8_t nonce[SDSI_SPDM_NONCE_SIZE], struct sdsi_error *err)
{
	ssize_t got;

	do
		got = getrandom(nonce, SDSI_SPDM_NONCE_SIZE, 0);
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)SDSI_SPDM_NONCE_SIZE)
		return sdsi_fail(err, got < 0 ? errno : EIO, SDSI_ERR_INTERNAL, -1,
				 "getrandom: no nonce");
	return 0;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

static int prove_chain(struct sdsi_attest *att, X509_STORE *store,
		       struct sdsi_attest_verdict *v)
{
	uint8_t hash[SDSI_SPDM_HASH_SIZE];
	char why[ATTEST_DETAIL_SIZE];

	if (attest_check_trust(att, store, v, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_TRUST, "%s", why);
	attest_pass(v, ATTEST_CHECK_TRUST, "verified to %s",
		    v->anchor_subject ? v->anchor_subject : "an anchor");
	attest_sha384(att->chain + SDSI_SPDM_CHAIN_OFF_CERTS, att->root_len, hash);
	if (memcmp(hash, att->chain + SDSI_SPDM_CHAIN_OFF_ROOT_HASH, sizeof(hash)))
		return attest_fail(v, ATTEST_CHECK_ROOT_HASH,
				   "RootHash is not the SHA-384 of the chain's root certificate");
	if (attest_root_is_anchor(att, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_ROOT_HASH, "%s", why);
	attest_pass(v, ATTEST_CHECK_ROOT_HASH, "the anchor's SHA-384");
	attest_sha384(att->chain, att->chain_len, hash);
	if (memcmp(hash, att->digest, sizeof(hash)))
		return attest_fail(v, ATTEST_CHECK_SLOT_DIGEST,
				   "slot 0's digest is not the SHA-384 of the chain");
	return attest_pass(v, ATTEST_CHECK_SLOT_DIGEST, "the chain's SHA-384");
}

/* The SHA-384 of the transcript so far plus its last signed part. */
static int transcript_digest(EVP_MD_CTX *so_far, const uint8_t *req, size_t req_len,
			     const uint8_t *rsp, size_t rsp_len,
			     uint8_t out[SDSI_SPDM_HASH_SIZE], struct sdsi_error *err)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	ok = ctx && (so_far ? EVP_MD_CTX_copy_ex(ctx, so_far) :
		     EVP_DigestInit_ex(ctx, EVP_sha384(), NULL)) &&
	     EVP_DigestUpdate(ctx, req, req_len) && EVP_DigestUpdate(ctx, rsp, rsp_len) &&
	     EVP_DigestFinal_ex(ctx, out, NULL);
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
}

static int prove_challenge(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
			   struct sdsi_error *err)
{
	uint8_t req[SDSI_SPDM_CHALLENGE_SIZE] = {
		SDSI_SPDM_VERSION_10, SDSI_SPDM_CHALLENGE, 0, SDSI_SPDM_SUMMARY_NONE };
	uint8_t m1[SDSI_SPDM_HASH_SIZE];
	uint8_t *nonce = req + SDSI_SPDM_CHALLENGE_OFF_NONCE;
	char why[ATTEST_DETAIL_SIZE];
	struct attest_auth auth;
	bool replayed;
	int ret;

	ret = fresh_nonce(nonce, err);
	if (!ret)
		ret = attest_exchange(att, req, sizeof(req), SDSI_SPDM_CHALLENGE_AUTH, why,
				      sizeof(why), err);
	if (ret < 0)
		return ret;
	if (ret > 0 || attest_parse_challenge_auth(att->rsp, att->rsp_len, &auth, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_SIGNATURE, "%s", why);
	ret = transcript_digest(att->m1, req, sizeof(req), att->rsp, auth.sig_off, m1, err);
	if (ret)
		return ret;
	if (attest_check_signature(att, m1, att->rsp + auth.sig_off, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_SIGNATURE, "over M1: %s", why);
	attest_pass(v, ATTEST_CHECK_CHALLENGE_SIGNATURE, "M1 signed by the leaf's key");
	/* the responder's nonce: its own, fresh, never ours reflected */
	replayed = att->have_auth_nonce &&
		   !memcmp(auth.nonce, att->last_auth_nonce, SDSI_SPDM_NONCE_SIZE);
	memcpy(att->last_auth_nonce, auth.nonce, SDSI_SPDM_NONCE_SIZE);
	att->have_auth_nonce = true;
	if (all_zero(auth.nonce, SDSI_SPDM_NONCE_SIZE))
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_NONCE, "the responder's nonce is zero");
	if (!memcmp(auth.nonce, nonce, SDSI_SPDM_NONCE_SIZE))
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_NONCE,
				   "the responder's nonce is the requester's");
	if (replayed)
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_NONCE,
				   "the responder's nonce repeats its previous one");
	attest_pass(v, ATTEST_CHECK_CHALLENGE_NONCE, "fresh");
	if (memcmp(auth.chain_hash, att->digest, SDSI_SPDM_HASH_SIZE))
		return attest_fail(v, ATTEST_CHECK_CHALLENGE_CHAIN_HASH,
				   "CertChainHash is not slot 0's digest");
	return attest_pass(v, ATTEST_CHECK_CHALLENGE_CHAIN_HASH, "slot 0's digest");
}

static const struct attest_measurement *find(const struct sdsi_attest_verdict *v,
					     unsigned int index)
{
	unsigned int i;

	for (i = 0; i < v->num_meas; i++)
		if (v->meas[i].index == index)
			return &v->meas[i];
	return NULL;
}

static int prove_measurements(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
			      struct sdsi_error *err)
{
	uint8_t req[SDSI_SPDM_GETMEAS_SIGNED_SIZE] = {
		SDSI_SPDM_VERSION_10, SDSI_SPDM_GET_MEASUREMENTS, SDSI_SPDM_MEAS_ATTR_SIGNED,
		SDSI_SPDM_MEAS_ALL };
	struct attest_meas_answer ans;
	uint8_t l1[SDSI_SPDM_HASH_SIZE];
	char why[ATTEST_DETAIL_SIZE];
	unsigned int i;
	int ret;

	ret = fresh_nonce(req + SDSI_SPDM_CHALLENGE_OFF_NONCE, err);
	if (!ret)
		ret = attest_exchange(att, req, sizeof(req), SDSI_SPDM_MEASUREMENTS, why,
				      sizeof(why), err);
	if (ret < 0)
		return ret;
	if (ret > 0 || attest_parse_measurements(att->rsp, att->rsp_len, &ans, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_MEASUREMENT_SIGNATURE, "%s", why);
	for (i = 0; i < ans.count; i++) {
		v->meas[i] = ans.meas[i];
		attest_hex(ans.meas[i].value, SDSI_SPDM_HASH_SIZE, v->meas_hex[i]);
	}
	v->num_meas = ans.count;
	ret = transcript_digest(NULL, req, sizeof(req), att->rsp, ans.sig_off, l1, err);
	if (ret)
		return ret;
	if (attest_check_signature(att, l1, att->rsp + ans.sig_off, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_MEASUREMENT_SIGNATURE, "over L1: %s", why);
	return attest_pass(v, ATTEST_CHECK_MEASUREMENT_SIGNATURE, "%u measurements signed",
			   ans.count);
}

/*
 * Measurement index of the certificate attr compared with the SHA-384 of
 * a read of it now.  optional: the part may not meter, and then has no
 * meter_certificate (NO_DEVICE) and reports no measurement 2.
 */
static int compare_cert(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
			enum attest_check c, enum sdsi_attr attr, unsigned int index,
			bool optional, struct sdsi_error *err)
{
	const struct attest_measurement *m = find(v, index);
	uint8_t buf[SDSI_READ_BUF_SIZE], hash[SDSI_SPDM_HASH_SIZE];
	const char *file = sdsi_attr_file(attr);
	struct sdsi_error rerr;		/* the class decides, even when err is NULL */
	size_t len = 0;
	int ret;

	sdsi_clear_error(&rerr);
	ret = att->io.read_attr(att->io.ctx, attr, buf, &len, &rerr);
	if (ret && optional && rerr.cls == SDSI_ERR_NO_DEVICE) {
		if (m)
			return attest_fail(v, c, "measurement %u reported, but no %s to compare",
					   index, file);
		snprintf(v->detail[c], sizeof(v->detail[c]), "the part does not meter (no %s)",
			 file);
		return 0;
	}
	if (ret) {
		if (err)
			sdsi_error_copy(err, &rerr);
		return ret < 0 ? ret : -EIO;
	}
	if (len > sizeof(buf))
		return sdsi_fail(err, EMSGSIZE, SDSI_ERR_IO, -1, "%s: %zu bytes read", file, len);
	if (!m)
		return attest_fail(v, c, "no measurement %u for %s", index, file);
	attest_sha384(buf, len, hash);
	if (memcmp(hash, m->value, sizeof(hash)))
		return attest_fail(v, c, "measurement %u is not the SHA-384 of %s (%zu bytes) read now",
				   index, file, len);
	return attest_pass(v, c, "the SHA-384 of %s (%zu bytes)", file, len);
}

int attest_prove(struct sdsi_attest *att, X509_STORE *store, struct sdsi_attest_verdict *v,
		 struct sdsi_error *err)
{
	int ret;

	ret = prove_chain(att, store, v);
	if (!ret)
		ret = prove_challenge(att, v, err);
	if (!ret)
		ret = prove_measurements(att, v, err);
	if (!ret)
		ret = compare_cert(att, v, ATTEST_CHECK_MEASUREMENT_STATE, SDSI_ATTR_STATE_CERT,
				   SDSI_SPDM_MEAS_INDEX_STATE, false, err);
	if (!ret)
		ret = compare_cert(att, v, ATTEST_CHECK_MEASUREMENT_METER, SDSI_ATTR_METER_CERT,
				   SDSI_SPDM_MEAS_INDEX_METER, true, err);
	return ret;
}
