// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tests' SPDM 1.0 responder (spdm_test_responder.h), from DSP0274 1.0:
 * M1 is VCA, GET_DIGESTS and the CERTIFICATE exchanges, then CHALLENGE and
 * CHALLENGE_AUTH up to its signature; L1 the GET_MEASUREMENTS exchanges
 * since any other request, the last answer up to its signature; each
 * signature ECDSA P-384 over the transcript's SHA-384, raw r || s.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include "spdm_test_responder.h"

static EVP_PKEY *new_key(void)
{
	return EVP_EC_gen("P-384");
}

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return -1;
	ok = X509_add_ext(cert, ext, -1);
	X509_EXTENSION_free(ext);
	return ok ? 0 : -1;
}

/* A certificate for key, by issuer (NULL: self-signed), padding bytes of comment. */
static X509 *new_cert(const char *cn, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key,
		      bool ca, size_t padding)
{
	X509 *cert = X509_new();
	X509_NAME *name;
	char *comment = NULL;
	int ok;

	if (!cert)
		return NULL;
	name = X509_get_subject_name(cert);
	ok = X509_set_version(cert, 2) &&
	     ASN1_INTEGER_set(X509_get_serialNumber(cert), ca ? 1 : 2) &&
	     X509_gmtime_adj(X509_getm_notBefore(cert), -3600) &&
	     X509_gmtime_adj(X509_getm_notAfter(cert), 3600L * 24 * 365) &&
	     X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"sdsi tests",
					-1, -1, 0) &&
	     X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn,
					-1, -1, 0) &&
	     X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name) &&
	     X509_set_pubkey(cert, key);
	if (ok)
		ok = !add_ext(cert, issuer ? issuer : cert, NID_basic_constraints,
			      ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
	if (ok && padding) {
		comment = malloc(padding + 1);
		ok = comment != NULL;
		if (ok) {
			memset(comment, 'p', padding);
			comment[padding] = '\0';
			ok = !add_ext(cert, issuer ? issuer : cert, NID_netscape_comment, comment);
		}
		free(comment);
	}
	if (ok)
		ok = X509_sign(cert, issuer_key ? issuer_key : key, EVP_sha384()) > 0;
	if (!ok) {
		X509_free(cert);
		return NULL;
	}
	return cert;
}

static void sha384(const uint8_t *p, size_t len, uint8_t *out)
{
	EVP_Digest(p, len, out, NULL, EVP_sha384(), NULL);
}

/* Slot 0's chain: Length, reserved, RootHash, the root's DER, the leaf's (or garbage). */
static int build_chain(struct test_responder *r, bool garbage_cert)
{
	unsigned char *root_der = NULL, *leaf_der = NULL;
	int root_len = i2d_X509(r->root, &root_der);
	int leaf_len = i2d_X509(r->leaf, &leaf_der);
	size_t len;

	if (root_len <= 0 || leaf_len <= 0)
		return -1;
	if (garbage_cert)
		memset(leaf_der, 0xA5, (size_t)leaf_len);
	/* a chain over 65535 bytes is built too (its Length wraps): a test sizes it down */
	len = SDSI_SPDM_CHAIN_OFF_CERTS + (size_t)root_len + (size_t)leaf_len;
	r->chain = calloc(1, len);
	if (!r->chain) {
		OPENSSL_free(root_der);
		OPENSSL_free(leaf_der);
		return -1;
	}
	r->chain_len = len;
	sdsi_put_le16(r->chain + SDSI_SPDM_CHAIN_OFF_LENGTH, (uint16_t)len);
	sha384(root_der, (size_t)root_len, r->chain + SDSI_SPDM_CHAIN_OFF_ROOT_HASH);
	memcpy(r->chain + SDSI_SPDM_CHAIN_OFF_CERTS, root_der, (size_t)root_len);
	memcpy(r->chain + SDSI_SPDM_CHAIN_OFF_CERTS + root_len, leaf_der, (size_t)leaf_len);
	sha384(r->chain, len, r->digest);
	OPENSSL_free(root_der);
	OPENSSL_free(leaf_der);
	return 0;
}

static int write_pem(const char *path, X509 *cert)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = PEM_write_X509(f, cert);
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

int tr_write_other_root(const char *path)
{
	EVP_PKEY *key = new_key();
	X509 *root = key ? new_cert("another authority", key, NULL, NULL, true, 0) : NULL;
	int ret = root ? write_pem(path, root) : -1;

	X509_free(root);
	EVP_PKEY_free(key);
	return ret;
}

int tr_init(struct test_responder *r, size_t leaf_padding, bool garbage_cert)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/sdsi-attest-XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	snprintf(r->root_pem, sizeof(r->root_pem), "%s/root.pem", r->dir);
	r->root_key = new_key();
	r->leaf_key = new_key();
	if (!r->root_key || !r->leaf_key)
		return -1;
	r->root = new_cert("test attestation root", r->root_key, NULL, NULL, true, 0);
	r->leaf = r->root ? new_cert("test part", r->leaf_key, r->root, r->root_key, false,
				     leaf_padding) : NULL;
	if (!r->leaf || build_chain(r, garbage_cert) || write_pem(r->root_pem, r->root))
		return -1;
	r->m1 = EVP_MD_CTX_new();
	r->l1 = EVP_MD_CTX_new();
	if (!r->m1 || !r->l1 || !EVP_DigestInit_ex(r->m1, EVP_sha384(), NULL) ||
	    !EVP_DigestInit_ex(r->l1, EVP_sha384(), NULL))
		return -1;
	/* two certificates of recognisable bytes */
	r->state_len = 80;
	r->meter_len = 40;
	for (i = 0; i < TR_CERT_MAX; i++) {
		r->state_measured[i] = r->state_read[i] = (uint8_t)(i * 7 + 1);
		r->meter_measured[i] = r->meter_read[i] = (uint8_t)(i * 13 + 5);
	}
	r->meters = true;
	r->max_portion = SDSI_SPDM_CERT_PORTION_MAX;
	return 0;
}

void tr_free(struct test_responder *r)
{
	unlink(r->root_pem);
	rmdir(r->dir);
	EVP_MD_CTX_free(r->m1);
	EVP_MD_CTX_free(r->l1);
	X509_free(r->root);
	X509_free(r->leaf);
	EVP_PKEY_free(r->root_key);
	EVP_PKEY_free(r->leaf_key);
	free(r->chain);
}

int tr_fixture_setup(void **state)
{
	struct test_responder *r = malloc(sizeof(*r));

	if (!r || tr_init(r, 0, false)) {
		free(r);
		return -1;
	}
	*state = r;
	return 0;
}

int tr_fixture_teardown(void **state)
{
	tr_free(*state);
	free(*state);
	return 0;
}

/* ECDSA P-384 over the digest of ctx's transcript, as r || s. */
static int sign(EVP_PKEY *key, EVP_MD_CTX *ctx, uint8_t *sig)
{
	uint8_t digest[SDSI_SPDM_HASH_SIZE], der[160];
	EVP_MD_CTX *copy = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new(key, NULL);
	size_t der_len = sizeof(der);
	const unsigned char *p = der;
	ECDSA_SIG *es = NULL;
	int ok;

	ok = copy && pctx && EVP_MD_CTX_copy_ex(copy, ctx) &&
	     EVP_DigestFinal_ex(copy, digest, NULL) && EVP_PKEY_sign_init(pctx) > 0 &&
	     EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha384()) > 0 &&
	     EVP_PKEY_sign(pctx, der, &der_len, digest, sizeof(digest)) > 0 &&
	     (es = d2i_ECDSA_SIG(NULL, &p, (long)der_len)) != NULL &&
	     BN_bn2binpad(ECDSA_SIG_get0_r(es), sig, 48) == 48 &&
	     BN_bn2binpad(ECDSA_SIG_get0_s(es), sig + 48, 48) == 48;
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(pctx);
	EVP_MD_CTX_free(copy);
	return ok ? 0 : -1;
}

static size_t error_answer(uint8_t *rsp, uint8_t code)
{
	rsp[0] = SDSI_SPDM_VERSION_10;
	rsp[1] = SDSI_SPDM_ERROR;
	rsp[2] = code;
	rsp[3] = 0;
	return SDSI_SPDM_ERROR_SIZE;
}

static void header(uint8_t *rsp, uint8_t code, uint8_t p1, uint8_t p2)
{
	rsp[0] = SDSI_SPDM_VERSION_10;
	rsp[1] = code;
	rsp[2] = p1;
	rsp[3] = p2;
}

static size_t measurement_block(uint8_t *out, uint8_t index, const uint8_t *bytes, size_t len)
{
	out[0] = index;
	out[1] = SDSI_SPDM_MEAS_SPEC_DMTF;
	sdsi_put_le16(out + 2, SDSI_SPDM_DMTF_HDR_SIZE + SDSI_SPDM_HASH_SIZE);
	out[4] = SDSI_SPDM_DMTF_TYPE_HW_CONFIG;
	sdsi_put_le16(out + 5, SDSI_SPDM_HASH_SIZE);
	sha384(bytes, len, out + 7);
	return SDSI_SPDM_BLOCK_SIZE;
}

/* The answer to a well-formed request; the transcripts follow. */
static size_t answer(struct test_responder *r, const uint8_t *req, size_t len, uint8_t *rsp)
{
	size_t off, portion, record;
	uint32_t offset, asked;

	if (len < SDSI_SPDM_HDR_SIZE || req[0] != SDSI_SPDM_VERSION_10)
		return error_answer(rsp, SDSI_SPDM_ERR_VERSION_MISMATCH);
	if (req[1] != SDSI_SPDM_GET_MEASUREMENTS)
		EVP_DigestInit_ex(r->l1, EVP_sha384(), NULL);
	switch (req[1]) {
	case SDSI_SPDM_GET_VERSION:
		EVP_DigestInit_ex(r->m1, EVP_sha384(), NULL);
		header(rsp, SDSI_SPDM_VERSION, 0, 0);
		rsp[4] = 0;
		rsp[5] = 1;
		sdsi_put_le16(rsp + 6, SDSI_SPDM_VERSION_ENTRY_10);
		off = 8;
		break;
	case SDSI_SPDM_GET_CAPABILITIES:
		memset(rsp, 0, SDSI_SPDM_CAPS_SIZE);
		header(rsp, SDSI_SPDM_CAPABILITIES, 0, 0);
		sdsi_put_le32(rsp + SDSI_SPDM_CAPS_OFF_FLAGS,
			      SDSI_SPDM_CAP_CERT | SDSI_SPDM_CAP_CHAL | SDSI_SPDM_CAP_MEAS_SIG);
		off = SDSI_SPDM_CAPS_SIZE;
		break;
	case SDSI_SPDM_NEGOTIATE_ALGORITHMS:
		memset(rsp, 0, SDSI_SPDM_ALGS_SIZE);
		header(rsp, SDSI_SPDM_ALGORITHMS, 0, 0);
		sdsi_put_le16(rsp + SDSI_SPDM_ALGS_OFF_LENGTH, SDSI_SPDM_ALGS_SIZE);
		rsp[SDSI_SPDM_ALGS_OFF_MEAS_SPEC] = SDSI_SPDM_MEAS_SPEC_DMTF;
		sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_MEAS_HASH, SDSI_SPDM_MEAS_HASH_SHA384);
		sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_ASYM, SDSI_SPDM_ASYM_ECDSA_P384);
		sdsi_put_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_HASH, SDSI_SPDM_HASH_SHA384);
		off = SDSI_SPDM_ALGS_SIZE;
		break;
	case SDSI_SPDM_GET_DIGESTS:
		header(rsp, SDSI_SPDM_DIGESTS, 0, 1);
		memcpy(rsp + SDSI_SPDM_DIGESTS_OFF_DIGEST, r->digest, SDSI_SPDM_HASH_SIZE);
		off = SDSI_SPDM_DIGESTS_OFF_DIGEST + SDSI_SPDM_HASH_SIZE;
		break;
	case SDSI_SPDM_GET_CERTIFICATE:
		offset = sdsi_le16(req + SDSI_SPDM_GETCERT_OFF_OFFSET);
		asked = sdsi_le16(req + SDSI_SPDM_GETCERT_OFF_LENGTH);
		if (len != SDSI_SPDM_GETCERT_SIZE || offset >= r->chain_len)
			return error_answer(rsp, SDSI_SPDM_ERR_INVALID_REQUEST);
		portion = asked < r->max_portion ? asked : r->max_portion;
		if (portion > r->chain_len - offset)
			portion = r->chain_len - offset;
		header(rsp, SDSI_SPDM_CERTIFICATE, 0, 0);
		sdsi_put_le16(rsp + SDSI_SPDM_CERT_OFF_PORTION, (uint16_t)portion);
		sdsi_put_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER,
			      (uint16_t)(r->chain_len - offset - portion));
		memcpy(rsp + SDSI_SPDM_CERT_OFF_DATA, r->chain + offset, portion);
		off = SDSI_SPDM_CERT_OFF_DATA + portion;
		break;
	case SDSI_SPDM_CHALLENGE:
		if (len != SDSI_SPDM_CHALLENGE_SIZE)
			return error_answer(rsp, SDSI_SPDM_ERR_INVALID_REQUEST);
		header(rsp, SDSI_SPDM_CHALLENGE_AUTH, 0, 1);
		memcpy(rsp + SDSI_SPDM_AUTH_OFF_CHAIN_HASH, r->digest, SDSI_SPDM_HASH_SIZE);
		RAND_bytes(rsp + SDSI_SPDM_AUTH_OFF_NONCE, SDSI_SPDM_NONCE_SIZE);
		off = SDSI_SPDM_AUTH_OFF_SUMMARY;
		sdsi_put_le16(rsp + off, 0);
		off += SDSI_SPDM_OPAQUE_LEN_SIZE;
		if (r->presign)
			r->presign(r, req, rsp, off);
		EVP_DigestUpdate(r->m1, req, len);
		EVP_DigestUpdate(r->m1, rsp, off);
		if (sign(r->leaf_key, r->m1, rsp + off))
			return error_answer(rsp, SDSI_SPDM_ERR_UNSPECIFIED);
		off += SDSI_SPDM_SIG_SIZE;
		memcpy(r->last_auth, rsp, off);
		r->last_auth_len = off;
		return off;
	case SDSI_SPDM_GET_MEASUREMENTS:
		if (len != SDSI_SPDM_GETMEAS_SIGNED_SIZE || req[3] != SDSI_SPDM_MEAS_ALL)
			return error_answer(rsp, SDSI_SPDM_ERR_INVALID_REQUEST);
		header(rsp, SDSI_SPDM_MEASUREMENTS, 0, 0);
		record = measurement_block(rsp + SDSI_SPDM_MEAS_OFF_RECORD, 1, r->state_measured,
					   r->state_len);
		if (r->meters)
			record += measurement_block(rsp + SDSI_SPDM_MEAS_OFF_RECORD + record, 2,
						    r->meter_measured, r->meter_len);
		rsp[SDSI_SPDM_MEAS_OFF_BLOCKS] = r->meters ? 2 : 1;
		rsp[5] = (uint8_t)record;
		rsp[6] = (uint8_t)(record >> 8);
		rsp[7] = 0;
		off = SDSI_SPDM_MEAS_OFF_RECORD + record;
		RAND_bytes(rsp + off, SDSI_SPDM_NONCE_SIZE);
		off += SDSI_SPDM_NONCE_SIZE;
		sdsi_put_le16(rsp + off, 0);
		off += SDSI_SPDM_OPAQUE_LEN_SIZE;
		if (r->presign)
			r->presign(r, req, rsp, off);
		EVP_DigestUpdate(r->l1, req, len);
		EVP_DigestUpdate(r->l1, rsp, off);
		if (sign(r->leaf_key, r->l1, rsp + off))
			return error_answer(rsp, SDSI_SPDM_ERR_UNSPECIFIED);
		EVP_DigestInit_ex(r->l1, EVP_sha384(), NULL);
		return off + SDSI_SPDM_SIG_SIZE;
	default:
		return error_answer(rsp, SDSI_SPDM_ERR_UNSUPPORTED_REQUEST);
	}
	/* VCA, DIGESTS, CERTIFICATE: M1's A and B */
	EVP_DigestUpdate(r->m1, req, len);
	EVP_DigestUpdate(r->m1, rsp, off);
	return off;
}

int tr_transact(void *ctx, const uint8_t *req, size_t req_len, uint8_t *rsp, size_t rsp_cap,
		size_t *rsp_len, struct sdsi_error *err)
{
	struct test_responder *r = ctx;
	uint8_t out[SDSI_SPDM_RESPONSE_MAX];
	size_t len;

	r->requests++;
	r->seen[req[1]]++;
	if (r->busy_on && req[1] == r->busy_on)
		len = error_answer(out, SDSI_SPDM_ERR_BUSY);
	else
		len = answer(r, req, req_len, out);
	if (r->tamper)
		r->tamper(r, req, req_len, out, &len);
	/* a tamper may claim more than the buffer: the seam passes the claim on */
	memcpy(rsp, out, len < rsp_cap ? len : rsp_cap);
	*rsp_len = len;
	(void)err;
	return 0;
}

int tr_read_attr(void *ctx, enum sdsi_attr attr, uint8_t *buf, size_t *len,
		 struct sdsi_error *err)
{
	struct test_responder *r = ctx;

	if (attr == SDSI_ATTR_STATE_CERT) {
		memcpy(buf, r->state_read, r->state_len);
		*len = r->state_len;
		return 0;
	}
	if (attr == SDSI_ATTR_METER_CERT && r->meters && !r->hide_meter_file) {
		memcpy(buf, r->meter_read, r->meter_len);
		*len = r->meter_len;
		return 0;
	}
	return sdsi_error_set(err, ENOENT, SDSI_ERR_NO_DEVICE, -1, "%s: no such attribute",
			      sdsi_attr_file(attr));
}

struct sdsi_attest_io tr_io(struct test_responder *r)
{
	struct sdsi_attest_io io = { .transact = tr_transact, .read_attr = tr_read_attr, .ctx = r };

	return io;
}

int tr_verify(struct test_responder *r, const char *trust, struct sdsi_attest_verdict **v,
	      struct sdsi_error *err)
{
	struct sdsi_attest_io io = tr_io(r);
	struct sdsi_attest *att;
	int ret;

	*v = NULL;
	ret = sdsi_attest_open_with(&io, "test part", &att, err);
	if (ret)
		return ret;
	ret = sdsi_attest_verify(att, trust ? trust : r->root_pem, v, err);
	sdsi_attest_free(att);
	return ret;
}

static unsigned int check_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < sdsi_attest_num_checks(); i++)
		if (!strcmp(sdsi_attest_check_name(i), name))
			return i;
	fprintf(stderr, "no check named %s\n", name);
	abort();
}

enum sdsi_attest_result tr_result(const struct sdsi_attest_verdict *v, const char *name)
{
	return sdsi_attest_verdict_result(v, check_index(name));
}

const char *tr_detail(const struct sdsi_attest_verdict *v, const char *name)
{
	return sdsi_attest_verdict_detail(v, check_index(name));
}
