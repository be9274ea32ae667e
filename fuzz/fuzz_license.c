// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AKC/CAP codec and verifier of licensing/ on hostile bytes.  The first
 * byte picks the entry point: 0 AKC, 1 CAP, 2 bare licence blob, 3 a CAP
 * signed here from the input's fields, then changed at one input-chosen
 * byte.  Invariants, besides no crash and no sanitizer report:
 *   - a decoder accepts exactly one encoding: re-encoding what it decoded
 *     gives back the same bytes;
 *   - the kind detection and the decoders agree;
 *   - a verifier never accepts what its decoder refuses;
 *   - every refusal names a reason;
 *   - a signed CAP verifies, and with any one byte changed it does not.
 * The keys are generated once per process.
 */
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

#include "licensing/sdsi_lic.h"
#include "fuzz_check.h"

static EVP_PKEY *root_key, *licensor_key;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (sdsi_lic_key_generate(&root_key, NULL) ||
	    sdsi_lic_key_generate(&licensor_key, NULL))
		abort();
	return 0;
}

static void check_error(int ret, const struct sdsi_lic_error *err)
{
	if (ret)
		FUZZ_CHECK(err->reason[0] != '\0' &&
			   memchr(err->reason, '\0', sizeof(err->reason)),
			   "refusal %d without a reason", ret);
}

/* A decoder accepts exactly one encoding: what it decoded re-encodes to the same bytes. */
static void check_same_bytes(const uint8_t *p, size_t len, const uint8_t *again, size_t out_len)
{
	FUZZ_CHECK(out_len == len && memcmp(again, p, len) == 0,
		   "%zu bytes decode, re-encode to %zu different ones", len, out_len);
}

/* A verifier never accepts what its decoder refused, and names why it refuses. */
static void check_verdict(int decoded, int verified, const struct sdsi_lic_error *err)
{
	if (verified == 0)
		FUZZ_CHECK(!decoded, "verified what the decoder refused");
	else if (!decoded)
		check_error(-EBADMSG, err);
}

static void fuzz_akc(uint8_t mode, struct fuzz_input *in)
{
	const uint8_t *p = in->p;
	const size_t len = in->len;
	struct sdsi_lic_error err = { .reason = "" };
	uint8_t again[SDSI_AKC_SIZE];
	struct sdsi_lic_akc akc;
	size_t out_len = 0;
	int ret = sdsi_lic_akc_decode(p, len, &akc, &err);

	check_error(ret, &err);
	if (!ret) {
		FUZZ_CHECK(sdsi_lic_blob_kind(p, len) == SDSI_PAYLOAD_AKC, "kind");
		FUZZ_CHECK(sdsi_lic_akc_encode(&akc, again, sizeof(again), &out_len) == 0, "encode");
		check_same_bytes(p, len, again, out_len);
	}
	err.reason[0] = '\0';
	check_verdict(ret, sdsi_lic_akc_verify(p, len, root_key, NULL, &err), &err);
}

static void fuzz_cap(uint8_t mode, struct fuzz_input *in)
{
	const uint8_t *p = in->p;
	const size_t len = in->len;
	struct sdsi_lic_error err = { .reason = "" };
	uint8_t again[SDSI_LICENSE_BLOB_MAX];
	struct sdsi_lic_cap cap;
	size_t out_len = 0;
	int ret = sdsi_lic_cap_decode(p, len, &cap, &err);

	check_error(ret, &err);
	if (!ret) {
		FUZZ_CHECK(sdsi_lic_blob_kind(p, len) == SDSI_PAYLOAD_CAP, "kind");
		FUZZ_CHECK(cap.license.bundle_count >= 1 &&
			   cap.license.bundle_count <= SDSI_CAP_MAX_BUNDLES,
			   "%u bundles", cap.license.bundle_count);
		FUZZ_CHECK(sdsi_lic_cap_encode(&cap, again, sizeof(again), &out_len, NULL) == 0,
			   "encode");
		check_same_bytes(p, len, again, out_len);
	}
	err.reason[0] = '\0';
	check_verdict(ret, sdsi_lic_cap_verify(p, len, licensor_key, NULL, &err), &err);
}

static void fuzz_blob(uint8_t mode, struct fuzz_input *in)
{
	const uint8_t *p = in->p;
	const size_t len = in->len;
	struct sdsi_lic_error err = { .reason = "" };
	uint8_t again[SDSI_LICENSE_BLOB_MAX];
	struct sdsi_lic_blob lic;
	size_t out_len = 0;
	int ret = sdsi_lic_blob_decode(p, len, &lic, &err);

	check_error(ret, &err);
	if (!ret) {
		FUZZ_CHECK(sdsi_lic_blob_encode(&lic, again, sizeof(again), &out_len,
						NULL) == 0, "encode");
		check_same_bytes(p, len, again, out_len);
	}
}

/*
 * [type][u64 id][u64 ppin][u32 revision][count][u16 position][xor]: a CAP
 * with count % 28 bundles "B000".., signed, then one byte changed.
 */
static void fuzz_signed_cap(uint8_t mode, struct fuzz_input *in)
{
	struct sdsi_lic_cap cap = { 0 };
	uint8_t buf[SDSI_LICENSE_BLOB_MAX];
	size_t len = 0, pos;
	uint8_t flip;
	int ret;

	cap.license.type = (uint32_t)fuzz_take(in, 1);
	cap.license.id = fuzz_take(in, 8);
	cap.license.ppin = fuzz_take(in, 8);
	cap.license.revision = (uint32_t)fuzz_take(in, 4);
	cap.license.bundle_count = (uint32_t)fuzz_take(in, 1) % (SDSI_CAP_MAX_BUNDLES + 1);
	for (uint32_t i = 0; i < cap.license.bundle_count; i++)
		cap.license.bundles[i].code = SDSI_FOURCC('B', '0' + i / 10 % 10, '0' + i % 10, '0');
	pos = (size_t)fuzz_take(in, 2);
	flip = (uint8_t)fuzz_take(in, 1);
	if (sdsi_lic_cap_sign(&cap, licensor_key, NULL))
		return;
	ret = sdsi_lic_cap_encode(&cap, buf, sizeof(buf), &len, NULL);
	if (ret) {
		/* The encoder refuses only what the decoder would refuse. */
		FUZZ_CHECK(cap.license.bundle_count == 0 || cap.license.type < 1 ||
			   cap.license.type > 2, "encode refused a valid CAP: %d", ret);
		return;
	}
	FUZZ_CHECK(sdsi_lic_cap_verify(buf, len, licensor_key, NULL, NULL) == 0,
		   "a freshly signed CAP does not verify");
	FUZZ_CHECK(sdsi_lic_cap_verify(buf, len, root_key, NULL, NULL) == -EBADMSG,
		   "a CAP verifies with the wrong key");
	pos %= len;
	if (!flip)
		return;
	buf[pos] ^= flip;
	FUZZ_CHECK(sdsi_lic_cap_verify(buf, len, licensor_key, NULL, NULL) != 0,
		   "byte %zu changed by 0x%02x and the CAP still verifies", pos, flip);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_entry *const entries[4] = { fuzz_akc, fuzz_cap, fuzz_blob, fuzz_signed_cap };

	return fuzz_by_first_byte(data, size, entries);
}
