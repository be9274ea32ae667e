// SPDX-License-Identifier: GPL-2.0-only
/* The model's SPDM tests' requester (spdm_requester.h). */
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

#include "spdm_requester.h"
#include "model/model_priv.h"
#include "scratch_dir.h"
#include "licensing/sdsi_lic.h"

int spdm_setup(void **state)
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

int spdm_teardown(void **state)
{
	struct fixture *f = *state;

	scratch_socket_remove(&f->ts, f->dir);
	free(f);
	return 0;
}

/* One exchange that the mailbox completes; returns the response length. */
size_t xchg(struct fixture *f, const void *req, size_t len, uint8_t *rsp)
{
	size_t n = 0;

	assert_int_equal(lx_attest(&f->ts, req, len, rsp, &n), 0);
	assert_true(n >= 4 && n <= SDSI_ATTEST_RESPONSE_MAX);
	assert_int_equal(rsp[0], 0x10);
	return n;
}

void add(uint8_t *t, size_t *tlen, size_t max, const void *p, size_t n)
{
	assert_true(*tlen + n <= max);
	memcpy(t + *tlen, p, n);
	*tlen += n;
}

/* An exchange that enters M1. */
size_t xchg_m1(struct fixture *f, const void *req, size_t len, uint8_t *rsp)
{
	size_t n = xchg(f, req, len, rsp);

	add(f->m1, &f->m1_len, sizeof(f->m1), req, len);
	add(f->m1, &f->m1_len, sizeof(f->m1), rsp, n);
	return n;
}

void expect_error(struct fixture *f, const void *req, size_t len,
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

const uint8_t spdm_get_version[] = { 0x10, 0x84, 0, 0 };
const uint8_t spdm_get_caps[] = { 0x10, 0xE1, 0, 0 };
const uint8_t spdm_get_digests[] = { 0x10, 0x81, 0, 0 };

void nego_request(uint8_t req[32])
{
	memset(req, 0, 32);
	req[0] = 0x10;
	req[1] = 0xE3;
	req[4] = 32;
	req[6] = 0x01;				/* DMTF */
	req[8] = 0x80 | 0x10;			/* ECDSA P-384, and P-256 offered too */
	req[12] = 0x02 | 0x01;			/* SHA-384, SHA-256 */
}

void vca(struct fixture *f)
{
	uint8_t rsp[SDSI_READ_MSG_MAX], nego[32];
	size_t n;

	f->m1_len = 0;
	n = xchg_m1(f, spdm_get_version, 4, rsp);
	assert_int_equal(n, 8);
	assert_memory_equal(rsp, ((uint8_t[]){ 0x10, 0x04, 0, 0, 0, 1, 0x00, 0x10 }), 8);
	n = xchg_m1(f, spdm_get_caps, 4, rsp);
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
size_t read_chain(struct fixture *f, uint8_t *chain, size_t max,
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
EVP_PKEY *leaf_key(const uint8_t *chain, size_t len)
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
bool verifies(EVP_PKEY *key, const uint8_t *msg, size_t len,
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

void sha384(const void *p, size_t n, uint8_t out[48])
{
	assert_int_equal(EVP_Digest(p, n, out, NULL, EVP_sha384(), NULL), 1);
}

/* CHALLENGE with summary type `summary`; whether CHALLENGE_AUTH verifies. */
bool challenge(struct fixture *f, EVP_PKEY *key, const uint8_t *chain,
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
void state_digest(struct fixture *f, uint8_t out[48])
{
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	sha384(buf, len, out);
}

/* GET_MEASUREMENTS of `what`; signed: whether it verifies over L1. */
size_t measurements(struct fixture *f, EVP_PKEY *key, uint8_t what,
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


void chain_digest(struct fixture *f, uint8_t out[48])
{
	uint8_t rsp[SDSI_READ_MSG_MAX];

	vca(f);
	assert_int_equal(xchg_m1(f, spdm_get_digests, 4, rsp), 52);
	memcpy(out, rsp + 4, 48);
}

/* The identity is made once, kept with the NVRAM; another part has its own. */
