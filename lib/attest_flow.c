// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The requester's side of the flow up to the certificate chain: the
 * connection's start (GET_VERSION, GET_CAPABILITIES,
 * NEGOTIATE_ALGORITHMS: VCA), GET_DIGESTS, and the chain in portions; and
 * attest_run(), which strings them with the proofs of attest_prove.c.
 * Every exchange that CHALLENGE_AUTH will sign goes into M1 (A + B) as it
 * was sent and received; GET_VERSION starts M1 anew, as it starts the
 * part's connection anew (DSP0274 1.0).  A step returns 0 when its check
 * passed, 1 when it failed (recorded in the verdict: the flow stops), or
 * -errno with err when the flow could not run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest_internal.h"

static void m1_add(struct sdsi_attest *att, const uint8_t *req, size_t req_len, size_t rsp_len)
{
	EVP_DigestUpdate(att->m1, req, req_len);
	EVP_DigestUpdate(att->m1, att->rsp, rsp_len);
}

/* One VCA exchange, its answer read by parse and added to M1. */
static int vca_step(struct sdsi_attest *att, struct sdsi_attest_verdict *v, enum attest_check c,
		    const uint8_t *req, size_t len, uint8_t code,
		    int (*parse)(const uint8_t *, size_t, char *, size_t), const char *passed,
		    struct sdsi_error *err)
{
	char why[ATTEST_DETAIL_SIZE];
	int ret;

	ret = attest_exchange(att, req, len, code, why, sizeof(why), err);
	if (ret < 0)
		return ret;
	if (ret > 0 || parse(att->rsp, att->rsp_len, why, sizeof(why)))
		return attest_fail(v, c, "%s", why);
	m1_add(att, req, len, att->rsp_len);
	return attest_pass(v, c, "%s", passed);
}

static int run_vca(struct sdsi_attest *att, struct sdsi_attest_verdict *v, struct sdsi_error *err)
{
	static const uint8_t get_version[] = {
		SDSI_SPDM_VERSION_10, SDSI_SPDM_GET_VERSION, 0, 0 };
	static const uint8_t get_caps[] = {
		SDSI_SPDM_VERSION_10, SDSI_SPDM_GET_CAPABILITIES, 0, 0 };
	uint8_t nego[SDSI_SPDM_NEGO_SIZE] = {
		SDSI_SPDM_VERSION_10, SDSI_SPDM_NEGOTIATE_ALGORITHMS, 0, 0 };
	int ret;

	sdsi_put_le16(nego + SDSI_SPDM_NEGO_OFF_LENGTH, SDSI_SPDM_NEGO_SIZE);
	nego[SDSI_SPDM_NEGO_OFF_MEAS_SPEC] = SDSI_SPDM_MEAS_SPEC_DMTF;
	sdsi_put_le32(nego + SDSI_SPDM_NEGO_OFF_BASE_ASYM, SDSI_SPDM_ASYM_ECDSA_P384);
	sdsi_put_le32(nego + SDSI_SPDM_NEGO_OFF_BASE_HASH, SDSI_SPDM_HASH_SHA384);

	if (!EVP_DigestInit_ex(att->m1, EVP_sha384(), NULL))
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	ret = vca_step(att, v, ATTEST_CHECK_VERSION, get_version, sizeof(get_version),
		       SDSI_SPDM_VERSION, attest_parse_version, "SPDM 1.0", err);
	if (!ret)
		ret = vca_step(att, v, ATTEST_CHECK_CAPABILITIES, get_caps, sizeof(get_caps),
			       SDSI_SPDM_CAPABILITIES, attest_parse_capabilities,
			       "certificates, challenge, signed measurements", err);
	if (!ret)
		ret = vca_step(att, v, ATTEST_CHECK_ALGORITHMS, nego, sizeof(nego),
			       SDSI_SPDM_ALGORITHMS, attest_parse_algorithms,
			       "ECDSA P-384, SHA-384, DMTF measurements", err);
	return ret;
}

static int run_digests(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
		       struct sdsi_error *err)
{
	static const uint8_t req[] = { SDSI_SPDM_VERSION_10, SDSI_SPDM_GET_DIGESTS, 0, 0 };
	char why[ATTEST_DETAIL_SIZE], hex[ATTEST_HEX_SIZE];
	int ret;

	ret = attest_exchange(att, req, sizeof(req), SDSI_SPDM_DIGESTS, why, sizeof(why), err);
	if (ret < 0)
		return ret;
	if (ret > 0 || attest_parse_digests(att->rsp, att->rsp_len, att->digest, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_DIGEST, "%s", why);
	m1_add(att, req, sizeof(req), att->rsp_len);
	memcpy(v->digest, att->digest, sizeof(v->digest));
	v->digest_read = true;
	attest_hex(att->digest, sizeof(att->digest), hex);
	return attest_pass(v, ATTEST_CHECK_DIGEST, "slot 0: %s", hex);
}

/*
 * The chain in portions, each as large as an answer holds.  The first
 * answer announces the whole (its portion and remainder); every later one
 * must agree with it, so RemainderLength shrinks strictly by a portion
 * never empty, and ATTEST_MAX_CERT_REQUESTS bounds the rest.
 */
static int run_chain(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
		     struct sdsi_error *err)
{
	uint8_t req[SDSI_SPDM_GETCERT_SIZE] = { SDSI_SPDM_VERSION_10, SDSI_SPDM_GET_CERTIFICATE, 0, 0 };
	size_t offset = 0, total = 0, ask;
	char why[ATTEST_DETAIL_SIZE];
	struct attest_portion p;
	unsigned int requests;
	int ret;

	free(att->chain);
	att->chain_len = 0;
	att->chain = malloc(SDSI_SPDM_CHAIN_MAX);
	if (!att->chain)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	for (requests = 1;; requests++) {
		if (requests > ATTEST_MAX_CERT_REQUESTS)
			return attest_fail(v, ATTEST_CHECK_CHAIN,
					   "more than %u GET_CERTIFICATE requests for one chain",
					   ATTEST_MAX_CERT_REQUESTS);
		ask = SDSI_SPDM_CERT_PORTION_MAX;
		if (total && total - offset < ask)
			ask = total - offset;
		sdsi_put_le16(req + SDSI_SPDM_GETCERT_OFF_OFFSET, (uint16_t)offset);
		sdsi_put_le16(req + SDSI_SPDM_GETCERT_OFF_LENGTH, (uint16_t)ask);
		ret = attest_exchange(att, req, sizeof(req), SDSI_SPDM_CERTIFICATE, why,
				      sizeof(why), err);
		if (ret < 0)
			return ret;
		if (ret > 0 || attest_parse_certificate(att->rsp, att->rsp_len, ask, &p, why,
							sizeof(why)))
			return attest_fail(v, ATTEST_CHECK_CHAIN, "at offset %zu: %s", offset, why);
		if (offset == 0) {
			total = p.portion + p.remainder;
			if (total > SDSI_SPDM_CHAIN_MAX)
				return attest_fail(v, ATTEST_CHECK_CHAIN,
						   "a chain of %zu bytes announced, over %u",
						   total, SDSI_SPDM_CHAIN_MAX);
		} else if (offset + p.portion + p.remainder != total) {
			return attest_fail(v, ATTEST_CHECK_CHAIN,
					   "at offset %zu: PortionLength %zu and RemainderLength %zu "
					   "disagree with the %zu bytes announced",
					   offset, p.portion, p.remainder, total);
		}
		memcpy(att->chain + offset, att->rsp + SDSI_SPDM_CERT_OFF_DATA, p.portion);
		m1_add(att, req, sizeof(req), att->rsp_len);
		offset += p.portion;
		if (p.remainder == 0)
			break;
	}
	if (total <= SDSI_SPDM_CHAIN_OFF_CERTS)
		return attest_fail(v, ATTEST_CHECK_CHAIN,
				   "a chain of %zu bytes holds no certificate after its %u-byte head",
				   total, SDSI_SPDM_CHAIN_OFF_CERTS);
	if (sdsi_le16(att->chain + SDSI_SPDM_CHAIN_OFF_LENGTH) != total)
		return attest_fail(v, ATTEST_CHECK_CHAIN,
				   "the chain's Length says %u, its portions make %zu bytes",
				   sdsi_le16(att->chain + SDSI_SPDM_CHAIN_OFF_LENGTH), total);
	att->chain_len = total;
	return attest_pass(v, ATTEST_CHECK_CHAIN, "%zu bytes in %u portions", total, requests);
}

/* The chain's certificates parsed, their subjects into the verdict. */
static int run_chain_certs(struct sdsi_attest *att, struct sdsi_attest_verdict *v,
			   struct sdsi_error *err)
{
	char why[ATTEST_DETAIL_SIZE];
	int i, count;

	if (attest_parse_chain_certs(att, why, sizeof(why)))
		return attest_fail(v, ATTEST_CHECK_CHAIN, "%s", why);
	count = sk_X509_num(att->certs);
	v->subjects = calloc((size_t)count, sizeof(*v->subjects));
	if (!v->subjects)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	for (i = 0; i < count; i++) {
		v->subjects[i] = attest_subject(sk_X509_value(att->certs, i));
		if (!v->subjects[i])
			return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
		v->num_certs = (unsigned int)i + 1;
	}
	return attest_pass(v, ATTEST_CHECK_CHAIN, "%zu bytes, %d certificates",
			   att->chain_len, count);
}

int attest_run(struct sdsi_attest *att, enum attest_stage stage, X509_STORE *store,
	       struct sdsi_attest_verdict *v, struct sdsi_error *err)
{
	int ret;

	sdsi_clear_error(err);
	ret = run_vca(att, v, err);
	if (!ret)
		ret = run_digests(att, v, err);
	if (!ret && stage >= ATTEST_UPTO_CHAIN)
		ret = run_chain(att, v, err);
	if (!ret && stage >= ATTEST_UPTO_ALL)
		ret = run_chain_certs(att, v, err);
	if (!ret && stage >= ATTEST_UPTO_ALL)
		ret = attest_prove(att, store, v, err);
	return ret < 0 ? ret : 0;
}
