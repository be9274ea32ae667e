// SPDX-License-Identifier: GPL-2.0-only
/*
 * A hostile part: every answer of the flow truncated, grown, cut below a
 * header, with a wrong code or version byte, answered out of order, or
 * with length fields that disagree with its size; CERTIFICATE answers
 * whose remainder does not shrink or that never end; portions one byte
 * over what was asked; an answer claiming more than the buffer; signed
 * fields the requester must check (nonces, chain hash, measurement
 * indices).  Each is refused by the check it concerns, with its reason,
 * and the flow stops there: no crash, no hang, the requests bounded.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spdm_test_responder.h"

static void expect_failure(struct test_responder *r, const char *check, const char *why)
{
	struct sdsi_attest_verdict *v;
	struct sdsi_error *err = sdsi_error_new();
	int ret;

	memset(r->seen, 0, sizeof(r->seen));
	r->requests = 0;
	ret = tr_verify(r, NULL, &v, err);
	if (ret)
		fail_msg("%s: could not run: %s", check, sdsi_error_message(err));
	if (!sdsi_attest_verdict_failed_check(v) ||
	    strcmp(sdsi_attest_verdict_failed_check(v), check) ||
	    !strstr(tr_detail(v, check), why))
		fail_msg("expected %s failing with \"%s\", got: %s", check, why,
			 sdsi_attest_verdict_summary(v));
	assert_false(sdsi_attest_verdict_ok(v));
	sdsi_attest_verdict_free(v);
	sdsi_error_free(err);
}

/* Which check reads the answer to each request. */
static const struct answer_case {
	uint8_t request;
	const char *check;
} answers[] = {
	{ SDSI_SPDM_GET_VERSION, "version" },
	{ SDSI_SPDM_GET_CAPABILITIES, "capabilities" },
	{ SDSI_SPDM_NEGOTIATE_ALGORITHMS, "algorithms" },
	{ SDSI_SPDM_GET_DIGESTS, "digest" },
	{ SDSI_SPDM_GET_CERTIFICATE, "chain" },
	{ SDSI_SPDM_CHALLENGE, "challenge-signature" },
	{ SDSI_SPDM_GET_MEASUREMENTS, "measurement-signature" },
};

struct edit {
	uint8_t request;
	int grow;		/* bytes added (zeroes) or, negative, cut */
	int set_at;		/* a byte set: its offset, -1 none */
	uint8_t value;
};

static void edit_answer(struct test_responder *r, const uint8_t *req, size_t req_len,
			uint8_t *rsp, size_t *rsp_len)
{
	const struct edit *e = r->tamper_ctx;

	(void)req_len;
	if (req[1] != e->request)
		return;
	if (e->set_at >= 0)
		rsp[e->set_at] = e->value;
	if (e->grow > 0)
		memset(rsp + *rsp_len, 0, (size_t)e->grow);
	*rsp_len = (size_t)((long)*rsp_len + e->grow);
}

static void run_edit(struct test_responder *r, uint8_t request, int grow, int set_at,
		     uint8_t value, const char *check, const char *why)
{
	struct edit e = { request, grow, set_at, value };

	r->tamper = edit_answer;
	r->tamper_ctx = &e;
	expect_failure(r, check, why);
	r->tamper_ctx = NULL;
}

static void test_truncated(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		run_edit(*state, answers[i].request, -1, -1, 0, answers[i].check, "bytes");
}

static void test_oversized(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		run_edit(*state, answers[i].request, 1, -1, 0, answers[i].check, "bytes");
}

static void cut_to(struct test_responder *r, const uint8_t *req, size_t req_len,
		   uint8_t *rsp, size_t *rsp_len)
{
	const struct edit *e = r->tamper_ctx;

	(void)req_len;
	(void)rsp;
	if (req[1] == e->request)
		*rsp_len = (size_t)e->grow;
}

static void test_shorter_than_header(void **state)
{
	struct test_responder *r = *state;
	struct edit e = { 0, 0, -1, 0 };
	unsigned int i;

	r->tamper = cut_to;
	r->tamper_ctx = &e;
	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
		e.request = answers[i].request;
		for (e.grow = 0; e.grow < (int)SDSI_SPDM_HDR_SIZE; e.grow++)
			expect_failure(r, answers[i].check, "shorter than an SPDM header");
	}
	r->tamper_ctx = NULL;
}

static void test_wrong_code(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		run_edit(*state, answers[i].request, 0, SDSI_SPDM_OFF_CODE, 0x05,
			 answers[i].check, "answer code 0x05");
}

static void test_wrong_version(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		run_edit(*state, answers[i].request, 0, SDSI_SPDM_OFF_VERSION, 0x11,
			 answers[i].check, "SPDMVersion 0x11");
}

static void test_other_error(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		run_edit(*state, answers[i].request, 0, SDSI_SPDM_OFF_CODE, SDSI_SPDM_ERROR,
			 answers[i].check, "SPDM ERROR");
}

/* Each answer one request late: the previous request's answer in its place. */
static void answer_late(struct test_responder *r, const uint8_t *req, size_t req_len,
			uint8_t *rsp, size_t *rsp_len)
{
	static uint8_t previous[SDSI_SPDM_RESPONSE_MAX];
	static size_t previous_len;
	uint8_t now[SDSI_SPDM_RESPONSE_MAX];
	size_t now_len = *rsp_len;

	(void)req_len;
	memcpy(now, rsp, now_len);
	if (req[1] == *(uint8_t *)r->tamper_ctx) {
		memcpy(rsp, previous, previous_len);
		*rsp_len = previous_len;
	}
	memcpy(previous, now, now_len);
	previous_len = now_len;
}

static void test_misordered(void **state)
{
	struct test_responder *r = *state;
	unsigned int i;
	uint8_t code;

	r->tamper = answer_late;
	r->tamper_ctx = &code;
	/* from the second request on: each gets the one before's answer */
	for (i = 1; i < sizeof(answers) / sizeof(answers[0]); i++) {
		code = answers[i].request;
		expect_failure(r, answers[i].check, "answer code");
	}
	r->tamper_ctx = NULL;
}

static void test_lengths_disagree(void **state)
{
	struct test_responder *r = *state;

	/* VERSION: two entries announced, one sent */
	run_edit(r, SDSI_SPDM_GET_VERSION, 0, SDSI_SPDM_VERSION_OFF_COUNT, 2, "version",
		 "announces 2 entries");
	/* ALGORITHMS: Length 40 in a 36-byte answer */
	run_edit(r, SDSI_SPDM_NEGOTIATE_ALGORITHMS, 0, SDSI_SPDM_ALGS_OFF_LENGTH, 40,
		 "algorithms", "says Length 40");
	/* ALGORITHMS: an extension counted but not sent */
	run_edit(r, SDSI_SPDM_NEGOTIATE_ALGORITHMS, 0, SDSI_SPDM_ALGS_OFF_EXT_ASYM_COUNT, 1,
		 "algorithms", "1 extensions");
	/* DIGESTS: two slots announced, one digest */
	run_edit(r, SDSI_SPDM_GET_DIGESTS, 0, SDSI_SPDM_OFF_PARAM2, 3, "digest",
		 "slot mask 0x03");
	/* CERTIFICATE: PortionLength one less than sent */
	run_edit(r, SDSI_SPDM_GET_CERTIFICATE, 0, SDSI_SPDM_CERT_OFF_PORTION,
		 (uint8_t)(r->chain_len - 1), "chain", "says PortionLength");
	/* CHALLENGE_AUTH: opaque data announced, none sent */
	run_edit(r, SDSI_SPDM_CHALLENGE, 0, SDSI_SPDM_AUTH_OFF_SUMMARY, 1,
		 "challenge-signature", "says OpaqueLength 1");
	/* MEASUREMENTS: the record one byte longer than its blocks */
	run_edit(r, SDSI_SPDM_GET_MEASUREMENTS, 0, SDSI_SPDM_MEAS_OFF_RECORD_LEN,
		 2 * SDSI_SPDM_BLOCK_SIZE + 1, "measurement-signature", "with a 111-byte record");
	/* MEASUREMENTS: three blocks announced, two sent */
	run_edit(r, SDSI_SPDM_GET_MEASUREMENTS, 0, SDSI_SPDM_MEAS_OFF_BLOCKS, 3,
		 "measurement-signature", "cut short");
	/* a block's MeasurementSize past the record */
	run_edit(r, SDSI_SPDM_GET_MEASUREMENTS, 0,
		 SDSI_SPDM_MEAS_OFF_RECORD + SDSI_SPDM_BLOCK_OFF_SIZE, 0xff,
		 "measurement-signature", "past the record");
}

static void test_wrong_algorithms(void **state)
{
	struct test_responder *r = *state;

	run_edit(r, SDSI_SPDM_GET_VERSION, 0, SDSI_SPDM_VERSION_OFF_ENTRIES + 1, 0x11, "version",
		 "no SPDM 1.0");
	run_edit(r, SDSI_SPDM_GET_CAPABILITIES, 0, SDSI_SPDM_CAPS_OFF_FLAGS,
		 SDSI_SPDM_CAP_CERT | SDSI_SPDM_CAP_CHAL | SDSI_SPDM_CAP_MEAS_NOSIG,
		 "capabilities", "not signed measurements");
	run_edit(r, SDSI_SPDM_NEGOTIATE_ALGORITHMS, 0, SDSI_SPDM_ALGS_OFF_BASE_ASYM, 1u << 4,
		 "algorithms", "not ECDSA P-384");
	run_edit(r, SDSI_SPDM_NEGOTIATE_ALGORITHMS, 0, SDSI_SPDM_ALGS_OFF_BASE_HASH, 1u << 0,
		 "algorithms", "not SHA-384");
	run_edit(r, SDSI_SPDM_GET_DIGESTS, 0, SDSI_SPDM_OFF_PARAM2, 2, "digest", "slot 0 holds no");
}

/* The remainder of every CERTIFICATE after the first kept at the first's. */
static void stuck_remainder(struct test_responder *r, const uint8_t *req, size_t req_len,
			    uint8_t *rsp, size_t *rsp_len)
{
	uint16_t *first = r->tamper_ctx;

	(void)req_len;
	(void)rsp_len;
	if (req[1] != SDSI_SPDM_GET_CERTIFICATE)
		return;
	if (sdsi_le16(req + SDSI_SPDM_GETCERT_OFF_OFFSET) == 0)
		*first = sdsi_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER);
	else
		sdsi_put_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER, *first);
}

static void test_remainder_not_shrinking(void **state)
{
	struct test_responder *r = *state;
	uint16_t first = 0;

	r->max_portion = 300;
	r->tamper = stuck_remainder;
	r->tamper_ctx = &first;
	expect_failure(r, "chain", "disagree with the");
	assert_int_equal(r->seen[SDSI_SPDM_GET_CERTIFICATE], 2);
	r->tamper_ctx = NULL;
}

/*
 * Portions so small that the chain needs more requests than the bound:
 * the smallest portion that reads it within ATTEST_MAX_CERT_REQUESTS, and
 * one byte less.
 */
static void test_portion_loop_bound(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	size_t smallest = (r->chain_len + ATTEST_MAX_CERT_REQUESTS - 1) / ATTEST_MAX_CERT_REQUESTS;

	r->max_portion = smallest;
	assert_int_equal(tr_verify(r, NULL, &v, NULL), 0);
	if (!sdsi_attest_verdict_ok(v))
		fail_msg("%s", sdsi_attest_verdict_summary(v));
	assert_true(r->seen[SDSI_SPDM_GET_CERTIFICATE] <= ATTEST_MAX_CERT_REQUESTS);
	sdsi_attest_verdict_free(v);
	r->max_portion = smallest - 1;
	expect_failure(r, "chain", "more than 256 GET_CERTIFICATE requests");
	assert_int_equal(r->seen[SDSI_SPDM_GET_CERTIFICATE], ATTEST_MAX_CERT_REQUESTS);
	/* the endless loop: one byte at a time */
	r->max_portion = 1;
	expect_failure(r, "chain", "more than 256 GET_CERTIFICATE requests");
	assert_int_equal(r->seen[SDSI_SPDM_GET_CERTIFICATE], ATTEST_MAX_CERT_REQUESTS);
}

/* The last portion as asked, then one byte over it (the chain's next byte). */
static void over_ask(struct test_responder *r, const uint8_t *req, size_t req_len,
		     uint8_t *rsp, size_t *rsp_len)
{
	size_t asked;

	(void)req_len;
	if (req[1] != SDSI_SPDM_GET_CERTIFICATE || sdsi_le16(req + SDSI_SPDM_GETCERT_OFF_OFFSET) == 0)
		return;
	asked = sdsi_le16(req + SDSI_SPDM_GETCERT_OFF_LENGTH);
	sdsi_put_le16(rsp + SDSI_SPDM_CERT_OFF_PORTION, (uint16_t)(asked + 1));
	rsp[*rsp_len] = 0;
	(*rsp_len)++;
	(void)r;
}

static void test_portion_over_ask(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;

	r->max_portion = 500;
	assert_int_equal(tr_verify(r, NULL, &v, NULL), 0);
	assert_true(sdsi_attest_verdict_ok(v));
	sdsi_attest_verdict_free(v);
	r->tamper = over_ask;
	expect_failure(r, "chain", "asked");
}

static void claim_too_much(struct test_responder *r, const uint8_t *req, size_t req_len,
			   uint8_t *rsp, size_t *rsp_len)
{
	(void)r;
	(void)req_len;
	(void)rsp;
	if (req[1] == SDSI_SPDM_GET_DIGESTS)
		*rsp_len = SDSI_SPDM_RESPONSE_MAX + 1;
}

/* A transport that claims one byte more than the largest answer: it could not run. */
static void test_answer_over_buffer(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	struct sdsi_error *err = sdsi_error_new();

	r->tamper = claim_too_much;
	assert_int_equal(tr_verify(r, NULL, &v, err), -EMSGSIZE);
	assert_null(v);
	assert_non_null(strstr(sdsi_error_message(err), "4089 bytes"));
	sdsi_error_free(err);
}

static void zero_nonce(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)r;
	(void)req;
	(void)len;
	if (rsp[1] == SDSI_SPDM_CHALLENGE_AUTH)
		memset(rsp + SDSI_SPDM_AUTH_OFF_NONCE, 0, SDSI_SPDM_NONCE_SIZE);
}

static void other_chain_hash(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)r;
	(void)req;
	(void)len;
	if (rsp[1] == SDSI_SPDM_CHALLENGE_AUTH)
		rsp[SDSI_SPDM_AUTH_OFF_CHAIN_HASH] ^= 1;
}

static void drop_index_1(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)r;
	(void)req;
	(void)len;
	if (rsp[1] == SDSI_SPDM_MEASUREMENTS)
		rsp[SDSI_SPDM_MEAS_OFF_RECORD + SDSI_SPDM_BLOCK_OFF_INDEX] = 3;
}

static void twice_index_2(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)r;
	(void)req;
	(void)len;
	if (rsp[1] == SDSI_SPDM_MEASUREMENTS)
		rsp[SDSI_SPDM_MEAS_OFF_RECORD + SDSI_SPDM_BLOCK_OFF_INDEX] = 2;
}

/* Signed by the part's key, and still wrong: what the requester checks itself. */
static void test_signed_but_wrong(void **state)
{
	struct test_responder *r = *state;

	r->presign = zero_nonce;
	expect_failure(r, "challenge-nonce", "is zero");
	r->presign = other_chain_hash;
	expect_failure(r, "challenge-chain-hash", "not slot 0's digest");
	r->presign = drop_index_1;
	expect_failure(r, "measurement-state", "no measurement 1");
	r->presign = twice_index_2;
	expect_failure(r, "measurement-signature", "reported twice");
	/* measurement 2 from a part with no meter_certificate */
	r->presign = NULL;
	r->hide_meter_file = true;
	expect_failure(r, "measurement-meter", "no meter_certificate to compare");
}

/* The chain's own hashes: RootHash, and the digest DIGESTS gives for it. */
static void test_chain_hashes(void **state)
{
	struct test_responder *r = *state;

	r->chain[SDSI_SPDM_CHAIN_OFF_ROOT_HASH] ^= 1;
	EVP_Digest(r->chain, r->chain_len, r->digest, NULL, EVP_sha384(), NULL);
	expect_failure(r, "root-hash", "not the SHA-384 of the chain's root certificate");
	r->chain[SDSI_SPDM_CHAIN_OFF_ROOT_HASH] ^= 1;
	EVP_Digest(r->chain, r->chain_len, r->digest, NULL, EVP_sha384(), NULL);
	run_edit(r, SDSI_SPDM_GET_DIGESTS, 0, SDSI_SPDM_DIGESTS_OFF_DIGEST + 7,
		 (uint8_t)(r->digest[7] ^ 1), "slot-digest", "not the SHA-384 of the chain");
}

static void echo_nonce(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)r;
	(void)len;
	if (rsp[1] == SDSI_SPDM_CHALLENGE_AUTH)
		memcpy(rsp + SDSI_SPDM_AUTH_OFF_NONCE, req + SDSI_SPDM_CHALLENGE_OFF_NONCE,
		       SDSI_SPDM_NONCE_SIZE);
}

/* The nonce of the last CHALLENGE_AUTH the responder sent, signed again. */
static void repeat_nonce(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len)
{
	(void)req;
	(void)len;
	if (rsp[1] == SDSI_SPDM_CHALLENGE_AUTH && r->last_auth_len)
		memcpy(rsp + SDSI_SPDM_AUTH_OFF_NONCE, r->last_auth + SDSI_SPDM_AUTH_OFF_NONCE,
		       SDSI_SPDM_NONCE_SIZE);
}

static void test_responder_nonce(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_io io = tr_io(r);
	struct sdsi_attest_verdict *v;
	struct sdsi_attest *att;

	r->presign = echo_nonce;
	expect_failure(r, "challenge-nonce", "is the requester's");
	/* in one session, a second CHALLENGE_AUTH with the first one's nonce */
	r->presign = NULL;
	assert_int_equal(sdsi_attest_open_with(&io, "t", &att, NULL), 0);
	assert_int_equal(sdsi_attest_verify(att, r->root_pem, &v, NULL), 0);
	assert_true(sdsi_attest_verdict_ok(v));
	sdsi_attest_verdict_free(v);
	r->presign = repeat_nonce;
	assert_int_equal(sdsi_attest_verify(att, r->root_pem, &v, NULL), 0);
	assert_string_equal(sdsi_attest_verdict_failed_check(v), "challenge-nonce");
	assert_non_null(strstr(tr_detail(v, "challenge-nonce"), "repeats its previous one"));
	sdsi_attest_verdict_free(v);
	sdsi_attest_free(att);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_truncated, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_oversized, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_shorter_than_header, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_code, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_version, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_other_error, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_misordered, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_lengths_disagree, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_algorithms, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_remainder_not_shrinking, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_portion_loop_bound, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_portion_over_ask, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_answer_over_buffer, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_signed_but_wrong, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_responder_nonce, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_chain_hashes, tr_fixture_setup, tr_fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
