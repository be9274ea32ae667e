// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The OpenSSL half of attestation: the certificates of the part's chain,
 * their verification to the owner's anchors only (the chain's own root is
 * handed to OpenSSL as untrusted, like every certificate the part sends),
 * and the ECDSA P-384 signatures of CHALLENGE_AUTH and MEASUREMENTS, which
 * DSP0274 1.0 makes over the SHA-384 of the transcript as raw r || s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/x509_vfy.h>

#include "attest_internal.h"

static int refuse(char *why, size_t n, const char *reason)
{
	snprintf(why, n, "%s", reason);
	ERR_clear_error();
	return -1;
}

void attest_sha384(const uint8_t *bytes, size_t len, uint8_t out[SDSI_SPDM_HASH_SIZE])
{
	/* EVP_Digest fails only out of memory; the zeroes then compare unequal */
	memset(out, 0, SDSI_SPDM_HASH_SIZE);
	EVP_Digest(bytes, len, out, NULL, EVP_sha384(), NULL);
}

char *attest_subject(X509 *cert)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *text = NULL, *data;
	long len;

	if (!bio)
		return NULL;
	if (X509_NAME_print_ex(bio, X509_get_subject_name(cert), 0, XN_FLAG_RFC2253) >= 0) {
		len = BIO_get_mem_data(bio, &data);
		text = len >= 0 ? strndup(data, (size_t)len) : NULL;
	}
	BIO_free(bio);
	return text;
}

int attest_parse_chain_certs(struct sdsi_attest *att, char *why, size_t n)
{
	const uint8_t *p = att->chain + SDSI_SPDM_CHAIN_OFF_CERTS, *start;
	const uint8_t *end = att->chain + att->chain_len;
	X509 *cert;

	sk_X509_pop_free(att->certs, X509_free);
	att->certs = sk_X509_new_null();
	if (!att->certs)
		return refuse(why, n, "out of memory");
	while (p < end) {
		start = p;
		cert = d2i_X509(NULL, &p, end - p);
		if (!cert) {
			snprintf(why, n, "byte %zu of the chain starts no DER certificate",
				 (size_t)(start - att->chain));
			ERR_clear_error();
			return -1;
		}
		if (!sk_X509_push(att->certs, cert)) {
			X509_free(cert);
			return refuse(why, n, "out of memory");
		}
		if (sk_X509_num(att->certs) == 1)
			att->root_len = (size_t)(p - start);
		att->leaf_off = (size_t)(start - att->chain);
		att->leaf_len = (size_t)(p - start);
	}
	if (sk_X509_num(att->certs) == 0)
		return refuse(why, n, "the chain holds no certificate");
	return 0;
}

int attest_check_trust(struct sdsi_attest *att, X509_STORE *store,
		       struct sdsi_attest_verdict *v, char *why, size_t n)
{
	X509 *leaf = sk_X509_value(att->certs, sk_X509_num(att->certs) - 1);
	STACK_OF(X509) *untrusted = sk_X509_dup(att->certs), *verified;
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	int ok = -1, code;

	X509_free(att->anchor);
	att->anchor = NULL;
	if (!untrusted || !ctx) {
		refuse(why, n, "out of memory");
		goto out;
	}
	/* every certificate the part sent, its root included, is untrusted */
	(void)sk_X509_pop(untrusted);
	if (!X509_STORE_CTX_init(ctx, store, leaf, untrusted)) {
		refuse(why, n, "out of memory");
		goto out;
	}
	if (X509_verify_cert(ctx) != 1) {
		code = X509_STORE_CTX_get_error(ctx);
		snprintf(why, n, "certificate %d of the chain: %s",
			 X509_STORE_CTX_get_error_depth(ctx),
			 X509_verify_cert_error_string(code));
		ERR_clear_error();
		goto out;
	}
	verified = X509_STORE_CTX_get0_chain(ctx);
	att->anchor = sk_X509_value(verified, sk_X509_num(verified) - 1);
	if (!att->anchor || !X509_up_ref(att->anchor)) {
		att->anchor = NULL;
		refuse(why, n, "out of memory");
		goto out;
	}
	free(v->anchor_subject);
	v->anchor_subject = attest_subject(att->anchor);
	ok = 0;
out:
	X509_STORE_CTX_free(ctx);
	sk_X509_free(untrusted);
	return ok;
}

int attest_root_is_anchor(struct sdsi_attest *att, char *why, size_t n)
{
	X509 *root = sk_X509_value(att->certs, 0);

	if (!att->anchor || X509_cmp(root, att->anchor) != 0)
		return refuse(why, n, "the chain's root certificate is not the trust anchor "
			      "it verified to");
	return 0;
}

int attest_check_signature(struct sdsi_attest *att, const uint8_t digest[SDSI_SPDM_HASH_SIZE],
			   const uint8_t sig[SDSI_SPDM_SIG_SIZE], char *why, size_t n)
{
	X509 *leaf = sk_X509_value(att->certs, sk_X509_num(att->certs) - 1);
	EVP_PKEY *key = X509_get0_pubkey(leaf);
	ECDSA_SIG *es = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, SDSI_SPDM_SIG_SIZE / 2, NULL);
	BIGNUM *s = BN_bin2bn(sig + SDSI_SPDM_SIG_SIZE / 2, SDSI_SPDM_SIG_SIZE / 2, NULL);
	EVP_PKEY_CTX *pctx = NULL;
	unsigned char *der = NULL;
	int der_len, ret = -1;

	if (!key || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC || EVP_PKEY_get_bits(key) != 384) {
		refuse(why, n, "the leaf certificate's key is not ECDSA P-384");
		goto out;
	}
	if (!es || !r || !s || !ECDSA_SIG_set0(es, r, s)) {
		refuse(why, n, "out of memory");
		goto out;
	}
	r = s = NULL;	/* es owns them */
	der_len = i2d_ECDSA_SIG(es, &der);
	pctx = EVP_PKEY_CTX_new(key, NULL);
	if (der_len <= 0 || !pctx || EVP_PKEY_verify_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha384()) <= 0) {
		refuse(why, n, "out of memory");
		goto out;
	}
	if (EVP_PKEY_verify(pctx, der, (size_t)der_len, digest, SDSI_SPDM_HASH_SIZE) != 1) {
		refuse(why, n, "the signature does not verify with the leaf certificate's key");
		goto out;
	}
	ret = 0;
out:
	OPENSSL_free(der);
	EVP_PKEY_CTX_free(pctx);
	ECDSA_SIG_free(es);
	BN_free(r);
	BN_free(s);
	return ret;
}
