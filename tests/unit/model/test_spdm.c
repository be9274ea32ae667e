// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPDM 1.0 responder behind ATTESTATION (0x1012), through the mailbox
 * as Intel's driver frames it: the frame and its bounds, each message and
 * each ERROR, the orders, the transcripts the signatures cover (kept here
 * as plain byte strings, verified with OpenSSL against the leaf of the
 * chain the part serves; spdm_requester.c), and bit 12.  The identity and
 * the faults are test_spdm_identity.c's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/evp.h>

#include "model/model_priv.h"
#include "spdm_requester.h"

static void test_frame_and_version(void **state)
{
	struct fixture *f = *state;
	uint8_t packet[24] = { 0x10, 0x84 }, answer[SDSI_READ_MSG_MAX];
	size_t got;

	/* attestation.rst's example: 4 bytes, 4 of padding, length 4, 0x1012. */
	packet[8] = 4;
	packet[16] = 0x12;
	packet[17] = 0x10;
	assert_int_equal(lx_attest_raw(&f->ts, packet, 24, answer, &got), 0);
	assert_int_equal(got, 16);
	assert_int_equal(f->ts.msg_size, 16);
	assert_memory_equal(answer, ((uint8_t[]){ 0x10, 0x04, 0, 0, 0, 1, 0x00, 0x10,
						  8, 0, 0, 0, 0, 0, 0, 0 }), 16);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 0);
	assert_int_equal(sdsi_model_spdm_errors(f->ts.m), 0);
}

/* Request: 1008 bytes fit one packet with the frame; 1009 do not. */
static void test_request_bound(void **state)
{
	struct fixture *f = *state;
	uint8_t req[SDSI_ATTEST_REQUEST_MAX + 1] = { 0x10, 0x84 };
	uint8_t packet[SDSI_MBOX_SIZE] = { 0x10, 0x84 }, rsp[SDSI_READ_MSG_MAX];
	size_t n;

	/* 1008 bytes are framed and answered (a GET_VERSION too long: InvalidRequest). */
	assert_int_equal(lx_attest(&f->ts, req, SDSI_ATTEST_REQUEST_MAX, rsp, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(rsp[1], 0x7F);
	assert_int_equal(rsp[2], SDSI_SPDM_ERR_INVALID_REQUEST);
	assert_int_equal(lx_attest(&f->ts, req, SDSI_ATTEST_REQUEST_MAX + 1, rsp, &n),
			 -EOVERFLOW);
	/* A full packet whose length says 1009: the firmware refuses the frame. */
	sdsi_put_le64(packet + SDSI_MBOX_SIZE - 16, SDSI_ATTEST_REQUEST_MAX + 1);
	sdsi_put_le64(packet + SDSI_MBOX_SIZE - 8, SDSI_CMD_ATTESTATION);
	assert_int_equal(lx_attest_raw(&f->ts, packet, SDSI_MBOX_SIZE, rsp, &n), -EIO);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 1);
	sdsi_put_le64(packet + SDSI_MBOX_SIZE - 16, SDSI_ATTEST_REQUEST_MAX);
	assert_int_equal(lx_attest_raw(&f->ts, packet, SDSI_MBOX_SIZE, rsp, &n), 0);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 1);
}

/* Response: 4088 bytes frame into the four packets a read may span; 4089 not. */
static void test_response_bound(void **state)
{
	static uint8_t rsp[SDSI_ATTEST_RESPONSE_MAX + 1], out[SDSI_READ_MSG_MAX + 8];

	(void)state;
	memset(rsp, 0x11, sizeof(rsp));
	assert_int_equal(attest_frame_response(rsp, SDSI_ATTEST_RESPONSE_MAX, out),
			 SDSI_READ_MSG_MAX);
	assert_int_equal(sdsi_le64(out + SDSI_READ_MSG_MAX - 8), SDSI_ATTEST_RESPONSE_MAX);
	assert_int_equal(attest_frame_response(rsp, SDSI_ATTEST_RESPONSE_MAX + 1, out), 0);
	/* A CERTIFICATE portion: 4080 bytes fit one answer, 4081 are served in part. */
	assert_int_equal(spdm_cert_portion(60000, 0, 4080, SDSI_SPDM_CERT_PORTION_MAX), 4080);
	assert_int_equal(spdm_cert_portion(60000, 0, 4081, SDSI_SPDM_CERT_PORTION_MAX), 4080);
	assert_int_equal(spdm_cert_portion(60000, 0, 4092, SDSI_SPDM_CERT_PORTION_MAX), 4080);
	assert_int_equal(spdm_cert_portion(100, 99, 4092, SDSI_SPDM_CERT_PORTION_MAX), 1);
	assert_int_equal(spdm_cert_portion(100, 100, 1, SDSI_SPDM_CERT_PORTION_MAX), 0);
	assert_int_equal(SDSI_SPDM_CERT_OFF_DATA + SDSI_SPDM_CERT_PORTION_MAX,
			 SDSI_ATTEST_RESPONSE_MAX);
}

static void test_full_flow(void **state)
{
	struct fixture *f = *state;
	uint8_t chain[65536], rsp[SDSI_READ_MSG_MAX], digest[48], state_hash[48];
	size_t chain_len, n;
	EVP_PKEY *key;
	bool ok = false;

	vca(f);
	n = xchg_m1(f, spdm_get_digests, 4, rsp);
	assert_int_equal(n, 52);
	assert_int_equal(rsp[1], 0x01);
	assert_int_equal(rsp[3], 0x01);
	/* Intel's tool asks 4092 at a time: one answer, in as many packets as it takes. */
	chain_len = read_chain(f, chain, sizeof(chain), 4092);
	assert_int_equal(f->ts.packets,
			 ((8 + chain_len + 7) / 8 * 8 + 8 + SDSI_MBOX_SIZE - 1) / SDSI_MBOX_SIZE);
	/* In portions of 100 bytes: the same chain (B holds both reads). */
	xchg_m1(f, spdm_get_digests, 4, rsp);
	assert_int_equal(read_chain(f, chain, sizeof(chain), 100), chain_len);
	sha384(chain, chain_len, digest);
	assert_memory_equal(rsp + 4, digest, 48);
	key = leaf_key(chain, chain_len);
	assert_non_null(key);
	assert_true(challenge(f, key, chain, chain_len, 0));
	/* DIGESTS, then CHALLENGE with a summary hash; CHALLENGE alone. */
	xchg_m1(f, spdm_get_digests, 4, rsp);
	assert_true(challenge(f, key, chain, chain_len, 0xFF));
	assert_true(challenge(f, key, chain, chain_len, 1));

	/* Count, then index 1 and all, unsigned, then signed over L1. */
	measurements(f, key, 0, false, rsp, &ok);
	assert_int_equal(rsp[2], 2);
	assert_int_equal(rsp[4], 0);
	measurements(f, key, 1, false, rsp, &ok);
	/* A read of the certificate is no SPDM request: L goes on. */
	state_digest(f, state_hash);
	measurements(f, key, 0xFF, false, rsp, &ok);
	assert_int_equal(rsp[4], 2);
	assert_int_equal(rsp[8], 1);
	assert_int_equal(rsp[9], 1);
	assert_int_equal(rsp[10] | rsp[11] << 8, 51);
	assert_int_equal(rsp[12], SDSI_SPDM_DMTF_TYPE_HW_CONFIG);
	assert_int_equal(rsp[13] | rsp[14] << 8, 48);
	assert_memory_equal(rsp + 15, state_hash, 48);
	assert_int_equal(rsp[8 + 55], 2);
	measurements(f, key, 1, true, rsp, &ok);
	assert_true(ok);
	ok = false;
	measurements(f, key, 0xFF, true, rsp, &ok);
	assert_true(ok);
	EVP_PKEY_free(key);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 0);
	assert_int_equal(sdsi_model_spdm_errors(f->ts.m), 0);
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	uint8_t nego[32], req[36] = { 0 }, rsp[SDSI_READ_MSG_MAX];

	/* Out of order after a reset. */
	expect_error(f, spdm_get_digests, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	expect_error(f, spdm_get_caps, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	/* Not 1.0. */
	expect_error(f, ((uint8_t[]){ 0x11, 0x84, 0, 0 }), 4, SDSI_SPDM_ERR_VERSION_MISMATCH);
	expect_error(f, ((uint8_t[]){ 0x10 }), 1, SDSI_SPDM_ERR_INVALID_REQUEST);
	/* Unknown and later-version codes. */
	expect_error(f, ((uint8_t[]){ 0x10, 0xE4, 0, 0 }), 4, SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0x05, 0, 0 }), 4, SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0x84, 0, 0, 0 }), 5, SDSI_SPDM_ERR_INVALID_REQUEST);
	xchg(f, spdm_get_version, 4, rsp);
	expect_error(f, ((uint8_t[]){ 0x10, 0xE1, 0, 0, 0 }), 5, SDSI_SPDM_ERR_INVALID_REQUEST);
	xchg(f, spdm_get_caps, 4, rsp);
	nego_request(nego);
	nego[8] = 0x10;		/* P-256 alone */
	expect_error(f, nego, 32, SDSI_SPDM_ERR_INVALID_REQUEST);
	nego_request(nego);
	nego[4] = 36;		/* Length not the message's */
	expect_error(f, nego, 32, SDSI_SPDM_ERR_INVALID_REQUEST);
	nego_request(nego);
	xchg(f, nego, 32, rsp);
	expect_error(f, spdm_get_caps, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	/* CERTIFICATE needs a DIGESTS first. */
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0, 0, 16, 0 }), 8,
		     SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	xchg(f, spdm_get_digests, 4, rsp);
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 1, 0, 0, 0, 16, 0 }), 8,
		     SDSI_SPDM_ERR_INVALID_REQUEST);		/* slot 1 */
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0xff, 0xff, 16, 0 }), 8,
		     SDSI_SPDM_ERR_INVALID_REQUEST);		/* past the end */
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0, 0, 0, 0 }), 8,
		     SDSI_SPDM_ERR_INVALID_REQUEST);		/* nothing asked */
	req[0] = 0x10;
	req[1] = 0x83;
	req[2] = 1;
	expect_error(f, req, 36, SDSI_SPDM_ERR_INVALID_REQUEST);	/* slot 1 */
	req[2] = 0;
	req[3] = 2;
	expect_error(f, req, 36, SDSI_SPDM_ERR_INVALID_REQUEST);	/* summary type 2 */
	req[3] = 0;
	expect_error(f, req, 35, SDSI_SPDM_ERR_INVALID_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0xE0, 0, 3 }), 4, SDSI_SPDM_ERR_INVALID_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0xE0, 1, 1 }), 4, SDSI_SPDM_ERR_INVALID_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0xE0, 2, 1 }), 4, SDSI_SPDM_ERR_INVALID_REQUEST);
	/* Errors change nothing: the connection still serves. */
	assert_int_equal(xchg(f, req, 36, rsp), 4 + 48 + 32 + 2 + 96);
	/* A reset (no CACHE): VCA again. */
	sdsi_model_power_cycle(f->ts.m);
	expect_error(f, spdm_get_digests, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 0);
}

/* Without bit 12, 0x1012 is an unknown command; a setting turns it on. */
static void test_bit12(void **state)
{
	struct fixture *f = *state;
	uint8_t rsp[SDSI_READ_MSG_MAX];
	size_t n;

	assert_true(reg_read(&f->ts, SDSI_REG_FEATURES) & SDSI_FEATURE_ATTESTATION);
	sdsi_model_set_features(f->ts.m, SDSI_FEATURE_ON_DEMAND);
	assert_int_equal(lx_attest(&f->ts, spdm_get_version, 4, rsp, &n), -EIO);
	sdsi_model_set_features(f->ts.m, SDSI_MODEL_DEFAULT_FEATURES);
	assert_int_equal(lx_attest(&f->ts, spdm_get_version, 4, rsp, &n), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, spdm_setup, spdm_teardown)
		T(test_frame_and_version),
		T(test_request_bound),
		T(test_response_bound),
		T(test_full_flow),
		T(test_errors),
		T(test_bit12),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
