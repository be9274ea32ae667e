// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signatures of the AKC and CAP: valid ones verify, and any change to any
 * byte, a different key, a key of another curve or an invalid licensor point
 * is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "licensing/sdsi_lic.h"

struct keys {
	EVP_PKEY *root;
	EVP_PKEY *licensor;
	EVP_PKEY *other;
	EVP_PKEY *p256;
};

static struct keys keys;
static uint8_t blob[SDSI_LICENSE_BLOB_MAX];

static int keys_setup(void **state)
{
	if (sdsi_lic_key_generate(&keys.root, NULL) ||
	    sdsi_lic_key_generate(&keys.licensor, NULL) ||
	    sdsi_lic_key_generate(&keys.other, NULL))
		return -1;
	keys.p256 = EVP_EC_gen("P-256");
	return keys.p256 ? 0 : -1;
}

static int keys_teardown(void **state)
{
	EVP_PKEY_free(keys.root);
	EVP_PKEY_free(keys.licensor);
	EVP_PKEY_free(keys.other);
	EVP_PKEY_free(keys.p256);
	return 0;
}

static size_t make_akc(EVP_PKEY *signer)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_akc akc;
	size_t len = 0;

	memset(&akc, 0, sizeof(akc));
	akc.key_revision = 9;
	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.licensor, akc.licensor_key, NULL), 0);
	assert_int_equal(sdsi_lic_akc_sign(&akc, signer, &err), 0);
	assert_int_equal(sdsi_lic_akc_encode(&akc, blob, sizeof(blob), &len), 0);
	return len;
}

static size_t make_cap(EVP_PKEY *signer, uint32_t bundles)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_cap cap;
	size_t len = 0;
	uint32_t i;

	memset(&cap, 0, sizeof(cap));
	cap.license.type = SDSI_BLOB_TYPE_ONE_TIME;
	cap.license.id = 0x0123456789abcdefull;
	cap.license.ppin = 0x1000000000000001ull;
	cap.license.revision = 1;
	cap.license.bundle_count = bundles;
	for (i = 0; i < bundles; i++)
		cap.license.bundles[i].code = SDSI_FOURCC('Q', 'A', 'T', 'A' + i);
	assert_int_equal(sdsi_lic_cap_sign(&cap, signer, &err), 0);
	assert_int_equal(sdsi_lic_cap_encode(&cap, blob, sizeof(blob), &len, NULL), 0);
	return len;
}

static void test_akc_verifies_with_the_root_only(void **state)
{
	struct sdsi_lic_error err = { 0 };
	uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE];
	struct sdsi_lic_akc akc;
	size_t len = make_akc(keys.root);

	assert_int_equal(len, SDSI_AKC_SIZE);
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.root, &akc, &err), 0);
	assert_int_equal(akc.key_revision, 9);
	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.licensor, raw, NULL), 0);
	assert_memory_equal(akc.licensor_key, raw, sizeof(raw));

	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.other, NULL, &err), -EBADMSG);
	assert_int_equal(err.offset, SDSI_AKC_SIG_OFFSET);
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.licensor, NULL, &err), -EBADMSG);
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.p256, NULL, &err), -EINVAL);
	assert_int_equal(err.offset, SDSI_LIC_NO_OFFSET);
}

static void test_every_akc_byte_is_protected(void **state)
{
	size_t len = make_akc(keys.root), i;
	const uint8_t flips[] = { 0x01, 0x80, 0xff };
	size_t f;
	int rc;

	for (i = 0; i < len; i++) {
		for (f = 0; f < sizeof(flips); f++) {
			blob[i] ^= flips[f];
			rc = sdsi_lic_akc_verify(blob, len, keys.root, NULL, NULL);
			blob[i] ^= flips[f];
			if (rc == 0)
				fail_msg("AKC byte %zu ^ 0x%02x still verifies", i, flips[f]);
		}
	}
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.root, NULL, NULL), 0);
}

static void test_cap_verifies_with_the_licensor_only(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_cap cap;
	size_t len = make_cap(keys.licensor, 3);

	assert_int_equal(len, SDSI_CAP_SIZE(3));
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.licensor, &cap, &err), 0);
	assert_int_equal(cap.license.bundles[2].code, SDSI_FOURCC('Q', 'A', 'T', 'C'));
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.root, NULL, &err), -EBADMSG);
	assert_int_equal(err.offset, len - SDSI_LICENSE_SIG_SIZE);
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.p256, NULL, &err), -EINVAL);
}

static void test_every_cap_byte_is_protected(void **state)
{
	size_t len = make_cap(keys.licensor, 2), i;
	int rc;

	for (i = 0; i < len; i++) {
		blob[i] ^= 0x01;
		rc = sdsi_lic_cap_verify(blob, len, keys.licensor, NULL, NULL);
		blob[i] ^= 0x01;
		if (rc == 0)
			fail_msg("CAP byte %zu ^ 0x01 still verifies", i);
		blob[i] ^= 0xff;
		rc = sdsi_lic_cap_verify(blob, len, keys.licensor, NULL, NULL);
		blob[i] ^= 0xff;
		if (rc == 0)
			fail_msg("CAP byte %zu ^ 0xff still verifies", i);
	}
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.licensor, NULL, NULL), 0);
}

static void test_largest_cap_signs_and_verifies(void **state)
{
	size_t len = make_cap(keys.licensor, SDSI_CAP_MAX_BUNDLES);

	assert_int_equal(len, 996);
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.licensor, NULL, NULL), 0);
}

static void test_zero_signature_is_refused(void **state)
{
	size_t len = make_cap(keys.licensor, 1);

	memset(blob + len - SDSI_LICENSE_SIG_SIZE, 0, SDSI_LICENSE_SIG_SIZE);
	assert_int_equal(sdsi_lic_cap_verify(blob, len, keys.licensor, NULL, NULL), -EBADMSG);
	len = make_akc(keys.root);
	memset(blob + SDSI_AKC_SIG_OFFSET, 0xff, SDSI_LICENSE_SIG_SIZE);
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.root, NULL, NULL), -EBADMSG);
}

static void test_invalid_licensor_point_is_refused(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_akc akc;
	EVP_PKEY *key = NULL;
	size_t len;

	memset(&akc, 0, sizeof(akc));
	assert_int_equal(sdsi_lic_pubkey_from_raw(akc.licensor_key, &key, &err), -EINVAL);
	assert_null(key);
	assert_int_equal(sdsi_lic_akc_sign(&akc, keys.root, &err), -EINVAL);
	assert_int_equal(err.offset, SDSI_AKC_KEY_OFFSET);

	/* A root-signed AKC whose key is off the curve is still refused. */
	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.licensor, akc.licensor_key, NULL), 0);
	assert_int_equal(sdsi_lic_akc_sign(&akc, keys.root, NULL), 0);
	akc.licensor_key[95] ^= 1;
	assert_int_equal(sdsi_lic_akc_encode(&akc, blob, sizeof(blob), &len), 0);
	assert_int_equal(sdsi_lic_akc_verify(blob, len, keys.root, NULL, &err), -EINVAL);
	assert_int_equal(err.offset, SDSI_AKC_KEY_OFFSET);
}

static void test_signing_needs_a_p384_private_key(void **state)
{
	struct sdsi_lic_error err = { 0 };
	uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE];
	EVP_PKEY *public_only = NULL;
	struct sdsi_lic_cap cap;

	memset(&cap, 0, sizeof(cap));
	cap.license.type = SDSI_BLOB_TYPE_ONE_TIME;
	cap.license.bundle_count = 1;
	cap.license.bundles[0].code = SDSI_FOURCC('C', 'C', '0', '2');
	assert_int_equal(sdsi_lic_cap_sign(&cap, keys.p256, &err), -EINVAL);
	assert_non_null(strstr(err.reason, "P-384"));
	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.licensor, raw, NULL), 0);
	assert_int_equal(sdsi_lic_pubkey_from_raw(raw, &public_only, NULL), 0);
	assert_int_equal(sdsi_lic_cap_sign(&cap, public_only, &err), -EINVAL);
	EVP_PKEY_free(public_only);
	cap.license.bundle_count = 0;
	assert_int_equal(sdsi_lic_cap_sign(&cap, keys.licensor, &err), -EINVAL);
}

static void test_raw_key_round_trip_and_image(void **state)
{
	static const uint8_t expected_image_of_0_to_95[48] = {
		0xe6, 0x06, 0x00, 0x4e, 0xcd, 0xc6, 0x87, 0x8b, 0x5e, 0xc1, 0x5f, 0x45,
		0x54, 0x01, 0x7c, 0xcf, 0x96, 0x2e, 0x92, 0xcc, 0x6e, 0xae, 0xbe, 0x49,
		0x97, 0xba, 0x34, 0xec, 0x0e, 0x53, 0xc6, 0x7d, 0x56, 0x4c, 0x84, 0x61,
		0xc0, 0x13, 0x70, 0x1a, 0x40, 0x1f, 0xe3, 0x47, 0xec, 0x0f, 0x72, 0x1e,
	};
	uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE], again[SDSI_LICENSE_PUBKEY_SIZE];
	uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE];
	EVP_PKEY *key = NULL;
	size_t i;

	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.licensor, raw, NULL), 0);
	assert_int_equal(sdsi_lic_pubkey_from_raw(raw, &key, NULL), 0);
	assert_int_equal(sdsi_lic_pubkey_to_raw(key, again, NULL), 0);
	assert_memory_equal(raw, again, sizeof(raw));
	assert_true(EVP_PKEY_eq(key, keys.licensor) == 1);
	EVP_PKEY_free(key);

	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (uint8_t)i;
	assert_int_equal(sdsi_lic_key_image(raw, image), 0);
	assert_memory_equal(image, expected_image_of_0_to_95, sizeof(image));
	assert_int_equal(sdsi_lic_pubkey_to_raw(keys.p256, raw, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_akc_verifies_with_the_root_only),
		cmocka_unit_test(test_every_akc_byte_is_protected),
		cmocka_unit_test(test_cap_verifies_with_the_licensor_only),
		cmocka_unit_test(test_every_cap_byte_is_protected),
		cmocka_unit_test(test_largest_cap_signs_and_verifies),
		cmocka_unit_test(test_zero_signature_is_refused),
		cmocka_unit_test(test_invalid_licensor_point_is_refused),
		cmocka_unit_test(test_signing_needs_a_p384_private_key),
		cmocka_unit_test(test_raw_key_round_trip_and_image),
	};

	return cmocka_run_group_tests(tests, keys_setup, keys_teardown);
}
