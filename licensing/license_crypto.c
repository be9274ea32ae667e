// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ECDSA P-384 over SHA-384 through OpenSSL's EVP interface.  OpenSSL speaks
 * DER-encoded ECDSA signatures; the formats carry fixed-size r || s so that
 * every AKC and CAP of a given content has one size.  This file only
 * converts between the two encodings and calls EVP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/params.h>

#include "license_internal.h"

#define SCALAR_SIZE	48u	/* bytes of a P-384 coordinate, r or s */
#define SIG_DER_MAX	112u	/* SEQUENCE of two INTEGERs of 49 bytes, and slack */

bool sdsi_lic_key_is_p384(EVP_PKEY *key)
{
	char group[64];
	size_t n;

	if (!key || !EVP_PKEY_is_a(key, "EC"))
		return false;
	if (!EVP_PKEY_get_group_name(key, group, sizeof(group), &n))
		return false;
	return OBJ_sn2nid(group) == NID_secp384r1 ||
	       EC_curve_nist2nid(group) == NID_secp384r1;
}

int sdsi_lic_key_generate(EVP_PKEY **key, struct sdsi_lic_error *err)
{
	*key = EVP_EC_gen("P-384");
	if (!*key)
		return sdsi_lic_fail_openssl(err, -ENOMEM,
					     "P-384 key generation failed");
	return 0;
}

int sdsi_lic_pubkey_to_raw(EVP_PKEY *key,
			   uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
			       struct sdsi_lic_error *err)
{
	BIGNUM *x = NULL, *y = NULL;
	int rc = 0;

	if (!sdsi_lic_key_is_p384(key))
		return sdsi_lic_fail(err, -EINVAL, SDSI_LIC_NO_OFFSET,
				     "not an ECDSA P-384 key");
	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, &x) ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, &y) ||
	    BN_bn2binpad(x, raw, SCALAR_SIZE) != (int)SCALAR_SIZE ||
	    BN_bn2binpad(y, raw + SCALAR_SIZE, SCALAR_SIZE) != (int)SCALAR_SIZE)
		rc = sdsi_lic_fail_openssl(err, -EINVAL,
					   "cannot read the public point of the key");
	BN_free(x);
	BN_free(y);
	return rc;
}

int sdsi_lic_pubkey_from_raw(const uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
			     EVP_PKEY **key,
				 struct sdsi_lic_error *err)
{
	/* SEC1 uncompressed point: 0x04 || X || Y. */
	unsigned char point[1 + SDSI_LICENSE_PUBKEY_SIZE];
	char group[] = "P-384";
	OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point,
					sizeof(point)),
		OSSL_PARAM_END,
	};
	EVP_PKEY_CTX *ctx, *check = NULL;
	int rc = 0;

	point[0] = 0x04;
	memcpy(point + 1, raw, SDSI_LICENSE_PUBKEY_SIZE);
	*key = NULL;
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!ctx)
		return sdsi_lic_fail_openssl(err, -ENOMEM, "no EC key context");
	if (EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
		rc = sdsi_lic_fail_openssl(err, -EINVAL,
					   "not a point on the P-384 curve");
		goto out;
	}
	/*
	 * The quick check (on the curve, not the point at infinity) is the
	 * whole check for P-384: its cofactor is 1, so every curve point is in
	 * the prime-order group, and the full check's extra scalar
	 * multiplication by the order proves nothing more.  It halves the
	 * model's time to authenticate an AKC, which Linux 6.1's driver allows
	 * only 2 ms (bench/bench_license).
	 */
	check = EVP_PKEY_CTX_new_from_pkey(NULL, *key, NULL);
	if (!check || EVP_PKEY_public_check_quick(check) != 1)
		rc = sdsi_lic_fail_openssl(err, -EINVAL,
					   "not a valid P-384 public key");
out:
	if (rc) {
		EVP_PKEY_free(*key);
		*key = NULL;
	}
	EVP_PKEY_CTX_free(check);
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

int sdsi_lic_key_image(const uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
		       uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE])
{
	unsigned int n = 0;

	if (EVP_Digest(raw, SDSI_LICENSE_PUBKEY_SIZE, image, &n, EVP_sha384(),
		       NULL) != 1 || n != SDSI_LICENSE_KEY_IMAGE_SIZE) {
		ERR_clear_error();
		return -ENOMEM;
	}
	return 0;
}

static int sign_bytes(EVP_PKEY *key, const uint8_t *msg, size_t len,
		      uint8_t sig[SDSI_LICENSE_SIG_SIZE],
		      struct sdsi_lic_error *err)
{
	unsigned char der[SIG_DER_MAX];
	const unsigned char *cursor = der;
	const BIGNUM *r, *s;
	size_t der_len = sizeof(der);
	ECDSA_SIG *parsed = NULL;
	EVP_MD_CTX *md;
	int rc = 0;

	if (!sdsi_lic_key_is_p384(key))
		return sdsi_lic_fail(err, -EINVAL, SDSI_LIC_NO_OFFSET,
				     "the signing key is not an ECDSA P-384 key");
	md = EVP_MD_CTX_new();
	if (!md)
		return sdsi_lic_fail_openssl(err, -ENOMEM, "no digest context");
	if (EVP_DigestSignInit_ex(md, NULL, "SHA384", NULL, NULL, key,
				  NULL) != 1 ||
	    EVP_DigestSign(md, der, &der_len, msg, len) != 1) {
		rc = sdsi_lic_fail_openssl(err, -EINVAL,
					   "signing failed (is it a private key?)");
		goto out;
	}
	parsed = d2i_ECDSA_SIG(NULL, &cursor, (long)der_len);
	if (!parsed) {
		rc = sdsi_lic_fail_openssl(err, -EINVAL,
					   "OpenSSL returned an unreadable signature");
		goto out;
	}
	ECDSA_SIG_get0(parsed, &r, &s);
	if (BN_bn2binpad(r, sig, SCALAR_SIZE) != (int)SCALAR_SIZE ||
	    BN_bn2binpad(s, sig + SCALAR_SIZE, SCALAR_SIZE) != (int)SCALAR_SIZE)
		rc = sdsi_lic_fail(err, -EINVAL, SDSI_LIC_NO_OFFSET,
				   "signature scalar larger than 48 bytes");
out:
	ECDSA_SIG_free(parsed);
	EVP_MD_CTX_free(md);
	return rc;
}

/* 0 when sig is a valid signature of msg by key, -EBADMSG when it is not. */
static int verify_bytes(EVP_PKEY *key, const uint8_t *msg, size_t len,
			const uint8_t sig[SDSI_LICENSE_SIG_SIZE])
{
	BIGNUM *r = BN_bin2bn(sig, SCALAR_SIZE, NULL);
	BIGNUM *s = BN_bin2bn(sig + SCALAR_SIZE, SCALAR_SIZE, NULL);
	ECDSA_SIG *parsed = ECDSA_SIG_new();
	unsigned char *der = NULL;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int der_len, rc = -ENOMEM;

	if (!r || !s || !parsed || !md)
		goto out;
	ECDSA_SIG_set0(parsed, r, s);	/* parsed owns r and s now */
	r = s = NULL;
	der_len = i2d_ECDSA_SIG(parsed, &der);
	if (der_len <= 0)
		goto out;
	if (EVP_DigestVerifyInit_ex(md, NULL, "SHA384", NULL, NULL, key,
				    NULL) != 1)
		goto out;
	/* 0 is a mismatch; <0 is a signature OpenSSL refuses to parse (r = 0). */
	rc = EVP_DigestVerify(md, der, (size_t)der_len, msg, len) == 1 ?
	     0 : -EBADMSG;
out:
	ERR_clear_error();
	OPENSSL_free(der);
	EVP_MD_CTX_free(md);
	ECDSA_SIG_free(parsed);
	BN_free(r);
	BN_free(s);
	return rc;
}

static int check_licensor_key(const uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
			      struct sdsi_lic_error *err)
{
	EVP_PKEY *key;
	int rc;

	rc = sdsi_lic_pubkey_from_raw(raw, &key, err);
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_AKC_KEY_OFFSET,
				     "the licensor key is not a P-384 public key");
	EVP_PKEY_free(key);
	return 0;
}

int sdsi_lic_akc_sign(struct sdsi_lic_akc *akc, EVP_PKEY *root_key,
		  struct sdsi_lic_error *err)
{
	uint8_t buf[SDSI_AKC_SIZE];
	size_t len;
	int rc;

	rc = check_licensor_key(akc->licensor_key, err);
	if (rc)
		return rc;
	rc = sdsi_lic_akc_encode(akc, buf, sizeof(buf), &len);
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
				     "AKC encoding failed");
	return sign_bytes(root_key, buf, SDSI_AKC_SIG_OFFSET, akc->signature,
			  err);
}

int sdsi_lic_cap_sign(struct sdsi_lic_cap *cap, EVP_PKEY *licensor_key,
		  struct sdsi_lic_error *err)
{
	uint8_t buf[SDSI_LICENSE_BLOB_MAX];
	size_t len;
	int rc;

	rc = sdsi_lic_cap_encode(cap, buf, sizeof(buf), &len, err);
	if (rc)
		return rc;
	return sign_bytes(licensor_key, buf, len - SDSI_LICENSE_SIG_SIZE,
			  cap->signature, err);
}

static int check_trusted_key(EVP_PKEY *key, const char *role,
			     struct sdsi_lic_error *err)
{
	if (!sdsi_lic_key_is_p384(key))
		return sdsi_lic_fail(err, -EINVAL, SDSI_LIC_NO_OFFSET,
				     "the %s key is not an ECDSA P-384 key",
				     role);
	return 0;
}

int sdsi_lic_akc_verify(const void *buf, size_t len, EVP_PKEY *root_pub,
		    struct sdsi_lic_akc *out, struct sdsi_lic_error *err)
{
	struct sdsi_lic_akc akc;
	int rc;

	rc = check_trusted_key(root_pub, "root", err);
	if (!rc)
		rc = sdsi_lic_akc_decode(buf, len, &akc, err);
	if (!rc)
		rc = check_licensor_key(akc.licensor_key, err);
	if (rc)
		return rc;
	rc = verify_bytes(root_pub, buf, SDSI_AKC_SIG_OFFSET, akc.signature);
	if (rc == -EBADMSG)
		return sdsi_lic_fail(err, rc, SDSI_AKC_SIG_OFFSET,
				     "the AKC signature does not verify with the root key");
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
				     "out of memory verifying the AKC");
	if (out)
		*out = akc;
	return 0;
}

int sdsi_lic_cap_verify(const void *buf, size_t len, EVP_PKEY *licensor_pub,
		    struct sdsi_lic_cap *out, struct sdsi_lic_error *err)
{
	struct sdsi_lic_cap *cap;
	size_t signed_len;
	int rc;

	rc = check_trusted_key(licensor_pub, "licensor", err);
	if (rc)
		return rc;
	/* A full CAP is over 1 KiB: keep it off small thread stacks. */
	cap = malloc(sizeof(*cap));
	if (!cap)
		return sdsi_lic_fail(err, -ENOMEM, SDSI_LIC_NO_OFFSET,
				     "out of memory");
	rc = sdsi_lic_cap_decode(buf, len, cap, err);
	if (rc)
		goto out;
	signed_len = len - SDSI_LICENSE_SIG_SIZE;
	rc = verify_bytes(licensor_pub, buf, signed_len, cap->signature);
	if (rc == -EBADMSG)
		sdsi_lic_fail(err, rc, signed_len,
			      "the CAP signature does not verify with the licensor key");
	else if (rc)
		sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
			      "out of memory verifying the CAP");
	else if (out)
		*out = *cap;
out:
	free(cap);
	return rc;
}
