// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPDM 1.0 responder behind ATTESTATION (0x1012), through the mailbox
 * as Intel's driver frames it: the frame and its bounds, each message and
 * each ERROR, the orders, the transcripts the signatures cover (kept here
 * as plain byte strings, verified with OpenSSL against the leaf of the
 * chain the part serves), the identity across restarts, and the faults.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "linux_mmio.h"
#include "model_priv.h"
#include "scratch_dir.h"
#include "sdsi_lic.h"

struct fixture {
	char dir[64];
	char root_cert[128];
	char root_key[128];
	struct tsock ts;
	struct sdsi_model_config cfg;
	/* The requester's transcripts: M1 (A + B + C) and L1. */
	uint8_t m1[16384];
	size_t m1_len, a_len;
	uint8_t l1[8192];
	size_t l1_len;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sdsi_lic_error err;
	EVP_PKEY *key;
	X509 *cert;

	assert_non_null(f);
	strcpy(f->dir, "/tmp/sdsi-model-spdm-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->root_cert, sizeof(f->root_cert), "%s/attestation-root.pem", f->dir);
	snprintf(f->root_key, sizeof(f->root_key), "%s/attestation-root.key", f->dir);
	assert_int_equal(sdsi_lic_attest_root_make("test root", &key, &cert, &err), 0);
	assert_int_equal(sdsi_lic_cert_save(f->root_cert, cert, &err), 0);
	assert_int_equal(sdsi_lic_key_save_private(f->root_key, key, &err), 0);
	EVP_PKEY_free(key);
	X509_free(cert);
	tsock_config(&f->ts, &f->cfg, SDSI_GUID_V2);
	f->cfg.state_dir = f->dir;
	f->cfg.attest_root_cert_path = f->root_cert;
	f->cfg.attest_root_key_path = f->root_key;
	tsock_open(&f->ts, &f->cfg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->ts.m)
		tsock_close(&f->ts);
	scratch_dir_remove(f->dir);
	free(f);
	return 0;
}

/* One exchange that the mailbox completes; returns the response length. */
static size_t xchg(struct fixture *f, const void *req, size_t len, uint8_t *rsp)
{
	size_t n = 0;

	assert_int_equal(lx_attest(&f->ts, req, len, rsp, &n), 0);
	assert_true(n >= 4 && n <= SDSI_ATTEST_RESPONSE_MAX);
	assert_int_equal(rsp[0], 0x10);
	return n;
}

static void add(uint8_t *t, size_t *tlen, size_t max, const void *p, size_t n)
{
	assert_true(*tlen + n <= max);
	memcpy(t + *tlen, p, n);
	*tlen += n;
}

/* An exchange that enters M1. */
static size_t xchg_m1(struct fixture *f, const void *req, size_t len, uint8_t *rsp)
{
	size_t n = xchg(f, req, len, rsp);

	add(f->m1, &f->m1_len, sizeof(f->m1), req, len);
	add(f->m1, &f->m1_len, sizeof(f->m1), rsp, n);
	return n;
}

static void expect_error(struct fixture *f, const void *req, size_t len,
			 uint8_t code)
{
	uint8_t rsp[SDSI_READ_MSG_MAX];
	uint64_t before = sdsi_model_spdm_errors(f->ts.m);

	assert_int_equal(xchg(f, req, len, rsp), 4);
	assert_int_equal(rsp[1], SDSI_SPDM_ERROR);
	assert_int_equal(rsp[2], code);
	assert_int_equal(rsp[3], 0);
	assert_int_equal(sdsi_model_spdm_errors(f->ts.m), before + 1);
}

static const uint8_t get_version[] = { 0x10, 0x84, 0, 0 };
static const uint8_t get_caps[] = { 0x10, 0xE1, 0, 0 };
static const uint8_t get_digests[] = { 0x10, 0x81, 0, 0 };

static void nego_request(uint8_t req[32])
{
	memset(req, 0, 32);
	req[0] = 0x10;
	req[1] = 0xE3;
	req[4] = 32;
	req[6] = 0x01;				/* DMTF */
	req[8] = 0x80 | 0x10;			/* ECDSA P-384, and P-256 offered too */
	req[12] = 0x02 | 0x01;			/* SHA-384, SHA-256 */
}

static void vca(struct fixture *f)
{
	uint8_t rsp[SDSI_READ_MSG_MAX], nego[32];
	size_t n;

	f->m1_len = 0;
	n = xchg_m1(f, get_version, 4, rsp);
	assert_int_equal(n, 8);
	assert_memory_equal(rsp, ((uint8_t[]){ 0x10, 0x04, 0, 0, 0, 1, 0x00, 0x10 }), 8);
	n = xchg_m1(f, get_caps, 4, rsp);
	assert_int_equal(n, 12);
	assert_int_equal(rsp[1], 0x61);
	assert_int_equal(sdsi_le32(rsp + 8), 0x02 | 0x04 | 0x10);	/* CERT CHAL MEAS(signed) */
	nego_request(nego);
	n = xchg_m1(f, nego, 32, rsp);
	assert_int_equal(n, 36);
	assert_int_equal(rsp[1], 0x63);
	assert_int_equal(rsp[4] | rsp[5] << 8, 36);
	assert_int_equal(rsp[6], 0x01);
	assert_int_equal(sdsi_le32(rsp + 8), 0x04);		/* measurement hash SHA-384 */
	assert_int_equal(sdsi_le32(rsp + 12), 0x80);		/* ECDSA P-384 */
	assert_int_equal(sdsi_le32(rsp + 16), 0x02);		/* SHA-384 */
	f->a_len = f->m1_len;
}

/* The chain of slot 0, read in portions of at most `step` bytes. */
static size_t read_chain(struct fixture *f, uint8_t *chain, size_t max,
			 unsigned int step)
{
	uint8_t req[8] = { 0x10, 0x82, 0, 0 }, rsp[SDSI_READ_MSG_MAX];
	size_t got = 0, n;
	unsigned int portion, remainder;

	do {
		req[4] = (uint8_t)got;
		req[5] = (uint8_t)(got >> 8);
		req[6] = (uint8_t)step;
		req[7] = (uint8_t)(step >> 8);
		n = xchg_m1(f, req, 8, rsp);
		assert_int_equal(rsp[1], 0x02);
		portion = rsp[4] | rsp[5] << 8;
		remainder = rsp[6] | rsp[7] << 8;
		assert_int_equal(n, 8 + portion);
		assert_true(portion > 0 && got + portion <= max);
		memcpy(chain + got, rsp + 8, portion);
		got += portion;
	} while (remainder);
	assert_int_equal(chain[0] | chain[1] << 8, got);
	return got;
}

/* The leaf's public key: the last certificate of the chain. */
static EVP_PKEY *leaf_key(const uint8_t *chain, size_t len)
{
	const unsigned char *p = chain + SDSI_SPDM_CHAIN_OFF_CERTS;
	X509 *cert = NULL, *last = NULL;
	EVP_PKEY *key;

	while (p < chain + len) {
		cert = d2i_X509(NULL, &p, (long)(chain + len - p));
		assert_non_null(cert);
		X509_free(last);
		last = cert;
	}
	key = X509_get_pubkey(last);
	X509_free(last);
	return key;
}

/* ECDSA P-384 over SHA-384 of msg, raw r || s. */
static bool verifies(EVP_PKEY *key, const uint8_t *msg, size_t len,
		     const uint8_t *sig)
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	unsigned char der[128], *p = der;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int der_len, ok;

	ECDSA_SIG_set0(es, BN_bin2bn(sig, 48, NULL), BN_bin2bn(sig + 48, 48, NULL));
	der_len = i2d_ECDSA_SIG(es, &p);
	ok = EVP_DigestVerifyInit(ctx, NULL, EVP_sha384(), NULL, key) == 1 &&
	     EVP_DigestVerify(ctx, der, (size_t)der_len, msg, len) == 1;
	EVP_MD_CTX_free(ctx);
	ECDSA_SIG_free(es);
	return ok;
}

static void sha384(const void *p, size_t n, uint8_t out[48])
{
	assert_int_equal(EVP_Digest(p, n, out, NULL, EVP_sha384(), NULL), 1);
}

/* CHALLENGE with summary type `summary`; whether CHALLENGE_AUTH verifies. */
static bool challenge(struct fixture *f, EVP_PKEY *key, const uint8_t *chain,
		      size_t chain_len, uint8_t summary)
{
	uint8_t req[36] = { 0x10, 0x83, 0, summary }, rsp[SDSI_READ_MSG_MAX];
	uint8_t digest[48];
	size_t n, body = 4 + 48 + 32 + (summary ? 48 : 0) + 2;
	bool ok;

	memset(req + 4, 0xA5, 32);
	n = xchg(f, req, sizeof(req), rsp);
	assert_int_equal(rsp[1], 0x03);
	assert_int_equal(rsp[2], 0);
	assert_int_equal(rsp[3], 0x01);
	assert_int_equal(n, body + 96);
	sha384(chain, chain_len, digest);
	assert_memory_equal(rsp + 4, digest, 48);
	add(f->m1, &f->m1_len, sizeof(f->m1), req, sizeof(req));
	add(f->m1, &f->m1_len, sizeof(f->m1), rsp, body);
	ok = verifies(key, f->m1, f->m1_len, rsp + body);
	/* After CHALLENGE_AUTH only A stays. */
	f->m1_len = f->a_len;
	return ok;
}

/* The state certificate as a read of state_certificate returns it. */
static void state_digest(struct fixture *f, uint8_t out[48])
{
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	sha384(buf, len, out);
}

/* GET_MEASUREMENTS of `what`; signed: whether it verifies over L1. */
static size_t measurements(struct fixture *f, EVP_PKEY *key, uint8_t what,
			   bool sign, uint8_t *rsp, bool *ok)
{
	uint8_t req[36] = { 0x10, 0xE0, sign ? 1 : 0, what };
	size_t len = sign ? 36 : 4, n, record;

	memset(req + 4, 0x3C, 32);
	n = xchg(f, req, len, rsp);
	assert_int_equal(rsp[1], 0x60);
	record = rsp[5] | rsp[6] << 8 | rsp[7] << 16;
	assert_int_equal(n, 8 + record + 32 + 2 + (sign ? 96 : 0));
	add(f->l1, &f->l1_len, sizeof(f->l1), req, len);
	add(f->l1, &f->l1_len, sizeof(f->l1), rsp, n - (sign ? 96 : 0));
	if (sign) {
		*ok = verifies(key, f->l1, f->l1_len, rsp + n - 96);
		f->l1_len = 0;
	}
	return n;
}

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
	n = xchg_m1(f, get_digests, 4, rsp);
	assert_int_equal(n, 52);
	assert_int_equal(rsp[1], 0x01);
	assert_int_equal(rsp[3], 0x01);
	/* Intel's tool asks 4092 at a time: one answer, in as many packets as it takes. */
	chain_len = read_chain(f, chain, sizeof(chain), 4092);
	assert_int_equal(f->ts.packets,
			 ((8 + chain_len + 7) / 8 * 8 + 8 + SDSI_MBOX_SIZE - 1) / SDSI_MBOX_SIZE);
	/* In portions of 100 bytes: the same chain (B holds both reads). */
	xchg_m1(f, get_digests, 4, rsp);
	assert_int_equal(read_chain(f, chain, sizeof(chain), 100), chain_len);
	sha384(chain, chain_len, digest);
	assert_memory_equal(rsp + 4, digest, 48);
	key = leaf_key(chain, chain_len);
	assert_non_null(key);
	assert_true(challenge(f, key, chain, chain_len, 0));
	/* DIGESTS, then CHALLENGE with a summary hash; CHALLENGE alone. */
	xchg_m1(f, get_digests, 4, rsp);
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
	expect_error(f, get_digests, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	expect_error(f, get_caps, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	/* Not 1.0. */
	expect_error(f, ((uint8_t[]){ 0x11, 0x84, 0, 0 }), 4, SDSI_SPDM_ERR_VERSION_MISMATCH);
	expect_error(f, ((uint8_t[]){ 0x10 }), 1, SDSI_SPDM_ERR_INVALID_REQUEST);
	/* Unknown and later-version codes. */
	expect_error(f, ((uint8_t[]){ 0x10, 0xE4, 0, 0 }), 4, SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0x05, 0, 0 }), 4, SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	expect_error(f, ((uint8_t[]){ 0x10, 0x84, 0, 0, 0 }), 5, SDSI_SPDM_ERR_INVALID_REQUEST);
	xchg(f, get_version, 4, rsp);
	expect_error(f, get_caps, 5, SDSI_SPDM_ERR_INVALID_REQUEST);
	xchg(f, get_caps, 4, rsp);
	nego_request(nego);
	nego[8] = 0x10;		/* P-256 alone */
	expect_error(f, nego, 32, SDSI_SPDM_ERR_INVALID_REQUEST);
	nego_request(nego);
	nego[4] = 36;		/* Length not the message's */
	expect_error(f, nego, 32, SDSI_SPDM_ERR_INVALID_REQUEST);
	nego_request(nego);
	xchg(f, nego, 32, rsp);
	expect_error(f, get_caps, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	/* CERTIFICATE needs a DIGESTS first. */
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0, 0, 16, 0 }), 8,
		     SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
	xchg(f, get_digests, 4, rsp);
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
	expect_error(f, get_digests, 4, SDSI_SPDM_ERR_UNEXPECTED_REQUEST);
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
	assert_int_equal(lx_attest(&f->ts, get_version, 4, rsp, &n), -EIO);
	sdsi_model_set_features(f->ts.m, SDSI_MODEL_DEFAULT_FEATURES);
	assert_int_equal(lx_attest(&f->ts, get_version, 4, rsp, &n), 0);
}

static void chain_digest(struct fixture *f, uint8_t out[48])
{
	uint8_t rsp[SDSI_READ_MSG_MAX];

	vca(f);
	assert_int_equal(xchg_m1(f, get_digests, 4, rsp), 52);
	memcpy(out, rsp + 4, 48);
}

/* The identity is made once, kept with the NVRAM; another part has its own. */
static void test_identity_kept(void **state)
{
	struct fixture *f = *state;
	uint8_t first[48], again[48], other[48];
	static uint8_t chain[65536];
	EVP_PKEY *key, *other_key;
	char path[160];
	size_t len;

	chain_digest(f, first);
	tsock_close(&f->ts);
	/* Made: the root is no longer needed to start. */
	f->cfg.attest_root_cert_path = NULL;
	f->cfg.attest_root_key_path = NULL;
	tsock_open(&f->ts, &f->cfg);
	chain_digest(f, again);
	assert_memory_equal(first, again, 48);
	snprintf(path, sizeof(path), "%s/socket0.identity", f->dir);
	assert_int_equal(access(path, R_OK), 0);
	f->cfg.attest_root_cert_path = f->root_cert;
	f->cfg.attest_root_key_path = f->root_key;
	len = read_chain(f, chain, sizeof(chain), 4092);
	key = leaf_key(chain, len);
	tsock_close(&f->ts);
	f->cfg.socket_index = 1;
	f->cfg.ppin = 0x1111;
	tsock_open(&f->ts, &f->cfg);
	chain_digest(f, other);
	assert_memory_not_equal(first, other, 48);
	len = read_chain(f, chain, sizeof(chain), 4092);
	other_key = leaf_key(chain, len);
	/* Two parts never share a key. */
	assert_int_not_equal(EVP_PKEY_eq(key, other_key), 1);
	EVP_PKEY_free(key);
	EVP_PKEY_free(other_key);
}

/* An identity file that is not one is refused, named, and left as it was. */
static void test_identity_file_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], link_target[160];
	const char *msg;
	FILE *fp;

	tsock_close(&f->ts);
	snprintf(path, sizeof(path), "%s/socket0.identity", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("not a key\n", fp);
	fclose(fp);
	msg = tsock_expect_refused(&f->cfg, -EPROTO, path);
	assert_non_null(strstr(msg, "not a P-384 key"));
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(link_target, sizeof(link_target), fp));
	fclose(fp);
	assert_string_equal(link_target, "not a key\n");
	/* A symbolic link is not followed. */
	assert_int_equal(unlink(path), 0);
	snprintf(link_target, sizeof(link_target), "%s/attestation-root.key", f->dir);
	assert_int_equal(symlink(link_target, path), 0);
	tsock_expect_refused(&f->cfg, -ELOOP, path);
	assert_int_equal(unlink(path), 0);
	/* A root whose key is another's: nothing is made. */
	f->cfg.attest_root_key_path = f->root_cert;
	tsock_expect_refused(&f->cfg, -EBADMSG, "attestation root");
	assert_int_not_equal(access(path, F_OK), 0);
}

/* A part made without a root: an empty slot 0, and the rest refused. */
static void test_no_identity(void **state)
{
	struct fixture *f = *state;
	uint8_t rsp[SDSI_READ_MSG_MAX];

	tsock_close(&f->ts);
	f->cfg.attest_root_cert_path = NULL;
	f->cfg.attest_root_key_path = NULL;
	f->cfg.state_dir = NULL;
	tsock_open(&f->ts, &f->cfg);
	vca(f);
	assert_int_equal(xchg(f, get_digests, 4, rsp), 4);
	assert_int_equal(rsp[3], 0);
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0, 0, 16, 0 }), 8,
		     SDSI_SPDM_ERR_INVALID_REQUEST);
}

static void test_faults(void **state)
{
	struct fixture *f = *state;
	uint8_t chain[65536], rsp[SDSI_READ_MSG_MAX], good[48], state_hash[48];
	size_t chain_len;
	EVP_PKEY *key;
	bool ok = false;

	chain_digest(f, good);
	chain_len = read_chain(f, chain, sizeof(chain), 4092);
	key = leaf_key(chain, chain_len);

	/* Busy, once, whatever was asked; not a requester's error. */
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_BUSY, 0, 1), 0);
	assert_int_equal(xchg(f, get_digests, 4, rsp), 4);
	assert_int_equal(rsp[1], 0x7F);
	assert_int_equal(rsp[2], SDSI_SPDM_ERR_BUSY);
	assert_int_equal(sdsi_model_spdm_errors(f->ts.m), 0);
	assert_int_equal(xchg_m1(f, get_digests, 4, rsp), 52);

	/* A flipped signature bit: CHALLENGE_AUTH no longer verifies, once. */
	assert_true(challenge(f, key, chain, chain_len, 0));
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_SIGNATURE, 0, 1), 0);
	assert_false(challenge(f, key, chain, chain_len, 0));
	assert_true(challenge(f, key, chain, chain_len, 0));

	/* Measurement 1 of a different certificate. */
	state_digest(f, state_hash);
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_MEASUREMENT, 0, 1), 0);
	f->l1_len = 0;
	measurements(f, key, 1, true, rsp, &ok);
	assert_true(ok);
	assert_memory_not_equal(rsp + 15, state_hash, 48);
	measurements(f, key, 1, true, rsp, &ok);
	assert_memory_equal(rsp + 15, state_hash, 48);
	EVP_PKEY_free(key);

	/* A chain from another root, until cleared. */
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_CHAIN, 0, 0), 0);
	assert_int_equal(xchg(f, get_digests, 4, rsp), 52);
	assert_memory_not_equal(rsp + 4, good, 48);
	chain_len = read_chain(f, chain + 0, sizeof(chain), 4092);
	sha384(chain, chain_len, good);
	assert_memory_equal(rsp + 4, good, 48);
	sdsi_model_fault_clear(f->ts.m, SDSI_FAULT_ATTEST_CHAIN);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_frame_and_version),
		T(test_request_bound),
		T(test_response_bound),
		T(test_full_flow),
		T(test_errors),
		T(test_bit12),
		T(test_identity_kept),
		T(test_no_identity),
		T(test_identity_file_refused),
		T(test_faults),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
