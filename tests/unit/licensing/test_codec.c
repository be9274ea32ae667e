// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte codecs of the AKC and CAP (docs/formats.md): the documented offsets,
 * round trips, and a precise offset for every malformed input.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "licensing/sdsi_lic.h"
#include "util/util_array.h"

static uint8_t buf[2048];

static void fill_license(struct sdsi_lic_blob *lic, uint32_t bundles)
{
	uint32_t i;

	memset(lic, 0, sizeof(*lic));
	lic->type = SDSI_BLOB_TYPE_METERED;
	lic->id = 0x1122334455667788ull;
	lic->ppin = 0xa1a2a3a4a5a6a7a8ull;
	lic->previous_ppin = 0xb1b2b3b4b5b6b7b8ull;
	lic->revision = 7;
	lic->bundle_count = bundles;
	for (i = 0; i < bundles; i++) {
		lic->bundles[i].code = SDSI_FOURCC('C', 'C', '0' + i / 10, '0' + i % 10);
		lic->bundles[i].reserved[27] = (uint8_t)i;
	}
}

static size_t encode_cap(uint32_t bundles)
{
	struct sdsi_lic_cap cap;
	size_t len = 0;

	fill_license(&cap.license, bundles);
	memset(cap.signature, 0x5a, sizeof(cap.signature));
	assert_int_equal(sdsi_lic_cap_encode(&cap, buf, sizeof(buf), &len, NULL), 0);
	return len;
}

static size_t encode_akc(void)
{
	struct sdsi_lic_akc akc;
	size_t len = 0, i;

	akc.key_revision = 3;
	for (i = 0; i < sizeof(akc.licensor_key); i++)
		akc.licensor_key[i] = (uint8_t)i;
	memset(akc.signature, 0xa5, sizeof(akc.signature));
	assert_int_equal(sdsi_lic_akc_encode(&akc, buf, sizeof(buf), &len), 0);
	return len;
}

static void put32(size_t off, uint32_t v)
{
	buf[off] = (uint8_t)v;
	buf[off + 1] = (uint8_t)(v >> 8);
	buf[off + 2] = (uint8_t)(v >> 16);
	buf[off + 3] = (uint8_t)(v >> 24);
}

static void assert_cap_rejected_at(size_t len, size_t offset)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_cap cap;

	assert_int_equal(sdsi_lic_cap_decode(buf, len, &cap, &err), -EINVAL);
	assert_int_equal(err.offset, offset);
	assert_true(err.reason[0] != '\0');
}

static void test_akc_layout_and_round_trip(void **state)
{
	struct sdsi_lic_akc akc;
	size_t len = encode_akc();

	assert_int_equal(len, 208);
	assert_memory_equal(buf, "CKAS", 4);	/* SDSI_FOURCC order, like MTDB */
	assert_int_equal(buf[4], 1);
	assert_int_equal(buf[8], 208);
	assert_int_equal(buf[0x0c], 3);
	assert_int_equal(buf[0x10], 0);
	assert_int_equal(buf[0x6f], 95);
	assert_int_equal(buf[0x70], 0xa5);
	assert_int_equal(sdsi_lic_blob_kind(buf, len), SDSI_PAYLOAD_AKC);
	assert_int_equal(sdsi_lic_akc_decode(buf, len, &akc, NULL), 0);
	assert_int_equal(akc.key_revision, 3);
	assert_int_equal(akc.licensor_key[95], 95);
	assert_int_equal(akc.signature[95], 0xa5);
	assert_int_equal(sdsi_lic_akc_encode(&akc, buf, 207, &len), -ENOSPC);
}

static void test_cap_layout_and_round_trip(void **state)
{
	struct sdsi_lic_cap cap, again;
	size_t len = encode_cap(2);
	uint8_t second[2048];

	/* The published licence blob from byte 0, then the signature. */
	assert_int_equal(len, 36 + 2 * 32 + 96);
	assert_int_equal(buf[0], SDSI_BLOB_TYPE_METERED);
	assert_int_equal(buf[0x04], 0x88);		/* id, little-endian */
	assert_int_equal(buf[0x0c], 0xa8);		/* PPIN */
	assert_int_equal(buf[0x14], 0xb8);		/* previous PPIN */
	assert_int_equal(buf[0x1c], 7);			/* revision */
	assert_int_equal(buf[0x20], 2);			/* bundle count */
	assert_memory_equal(buf + 0x24, "00CC", 4);	/* "CC00" */
	assert_memory_equal(buf + 0x44, "10CC", 4);	/* "CC01" */
	assert_int_equal(buf[0x44 + 31], 1);		/* reserved kept */
	assert_int_equal(buf[len - 96], 0x5a);
	assert_int_equal(sdsi_lic_blob_kind(buf, len), SDSI_PAYLOAD_CAP);

	assert_int_equal(sdsi_lic_cap_decode(buf, len, &cap, NULL), 0);
	assert_int_equal(cap.license.id, 0x1122334455667788ull);
	assert_int_equal(cap.license.ppin, 0xa1a2a3a4a5a6a7a8ull);
	assert_int_equal(cap.license.previous_ppin, 0xb1b2b3b4b5b6b7b8ull);
	assert_int_equal(cap.license.revision, 7);
	assert_int_equal(cap.license.bundles[1].code, SDSI_FOURCC('C', 'C', '0', '1'));
	assert_int_equal(cap.license.bundles[1].reserved[27], 1);
	memset(&again, 0, sizeof(again));
	again = cap;
	assert_int_equal(sdsi_lic_cap_encode(&again, second, sizeof(second), &len, NULL), 0);
	assert_memory_equal(second, buf, len);
}

/*
 * The reader of any CAP: the published fields wherever the signature ends,
 * a signature of at least 96 bytes; a longer one (Intel's may be) is read,
 * and refused only by the decoder of our own format.
 */
static void test_cap_read_takes_any_signature_length(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_blob lic;
	struct sdsi_lic_cap cap;
	size_t len = encode_cap(2), sig = 0;

	memset(buf + len, 0x77, 40);
	assert_int_equal(sdsi_lic_cap_read(buf, len + 40, &lic, &sig, &err), 0);
	assert_int_equal(sig, 96 + 40);
	assert_int_equal(lic.ppin, 0xa1a2a3a4a5a6a7a8ull);
	assert_int_equal(lic.bundle_count, 2);
	assert_int_equal(sdsi_lic_blob_kind(buf, len + 40), SDSI_PAYLOAD_CAP);
	assert_cap_rejected_at(len + 40, 36 + 2 * 32);
	/* A code our encoder would not write is still read. */
	put32(0x24, 0);
	assert_int_equal(sdsi_lic_cap_read(buf, len, &lic, NULL, NULL), 0);
	assert_cap_rejected_at(len, 0x24);
	/* 1016 bytes read, 1017 are more than one mailbox write. */
	memset(buf + len, 0x77, sizeof(buf) - len);
	assert_int_equal(sdsi_lic_cap_read(buf, 1016, &lic, &sig, NULL), 0);
	assert_int_equal(sig, 1016 - 36 - 2 * 32);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sdsi_lic_cap_read(buf, 1017, &lic, NULL, &err), -EINVAL);
	assert_int_equal(err.offset, 1016);
	assert_non_null(strstr(err.reason, "1017 bytes"));
	(void)cap;
}

/* The mailbox's zero padding after a CAP of ours is not the CAP's. */
static void test_cap_unpadded_len(void **state)
{
	size_t len = encode_cap(1);	/* 164 bytes: 4 short of a qword */

	assert_int_equal(len % 8, 4);
	memset(buf + len, 0, 8);
	assert_int_equal(sdsi_lic_cap_unpadded_len(buf, len + 4), len);
	assert_int_equal(sdsi_lic_cap_unpadded_len(buf, len), len);
	/* Not zeros, or more than the qword's padding: the bytes as received. */
	assert_int_equal(sdsi_lic_cap_unpadded_len(buf, len + 12), len + 12);
	buf[len + 3] = 1;
	assert_int_equal(sdsi_lic_cap_unpadded_len(buf, len + 4), len + 4);
	assert_int_equal(sdsi_lic_cap_unpadded_len(buf, 10), 10);
}

static void test_license_blob_is_the_cap_middle(void **state)
{
	struct sdsi_lic_blob lic, decoded;
	uint8_t blob[1024];
	size_t cap_len = encode_cap(3), len = 0;

	fill_license(&lic, 3);
	assert_int_equal(sdsi_lic_blob_encode(&lic, blob, sizeof(blob), &len, NULL), 0);
	assert_int_equal(len, 36 + 3 * 32);
	assert_int_equal(len % 4, 0);
	assert_memory_equal(blob, buf + SDSI_CAP_BLOB_OFFSET, len);
	assert_int_equal(cap_len, SDSI_CAP_SIZE(3));
	assert_int_equal(sdsi_lic_blob_decode(blob, len, &decoded, NULL), 0);
	assert_int_equal(decoded.bundles[2].code, lic.bundles[2].code);
	assert_int_equal(sdsi_lic_blob_decode(blob, len + 1, &decoded, NULL), -EINVAL);
	assert_int_equal(sdsi_lic_blob_decode(blob, len - 1, &decoded, NULL), -EINVAL);
	assert_int_equal(sdsi_lic_blob_encode(&lic, blob, len - 1, &len, NULL), -ENOSPC);
}

static void test_max_bundles_fit_and_one_more_is_refused(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_cap cap;
	size_t len = encode_cap(SDSI_CAP_MAX_BUNDLES);

	assert_int_equal(SDSI_CAP_MAX_BUNDLES, 27);
	assert_int_equal(len, 996);
	assert_true(len <= SDSI_WRITE_PAYLOAD_MAX);
	assert_true(SDSI_CAP_SIZE(SDSI_CAP_MAX_BUNDLES + 1) > SDSI_WRITE_PAYLOAD_MAX);
	assert_int_equal(sdsi_lic_cap_decode(buf, len, &cap, NULL), 0);

	fill_license(&cap.license, SDSI_CAP_MAX_BUNDLES);
	cap.license.bundle_count = SDSI_CAP_MAX_BUNDLES + 1;
	assert_int_equal(sdsi_lic_cap_encode(&cap, buf, sizeof(buf), &len, &err), -EOVERFLOW);
	assert_int_equal(err.offset, 0x20);
	assert_non_null(strstr(err.reason, "27"));
}

/*
 * Short of a header and a signature: refused at the first missing byte;
 * with them, a count whose bundles do not fit is refused at the count.
 * The size that exactly fits is read, one byte less is not.
 */
static void test_truncation_is_refused(void **state)
{
	size_t full = encode_cap(2), len;
	struct sdsi_lic_error err;
	struct sdsi_lic_akc akc;

	for (len = 0; len < 36 + 96; len++)
		assert_cap_rejected_at(len, len);
	for (; len < full; len++)
		assert_cap_rejected_at(len, 0x20);
	assert_int_equal(sdsi_lic_cap_decode(buf, full, &(struct sdsi_lic_cap){ 0 }, NULL), 0);
	full = encode_akc();
	for (len = 0; len < full; len++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(sdsi_lic_akc_decode(buf, len, &akc, &err), -EINVAL);
		assert_int_equal(err.offset, len);
	}
}

static void test_oversized_and_trailing_bytes(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_akc akc;
	size_t len = encode_cap(1);

	/* Ours ends with its 96-byte signature; the reader takes longer ones. */
	assert_cap_rejected_at(len + 1, 36 + 32);
	assert_cap_rejected_at(1017, 1016);
	len = encode_akc();
	assert_int_equal(sdsi_lic_akc_decode(buf, len + 4, &akc, &err), -EINVAL);
	assert_int_equal(err.offset, len);
	assert_int_equal(sdsi_lic_akc_decode(buf, 1500, &akc, &err), -EINVAL);
	assert_int_equal(err.offset, 1016);
	assert_non_null(strstr(err.reason, "oversized"));
}

static void test_bundle_count_past_end(void **state)
{
	/* Counts the blob cannot hold, and none at all. */
	static const uint32_t counts[] = { 3, 27, 28, 0xffffffffu, 0 };
	size_t len = encode_cap(2);

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(counts); i++) {
		put32(0x20, counts[i]);
		assert_cap_rejected_at(len, 0x20);
	}
	put32(0x20, 1);		/* fits, with a 128-byte signature: ours has 96 */
	assert_cap_rejected_at(len, 36 + 32);
}

static void test_field_errors_name_their_offset(void **state)
{
	size_t len = encode_cap(2);

	put32(0, 3);
	assert_cap_rejected_at(len, 0);
	put32(0, 0);
	assert_cap_rejected_at(len, 0);
	len = encode_cap(2);
	put32(0x24 + 32, SDSI_FOURCC('C', 'C', ' ', '1'));
	assert_cap_rejected_at(len, 0x24 + 32);
	put32(0x24 + 32, 0);
	assert_cap_rejected_at(len, 0x24 + 32);
}

static void test_foreign_blobs(void **state)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_akc akc;
	size_t len;

	/* A licence type with no bundle is no licence. */
	memset(buf, 0, sizeof(buf));
	put32(0, SDSI_BLOB_TYPE_ONE_TIME);
	assert_int_equal(sdsi_lic_blob_kind(buf, 300), SDSI_PAYLOAD_FOREIGN);
	assert_cap_rejected_at(300, 0x20);
	/* With one bundle, 300 bytes are a CAP with a 232-byte signature. */
	put32(0x20, 1);
	assert_int_equal(sdsi_lic_blob_kind(buf, 300), SDSI_PAYLOAD_CAP);
	assert_int_equal(sdsi_lic_blob_kind(buf, 36 + 32 + 96), SDSI_PAYLOAD_CAP);
	assert_int_equal(sdsi_lic_blob_kind(buf, 36 + 32 + 95), SDSI_PAYLOAD_FOREIGN);
	assert_int_equal(sdsi_lic_blob_kind(buf, 0), SDSI_PAYLOAD_FOREIGN);
	assert_int_equal(sdsi_lic_blob_kind(buf, 7), SDSI_PAYLOAD_FOREIGN);

	len = encode_akc();
	assert_int_equal(sdsi_lic_blob_kind(buf, 7), SDSI_PAYLOAD_FOREIGN);
	assert_int_equal(sdsi_lic_blob_kind(buf, 8), SDSI_PAYLOAD_AKC);
	/* An AKC is not a CAP (its magic is no licence type), and a later format version is foreign. */
	assert_cap_rejected_at(len, 0);
	put32(4, 2);
	assert_int_equal(sdsi_lic_blob_kind(buf, len), SDSI_PAYLOAD_FOREIGN);
	assert_int_equal(sdsi_lic_akc_decode(buf, len, &akc, &err), -EINVAL);
	assert_int_equal(err.offset, 4);
	assert_non_null(strstr(err.reason, "foreign"));
	assert_string_equal(sdsi_lic_kind_name(SDSI_PAYLOAD_FOREIGN), "foreign");
	assert_string_equal(sdsi_lic_kind_name(SDSI_PAYLOAD_CAP), "cap");
	assert_string_equal(sdsi_lic_kind_name(SDSI_PAYLOAD_AKC), "akc");
}

static void test_feature_codes(void **state)
{
	uint32_t code = 0;
	char text[5];

	assert_int_equal(sdsi_lic_code_parse("CC02", &code), 0);
	assert_int_equal(code, SDSI_FOURCC('C', 'C', '0', '2'));
	sdsi_lic_code_format(code, text);
	assert_string_equal(text, "CC02");
	assert_int_equal(sdsi_lic_code_parse("CC0", &code), -EINVAL);
	assert_int_equal(sdsi_lic_code_parse("CC022", &code), -EINVAL);
	assert_int_equal(sdsi_lic_code_parse("CC 2", &code), -EINVAL);
	assert_int_equal(sdsi_lic_code_parse("CC\x01" "2", &code), -EINVAL);
	assert_int_equal(sdsi_lic_code_parse("CC\xc3\xa9", &code), -EINVAL);
	assert_false(sdsi_lic_code_valid(0));
	sdsi_lic_code_format(SDSI_FOURCC('A', '\n', 'B', 0x80), text);
	assert_string_equal(text, "A?B?");
	assert_string_equal(sdsi_lic_type_name(1), "one-time");
	assert_string_equal(sdsi_lic_type_name(2), "metered");
	assert_null(sdsi_lic_type_name(0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_akc_layout_and_round_trip),
		cmocka_unit_test(test_cap_layout_and_round_trip),
		cmocka_unit_test(test_cap_read_takes_any_signature_length),
		cmocka_unit_test(test_cap_unpadded_len),
		cmocka_unit_test(test_license_blob_is_the_cap_middle),
		cmocka_unit_test(test_max_bundles_fit_and_one_more_is_refused),
		cmocka_unit_test(test_truncation_is_refused),
		cmocka_unit_test(test_oversized_and_trailing_bytes),
		cmocka_unit_test(test_bundle_count_past_end),
		cmocka_unit_test(test_field_errors_name_their_offset),
		cmocka_unit_test(test_foreign_blobs),
		cmocka_unit_test(test_feature_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
