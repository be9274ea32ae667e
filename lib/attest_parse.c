// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Strict reading of the part's SPDM 1.0 answers (DSP0274 1.0, the layouts
 * of <sdsi/spdm.h>).  The exchange (attest_flow.c) has already checked the
 * header's version and code; here every length field is checked against
 * the answer's size, and the answer must be exactly as long as its fields
 * say: a part that answers more or less than it announces is refused, as
 * is anything but the algorithms this part must use.  Each function
 * returns 0, or -1 with the reason in why.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "attest_internal.h"

static int refuse(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

int attest_parse_version(const uint8_t *rsp, size_t len, char *why, size_t n)
{
	size_t count, i;
	uint16_t entry;

	if (len < SDSI_SPDM_VERSION_OFF_ENTRIES)
		return refuse(why, n, "VERSION of %zu bytes, shorter than its %u-byte head",
			      len, SDSI_SPDM_VERSION_OFF_ENTRIES);
	count = rsp[SDSI_SPDM_VERSION_OFF_COUNT];
	if (len != SDSI_SPDM_VERSION_OFF_ENTRIES + count * SDSI_SPDM_VERSION_ENTRY_SIZE)
		return refuse(why, n, "VERSION of %zu bytes announces %zu entries (%zu bytes)",
			      len, count,
			      SDSI_SPDM_VERSION_OFF_ENTRIES + count * SDSI_SPDM_VERSION_ENTRY_SIZE);
	for (i = 0; i < count; i++) {
		entry = sdsi_le16(rsp + SDSI_SPDM_VERSION_OFF_ENTRIES +
				  i * SDSI_SPDM_VERSION_ENTRY_SIZE);
		if ((entry & SDSI_SPDM_VERSION_MAJOR_MINOR) == SDSI_SPDM_VERSION_ENTRY_10)
			return 0;
	}
	return refuse(why, n, "VERSION offers no SPDM 1.0 among its %zu entries", count);
}

int attest_parse_capabilities(const uint8_t *rsp, size_t len, char *why, size_t n)
{
	uint32_t flags;

	if (len != SDSI_SPDM_CAPS_SIZE)
		return refuse(why, n, "CAPABILITIES of %zu bytes, not %u", len,
			      SDSI_SPDM_CAPS_SIZE);
	flags = sdsi_le32(rsp + SDSI_SPDM_CAPS_OFF_FLAGS);
	if (!(flags & SDSI_SPDM_CAP_CERT))
		return refuse(why, n, "flags 0x%08x: no CERT_CAP", flags);
	if (!(flags & SDSI_SPDM_CAP_CHAL))
		return refuse(why, n, "flags 0x%08x: no CHAL_CAP", flags);
	if ((flags & SDSI_SPDM_CAP_MEAS_MASK) != SDSI_SPDM_CAP_MEAS_SIG)
		return refuse(why, n, "flags 0x%08x: MEAS_CAP is not signed measurements", flags);
	return 0;
}

int attest_parse_algorithms(const uint8_t *rsp, size_t len, char *why, size_t n)
{
	size_t announced, ext;
	uint32_t v;

	if (len < SDSI_SPDM_ALGS_SIZE)
		return refuse(why, n, "ALGORITHMS of %zu bytes, shorter than %u", len,
			      SDSI_SPDM_ALGS_SIZE);
	announced = sdsi_le16(rsp + SDSI_SPDM_ALGS_OFF_LENGTH);
	ext = (size_t)rsp[SDSI_SPDM_ALGS_OFF_EXT_ASYM_COUNT] +
	      rsp[SDSI_SPDM_ALGS_OFF_EXT_HASH_COUNT];
	if (announced != len || len != SDSI_SPDM_ALGS_SIZE + ext * SDSI_SPDM_NEGO_EXT_SIZE)
		return refuse(why, n, "ALGORITHMS of %zu bytes says Length %zu with %zu extensions",
			      len, announced, ext);
	if (rsp[SDSI_SPDM_ALGS_OFF_MEAS_SPEC] != SDSI_SPDM_MEAS_SPEC_DMTF)
		return refuse(why, n, "measurement specification 0x%02x, not DMTF",
			      rsp[SDSI_SPDM_ALGS_OFF_MEAS_SPEC]);
	v = sdsi_le32(rsp + SDSI_SPDM_ALGS_OFF_MEAS_HASH);
	if (v != SDSI_SPDM_MEAS_HASH_SHA384)
		return refuse(why, n, "measurement hash 0x%08x, not SHA-384 alone", v);
	v = sdsi_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_ASYM);
	if (v != SDSI_SPDM_ASYM_ECDSA_P384)
		return refuse(why, n, "asymmetric algorithm 0x%08x, not ECDSA P-384 alone", v);
	v = sdsi_le32(rsp + SDSI_SPDM_ALGS_OFF_BASE_HASH);
	if (v != SDSI_SPDM_HASH_SHA384)
		return refuse(why, n, "hash algorithm 0x%08x, not SHA-384 alone", v);
	return 0;
}

int attest_parse_digests(const uint8_t *rsp, size_t len, uint8_t digest[SDSI_SPDM_HASH_SIZE],
			 char *why, size_t n)
{
	unsigned int mask = rsp[SDSI_SPDM_OFF_PARAM2];
	size_t slots = (size_t)__builtin_popcount(mask);

	if (len != SDSI_SPDM_DIGESTS_OFF_DIGEST + slots * SDSI_SPDM_HASH_SIZE)
		return refuse(why, n, "DIGESTS of %zu bytes for slot mask 0x%02x (%zu digests)",
			      len, mask, slots);
	if (!(mask & 1u))
		return refuse(why, n, "slot 0 holds no certificate chain (slot mask 0x%02x)",
			      mask);
	/* slot 0 comes first: the digests are in slot order */
	memcpy(digest, rsp + SDSI_SPDM_DIGESTS_OFF_DIGEST, SDSI_SPDM_HASH_SIZE);
	return 0;
}

int attest_parse_certificate(const uint8_t *rsp, size_t len, size_t asked,
			     struct attest_portion *p, char *why, size_t n)
{
	if (len < SDSI_SPDM_CERT_OFF_DATA)
		return refuse(why, n, "CERTIFICATE of %zu bytes, shorter than its %u-byte head",
			      len, SDSI_SPDM_CERT_OFF_DATA);
	if (rsp[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_SLOT_MASK)
		return refuse(why, n, "CERTIFICATE of slot %u, not 0",
			      rsp[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_SLOT_MASK);
	p->portion = sdsi_le16(rsp + SDSI_SPDM_CERT_OFF_PORTION);
	p->remainder = sdsi_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER);
	if (p->portion == 0)
		return refuse(why, n, "CERTIFICATE with an empty portion");
	if (p->portion > asked)
		return refuse(why, n, "CERTIFICATE portion of %zu bytes, %zu asked",
			      p->portion, asked);
	if (len != SDSI_SPDM_CERT_OFF_DATA + p->portion)
		return refuse(why, n, "CERTIFICATE of %zu bytes says PortionLength %zu",
			      len, p->portion);
	return 0;
}

int attest_parse_challenge_auth(const uint8_t *rsp, size_t len, struct attest_auth *auth,
				char *why, size_t n)
{
	/* no measurement summary is asked for (attest_flow.c) */
	size_t opaque_at = SDSI_SPDM_AUTH_OFF_SUMMARY, opaque;

	if (len < opaque_at + SDSI_SPDM_OPAQUE_LEN_SIZE + SDSI_SPDM_SIG_SIZE)
		return refuse(why, n, "CHALLENGE_AUTH of %zu bytes, shorter than %u", len,
			      (unsigned int)(opaque_at + SDSI_SPDM_OPAQUE_LEN_SIZE +
					     SDSI_SPDM_SIG_SIZE));
	if (rsp[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_AUTH_SLOT_MASK)
		return refuse(why, n, "CHALLENGE_AUTH for slot %u, not 0",
			      rsp[SDSI_SPDM_OFF_PARAM1] & SDSI_SPDM_AUTH_SLOT_MASK);
	if (!(rsp[SDSI_SPDM_OFF_PARAM2] & 1u))
		return refuse(why, n, "CHALLENGE_AUTH slot mask 0x%02x without slot 0",
			      rsp[SDSI_SPDM_OFF_PARAM2]);
	opaque = sdsi_le16(rsp + opaque_at);
	if (opaque > SDSI_SPDM_OPAQUE_MAX ||
	    len != opaque_at + SDSI_SPDM_OPAQUE_LEN_SIZE + opaque + SDSI_SPDM_SIG_SIZE)
		return refuse(why, n, "CHALLENGE_AUTH of %zu bytes says OpaqueLength %zu",
			      len, opaque);
	auth->chain_hash = rsp + SDSI_SPDM_AUTH_OFF_CHAIN_HASH;
	auth->nonce = rsp + SDSI_SPDM_AUTH_OFF_NONCE;
	auth->sig_off = len - SDSI_SPDM_SIG_SIZE;
	return 0;
}

/* One block at rec (left bytes of the record left): 0 and its size in *used, or -1. */
static int parse_block(const uint8_t *rec, size_t left, struct attest_measurement *m,
		       size_t *used, char *why, size_t n)
{
	size_t size, value_size;
	uint8_t type;

	if (left < SDSI_SPDM_BLOCK_HDR_SIZE + SDSI_SPDM_DMTF_HDR_SIZE)
		return refuse(why, n, "a measurement block cut short (%zu bytes left)",
				      left);
	m->index = rec[SDSI_SPDM_BLOCK_OFF_INDEX];
	size = sdsi_le16(rec + SDSI_SPDM_BLOCK_OFF_SIZE);
	if (rec[SDSI_SPDM_BLOCK_OFF_SPEC] != SDSI_SPDM_MEAS_SPEC_DMTF)
		return refuse(why, n, "measurement %u: specification 0x%02x, not DMTF",
				      m->index, rec[SDSI_SPDM_BLOCK_OFF_SPEC]);
	if (size > left - SDSI_SPDM_BLOCK_HDR_SIZE)
		return refuse(why, n, "measurement %u: MeasurementSize %zu past the record",
				      m->index, size);
	rec += SDSI_SPDM_BLOCK_HDR_SIZE;
	type = rec[SDSI_SPDM_DMTF_OFF_TYPE];
	value_size = sdsi_le16(rec + SDSI_SPDM_DMTF_OFF_VALUE_SIZE);
	if (size != SDSI_SPDM_DMTF_HDR_SIZE + value_size)
		return refuse(why, n, "measurement %u: MeasurementSize %zu for a %zu-byte value",
				      m->index, size, value_size);
	if ((type & SDSI_SPDM_DMTF_TYPE_RAW) || value_size != SDSI_SPDM_HASH_SIZE)
		return refuse(why, n, "measurement %u: not a SHA-384 digest (type 0x%02x, %zu bytes)",
				      m->index, type, value_size);
	memcpy(m->value, rec + SDSI_SPDM_DMTF_HDR_SIZE, SDSI_SPDM_HASH_SIZE);
	*used = SDSI_SPDM_BLOCK_HDR_SIZE + size;
	return 0;
}

int attest_parse_measurements(const uint8_t *rsp, size_t len, struct attest_meas_answer *out,
			      char *why, size_t n)
{
	size_t blocks, record, opaque_at, opaque, off, used = 0;
	unsigned int i, j;

	if (len < SDSI_SPDM_MEAS_OFF_RECORD)
		return refuse(why, n, "MEASUREMENTS of %zu bytes, shorter than its %u-byte head",
			      len, SDSI_SPDM_MEAS_OFF_RECORD);
	blocks = rsp[SDSI_SPDM_MEAS_OFF_BLOCKS];
	record = le24(rsp + SDSI_SPDM_MEAS_OFF_RECORD_LEN);
	opaque_at = SDSI_SPDM_MEAS_OFF_RECORD + record + SDSI_SPDM_NONCE_SIZE;
	if (record > len || len < opaque_at + SDSI_SPDM_OPAQUE_LEN_SIZE + SDSI_SPDM_SIG_SIZE)
		return refuse(why, n, "MEASUREMENTS of %zu bytes with a %zu-byte record: "
			      "no room for nonce, opaque length and signature", len, record);
	opaque = sdsi_le16(rsp + opaque_at);
	if (opaque > SDSI_SPDM_OPAQUE_MAX ||
	    len != opaque_at + SDSI_SPDM_OPAQUE_LEN_SIZE + opaque + SDSI_SPDM_SIG_SIZE)
		return refuse(why, n, "MEASUREMENTS of %zu bytes says OpaqueLength %zu",
			      len, opaque);
	if (blocks == 0 || blocks > ATTEST_MAX_MEASUREMENTS)
		return refuse(why, n, "MEASUREMENTS with %zu blocks", blocks);
	for (i = 0, off = 0; i < blocks; i++, off += used) {
		if (parse_block(rsp + SDSI_SPDM_MEAS_OFF_RECORD + off, record - off,
				&out->meas[i], &used, why, n))
			return -1;
		for (j = 0; j < i; j++)
			if (out->meas[j].index == out->meas[i].index)
				return refuse(why, n, "measurement %u reported twice",
					      out->meas[i].index);
	}
	if (off != record)
		return refuse(why, n, "%zu blocks fill %zu bytes of a %zu-byte record",
			      blocks, off, record);
	out->count = (unsigned int)blocks;
	out->sig_off = len - SDSI_SPDM_SIG_SIZE;
	return 0;
}
