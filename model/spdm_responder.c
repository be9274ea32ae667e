// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPDM 1.0 responder (DSP0274 1.0) of an On Demand part: which request
 * may come when, the connection's negotiation (VERSION, CAPABILITIES,
 * ALGORITHMS), the transcripts the signatures cover, and the ERROR that
 * answers everything else.  The orders are attestation.rst's: after a
 * reset GET_VERSION, GET_CAPABILITIES, NEGOTIATE_ALGORITHMS, in that order
 * (CACHE is not advertised, so after every reset); then GET_DIGESTS,
 * GET_CERTIFICATE after a DIGESTS, CHALLENGE, GET_MEASUREMENTS.
 * GET_VERSION starts the connection again at any time.  An ERROR changes
 * nothing and enters no transcript.
 */
#include <openssl/evp.h>

#include "model_priv.h"

/* Capabilities: a certificate, challenges, signed measurements; no CACHE. */
#define RESPONDER_CAPS	(SDSI_SPDM_CAP_CERT | SDSI_SPDM_CAP_CHAL | \
			 SDSI_SPDM_CAP_MEAS_SIG)
/* CTExponent: 2^20 us, about a second, for a signature (ours). */
#define RESPONDER_CT_EXPONENT	20u

int spdm_init(struct model_spdm *s)
{
	memset(s, 0, sizeof(*s));
	s->vca = EVP_MD_CTX_new();
	s->m1 = EVP_MD_CTX_new();
	s->l1 = EVP_MD_CTX_new();
	if (!s->vca || !s->m1 || !s->l1) {
		spdm_fini(s);
		return -1;
	}
	spdm_reset(s);
	return 0;
}

void spdm_fini(struct model_spdm *s)
{
	EVP_MD_CTX_free(s->vca);
	EVP_MD_CTX_free(s->m1);
	EVP_MD_CTX_free(s->l1);
	s->vca = s->m1 = s->l1 = NULL;
}

void spdm_reset(struct model_spdm *s)
{
	s->conn = SPDM_CONN_NONE;
	s->digests_sent = false;
	spdm_hash_restart(s->vca);
	spdm_hash_restart(s->m1);
	spdm_hash_restart(s->l1);
}

static void header(uint8_t *rsp, uint8_t code, uint8_t param1, uint8_t param2)
{
	rsp[SDSI_SPDM_OFF_VERSION] = SDSI_SPDM_VERSION_10;
	rsp[SDSI_SPDM_OFF_CODE] = code;
	rsp[SDSI_SPDM_OFF_PARAM1] = param1;
	rsp[SDSI_SPDM_OFF_PARAM2] = param2;
}

static uint32_t fail(uint8_t code)
{
	return SPDM_FAIL | code;
}

/* A, the negotiation transcript, grows by one exchange. */
static void add_vca(struct model_spdm *s, const uint8_t *req, uint32_t len,
		    const uint8_t *rsp, uint32_t rsp_len)
{
	spdm_hash_add(s->vca, req, len);
	spdm_hash_add(s->vca, rsp, rsp_len);
}

static uint32_t get_version(struct sdsi_model *m, const uint8_t *req,
			    uint32_t len, uint8_t *rsp)
{
	struct model_spdm *s = &m->spdm;

	if (len != SDSI_SPDM_HDR_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	header(rsp, SDSI_SPDM_VERSION, 0, 0);
	rsp[4] = 0;
	rsp[SDSI_SPDM_VERSION_OFF_COUNT] = 1;
	rsp[SDSI_SPDM_VERSION_OFF_ENTRIES] = (uint8_t)SDSI_SPDM_VERSION_ENTRY_10;
	rsp[SDSI_SPDM_VERSION_OFF_ENTRIES + 1] = SDSI_SPDM_VERSION_ENTRY_10 >> 8;
	/* GET_VERSION starts the connection, and its transcripts, anew. */
	spdm_reset(s);
	add_vca(s, req, len, rsp, SDSI_SPDM_VERSION_OFF_ENTRIES + 2);
	s->conn = SPDM_CONN_VERSION;
	return SDSI_SPDM_VERSION_OFF_ENTRIES + 2;
}

static uint32_t get_capabilities(struct sdsi_model *m, const uint8_t *req,
				 uint32_t len, uint8_t *rsp)
{
	struct model_spdm *s = &m->spdm;

	if (len != SDSI_SPDM_HDR_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	memset(rsp, 0, SDSI_SPDM_CAPS_SIZE);
	header(rsp, SDSI_SPDM_CAPABILITIES, 0, 0);
	rsp[SDSI_SPDM_CAPS_OFF_CT_EXPONENT] = RESPONDER_CT_EXPONENT;
	sdsi_put_le32(rsp + SDSI_SPDM_CAPS_OFF_FLAGS, RESPONDER_CAPS);
	add_vca(s, req, len, rsp, SDSI_SPDM_CAPS_SIZE);
	s->conn = SPDM_CONN_CAPS;
	return SDSI_SPDM_CAPS_SIZE;
}

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/*
 * The requester offers, the responder picks: this part has one of each, so
 * an offer without ECDSA P-384, SHA-384 or the DMTF measurement
 * specification cannot be answered (InvalidRequest), and the requester may
 * offer again.
 */
static uint32_t negotiate_algorithms(struct sdsi_model *m, const uint8_t *req,
				     uint32_t len, uint8_t *rsp)
{
	struct model_spdm *s = &m->spdm;
	uint32_t ext;

	if (len < SDSI_SPDM_NEGO_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	ext = (uint32_t)req[SDSI_SPDM_NEGO_OFF_EXT_ASYM_COUNT] +
	      req[SDSI_SPDM_NEGO_OFF_EXT_HASH_COUNT];
	if (le16(req + SDSI_SPDM_NEGO_OFF_LENGTH) != len ||
	    len != SDSI_SPDM_NEGO_SIZE + ext * SDSI_SPDM_NEGO_EXT_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	if (!(req[SDSI_SPDM_NEGO_OFF_MEAS_SPEC] & SDSI_SPDM_MEAS_SPEC_DMTF) ||
	    !(sdsi_le32(req + SDSI_SPDM_NEGO_OFF_BASE_ASYM) & SDSI_SPDM_ASYM_ECDSA_P384) ||
	    !(sdsi_le32(req + SDSI_SPDM_NEGO_OFF_BASE_HASH) & SDSI_SPDM_HASH_SHA384))
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);

	memset(rsp, 0, SDSI_SPDM_ALGS_SIZE);
	header(rsp, SDSI_SPDM_ALGORITHMS, 0, 0);
	rsp[SDSI_SPDM_ALGS_OFF_LENGTH] = SDSI_SPDM_ALGS_SIZE;
	rsp[SDSI_SPDM_ALGS_OFF_MEAS_SPEC] = SDSI_SPDM_MEAS_SPEC_DMTF;
	sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_MEAS_HASH, SDSI_SPDM_MEAS_HASH_SHA384);
	sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_ASYM, SDSI_SPDM_ASYM_ECDSA_P384);
	sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_HASH, SDSI_SPDM_HASH_SHA384);
	add_vca(s, req, len, rsp, SDSI_SPDM_ALGS_SIZE);
	/* B starts empty after A. */
	EVP_MD_CTX_copy_ex(s->m1, s->vca);
	s->conn = SPDM_CONN_NEGOTIATED;
	return SDSI_SPDM_ALGS_SIZE;
}

/* The requests that need a negotiated connection, and their order. */
static uint32_t negotiated(struct sdsi_model *m, const uint8_t *req,
			   uint32_t len, uint8_t *rsp)
{
	struct model_spdm *s = &m->spdm;
	uint32_t out;

	switch (req[SDSI_SPDM_OFF_CODE]) {
	case SDSI_SPDM_GET_DIGESTS:
		out = spdm_digests(m, req, len, rsp);
		if (!(out & SPDM_FAIL)) {
			spdm_hash_add(s->m1, req, len);
			spdm_hash_add(s->m1, rsp, out);
			s->digests_sent = true;
		}
		return out;
	case SDSI_SPDM_GET_CERTIFICATE:
		if (!s->digests_sent)
			return fail(SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
		out = spdm_certificate(m, req, len, rsp);
		if (!(out & SPDM_FAIL)) {
			spdm_hash_add(s->m1, req, len);
			spdm_hash_add(s->m1, rsp, out);
		}
		return out;
	case SDSI_SPDM_CHALLENGE:
		/* spdm_challenge signs M1 and starts B anew. */
		out = spdm_challenge(m, req, len, rsp);
		if (!(out & SPDM_FAIL))
			s->digests_sent = false;
		return out;
	case SDSI_SPDM_GET_MEASUREMENTS:
		return spdm_measurements(m, req, len, rsp);
	}
	return fail(SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
}

static uint32_t dispatch(struct sdsi_model *m, const uint8_t *req, uint32_t len,
			 uint8_t *rsp)
{
	uint32_t (*answer)(struct sdsi_model *m, const uint8_t *req, uint32_t len,
			   uint8_t *rsp);
	enum spdm_conn need;
	uint8_t code;

	if (len < SDSI_SPDM_HDR_SIZE)
		return fail(SDSI_SPDM_ERR_INVALID_REQUEST);
	code = req[SDSI_SPDM_OFF_CODE];
	/* Every request of 1.0 carries 1.0, GET_VERSION included. */
	if (req[SDSI_SPDM_OFF_VERSION] != SDSI_SPDM_VERSION_10)
		return fail(SDSI_SPDM_ERR_VERSION_MISMATCH);
	/* L1 covers consecutive measurement exchanges only. */
	if (code != SDSI_SPDM_GET_MEASUREMENTS)
		spdm_hash_restart(m->spdm.l1);
	switch (code) {
	case SDSI_SPDM_GET_VERSION:
		return get_version(m, req, len, rsp);
	case SDSI_SPDM_GET_CAPABILITIES:
		need = SPDM_CONN_VERSION;
		answer = get_capabilities;
		break;
	case SDSI_SPDM_NEGOTIATE_ALGORITHMS:
		need = SPDM_CONN_CAPS;
		answer = negotiate_algorithms;
		break;
	case SDSI_SPDM_GET_DIGESTS:
	case SDSI_SPDM_GET_CERTIFICATE:
	case SDSI_SPDM_CHALLENGE:
	case SDSI_SPDM_GET_MEASUREMENTS:
		need = SPDM_CONN_NEGOTIATED;
		answer = negotiated;
		break;
	default:
		return fail(SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	}
	/* Every other request comes in its place of the negotiation's order. */
	if (m->spdm.conn != need)
		return fail(SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	return answer(m, req, len, rsp);
}

static uint32_t error_response(uint8_t *rsp, uint8_t code)
{
	header(rsp, SDSI_SPDM_ERROR, code, 0);
	return SDSI_SPDM_ERROR_SIZE;
}

uint32_t spdm_respond(struct sdsi_model *m, const uint8_t *req, uint32_t len,
		      uint8_t *rsp)
{
	uint32_t out;

	sdsi_assert_held(&m->lock);
	/* Busy answers whatever came, and changes nothing. */
	if (fault_take(m, SDSI_FAULT_ATTEST_BUSY, NULL))
		return error_response(rsp, SDSI_SPDM_ERR_BUSY);
	out = dispatch(m, req, len, rsp);
	if (!(out & SPDM_FAIL))
		return out;
	/*
	 * A requester's misuse: counted apart from protocol violations.
	 * Unspecified is the responder's own failure (OpenSSL), not misuse.
	 */
	if ((out & 0xffu) != SDSI_SPDM_ERR_UNSPECIFIED)
		m->spdm.errors++;
	return error_response(rsp, (uint8_t)(out & 0xffu));
}

uint64_t sdsi_model_spdm_errors(struct sdsi_model *m)
{
	return model_counter(m, &m->spdm.errors);
}
