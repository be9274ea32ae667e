// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdsi's attestation against a hostile part (docs/fuzzing.md), through
 * the test seam (lib/attest_internal.h): every SPDM answer is the input's
 * next: a u16 length (up to 4096, so a transport claiming more than the
 * 4088-byte buffer is seen too), then that many bytes (zeros once the
 * input runs out).  The first byte picks the call by its two low bits:
 * sdsi_attest_verify() with fuzz/attest_root.pem as the only anchor,
 * sdsi_attest_chain(), sdsi_attest_leaf_der(), or each answer parser of
 * attest_parse.c on the rest of the input at once (those of CHALLENGE_AUTH
 * and MEASUREMENTS sit behind a signature the flow cannot get past); bit 2
 * gives the part a meter_certificate.
 *
 * Invariants: the calls return 0 or an error of their contract; at most
 * 262 exchanges (VCA, DIGESTS, 256 GET_CERTIFICATE, CHALLENGE,
 * GET_MEASUREMENTS); a chain returned is 53..65535 bytes with its own
 * Length, a leaf's DER lies inside it; a verdict names a failed check or
 * is ok, never both; a parsed MEASUREMENTS keeps at most its bound of
 * blocks and ends with its signature.
 */
#include <errno.h>
#include <string.h>

#include "fuzz_check.h"
#include "attest_internal.h"

#define MAX_EXCHANGES	(3u + 1u + ATTEST_MAX_CERT_REQUESTS + 2u)
#define CLAIM_MAX	4096u

struct hostile_part {
	struct fuzz_input in;
	unsigned int exchanges;
	bool meters;
};

static int part_transact(void *ctx, const uint8_t *req, size_t req_len, uint8_t *rsp,
			 size_t rsp_cap, size_t *rsp_len, struct sdsi_error *err)
{
	struct hostile_part *part = ctx;
	size_t len, i;

	(void)err;
	FUZZ_CHECK(req_len >= SDSI_SPDM_HDR_SIZE && req_len <= SDSI_SPDM_REQUEST_MAX,
		   "a request of %zu bytes", req_len);
	FUZZ_CHECK(req[0] == SDSI_SPDM_VERSION_10, "a request of version 0x%02x", req[0]);
	part->exchanges++;
	FUZZ_CHECK(part->exchanges <= MAX_EXCHANGES, "%u exchanges: the flow does not stop",
		   part->exchanges);
	len = (size_t)fuzz_take(&part->in, 2) % (CLAIM_MAX + 1);
	for (i = 0; i < len; i++) {
		uint8_t byte = (uint8_t)fuzz_take(&part->in, 1);

		if (i < rsp_cap)
			rsp[i] = byte;
	}
	*rsp_len = len;
	return 0;
}

static int part_read_attr(void *ctx, enum sdsi_attr attr, uint8_t *buf, size_t *len,
			  struct sdsi_error *err)
{
	struct hostile_part *part = ctx;

	if (attr == SDSI_ATTR_METER_CERT && !part->meters)
		return sdsi_error_set(err, ENOENT, SDSI_ERR_NO_DEVICE, -1, "no meter_certificate");
	memset(buf, attr == SDSI_ATTR_STATE_CERT ? 0x5a : 0xa5, 80);
	*len = 80;
	return 0;
}

static bool could_not_run(int ret)
{
	return ret == -EBUSY || ret == -EMSGSIZE || ret == -ENOMEM;
}

static void check_chain(const uint8_t *bytes, size_t len)
{
	FUZZ_CHECK(len > SDSI_SPDM_CHAIN_OFF_CERTS && len <= SDSI_SPDM_CHAIN_MAX,
		   "a chain of %zu bytes", len);
	FUZZ_CHECK(sdsi_le16(bytes) == len, "a chain of %zu bytes says %u", len, sdsi_le16(bytes));
}

static void run_session(uint8_t mode, struct fuzz_input *in)
{
	struct hostile_part part = { *in, 0, (mode & 4) != 0 };
	struct sdsi_attest_io io = { part_transact, part_read_attr, &part };
	struct sdsi_attest_verdict *v = NULL;
	struct sdsi_error err;
	struct sdsi_attest *att;
	const uint8_t *bytes, *der;
	size_t len, der_len;
	int ret;

	if (sdsi_attest_open_with(&io, "fuzz", &att, &err))
		return;
	switch (mode & 3) {
	case 0:
		ret = sdsi_attest_verify(att, FUZZ_ATTEST_ANCHOR, &v, &err);
		FUZZ_CHECK(ret == 0 || could_not_run(ret), "verify: %d: %s", ret, err.message);
		FUZZ_CHECK((ret == 0) == (v != NULL), "verify: %d with verdict %p", ret, (void *)v);
		if (v)
			FUZZ_CHECK(sdsi_attest_verdict_ok(v) !=
				   (sdsi_attest_verdict_failed_check(v) != NULL),
				   "a verdict ok and failed at once: %s",
				   sdsi_attest_verdict_summary(v));
		sdsi_attest_verdict_free(v);
		break;
	case 1:
		ret = sdsi_attest_chain(att, &bytes, &len, &err);
		FUZZ_CHECK(ret == 0 || ret == -EPROTO || could_not_run(ret), "chain: %d", ret);
		if (!ret)
			check_chain(bytes, len);
		break;
	case 2:
		ret = sdsi_attest_leaf_der(att, &der, &der_len, &err);
		FUZZ_CHECK(ret == 0 || ret == -EPROTO || could_not_run(ret), "leaf: %d", ret);
		if (!ret) {
			check_chain(att->chain, att->chain_len);
			FUZZ_CHECK(der > att->chain + SDSI_SPDM_CHAIN_OFF_CERTS - 1 && der_len &&
				   der + der_len <= att->chain + att->chain_len,
				   "a leaf of %zu bytes outside its chain", der_len);
		}
		break;
	}
	sdsi_attest_free(att);
}

/* Every parser on the same bytes: none reads past them. */
static void run_parsers(uint8_t mode, struct fuzz_input *in)
{
	uint8_t digest[SDSI_SPDM_HASH_SIZE];
	struct attest_meas_answer meas;
	struct attest_portion portion;
	struct attest_auth auth;
	char why[ATTEST_DETAIL_SIZE];
	const uint8_t *p = in->p;
	size_t n = in->len;

	(void)mode;
	attest_parse_version(p, n, why, sizeof(why));
	attest_parse_capabilities(p, n, why, sizeof(why));
	attest_parse_algorithms(p, n, why, sizeof(why));
	if (n >= SDSI_SPDM_HDR_SIZE)
		attest_parse_digests(p, n, digest, why, sizeof(why));
	if (!attest_parse_certificate(p, n, SDSI_SPDM_CERT_PORTION_MAX, &portion, why, sizeof(why)))
		FUZZ_CHECK(portion.portion && portion.portion <= SDSI_SPDM_CERT_PORTION_MAX &&
			   n == SDSI_SPDM_CERT_OFF_DATA + portion.portion,
			   "a portion of %zu bytes in %zu", portion.portion, n);
	if (!attest_parse_challenge_auth(p, n, &auth, why, sizeof(why)))
		FUZZ_CHECK(auth.sig_off + SDSI_SPDM_SIG_SIZE == n, "CHALLENGE_AUTH's signature at %zu of %zu",
			   auth.sig_off, n);
	if (!attest_parse_measurements(p, n, &meas, why, sizeof(why)))
		FUZZ_CHECK(meas.count && meas.count <= ATTEST_MAX_MEASUREMENTS &&
			   meas.sig_off + SDSI_SPDM_SIG_SIZE == n,
			   "%u measurements, the signature at %zu of %zu", meas.count, meas.sig_off, n);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_entry *const entries[4] = { run_session, run_session, run_session,
						run_parsers };

	return fuzz_by_first_byte(data, size, entries);
}
