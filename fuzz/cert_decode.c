// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdsi's certificate and register decoders for the harnesses, with the
 * promises of a successful decode checked: the licences' feature bundles
 * and the meter pairs lie inside the buffer, and reading every one of them
 * stays there (AddressSanitizer watches the reads).
 */
#include <stdio.h>

#include "sdsi/libsdsi.h"
#include "cert_decode.h"
#include "fuzz_handle.h"
#include "fuzz_check.h"

static int failed(const struct sdsi_error *err, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s", sdsi_error_message(err));
	return -sdsi_error_errno(err);
}

int cert_decode_state(const uint8_t *buf, size_t len, char *why, size_t whylen)
{
	struct sdsi_state_cert cert;
	FUZZ_ERROR(err);
	uint64_t used = 0;
	uint32_t sum = 0;

	if (sdsi_decode_state_cert(buf, len, &cert, err))
		return failed(err, why, whylen);
	for (uint32_t i = 0; i < cert.num_licenses; i++) {
		const struct sdsi_license *lic = &cert.licenses[i];

		if (!lic->present)
			continue;
		FUZZ_CHECK(lic->offset + (uint64_t)lic->size <= len,
			   "licence %u at %zu, %u bytes, past %zu", i, lic->offset, lic->size, len);
		FUZZ_CHECK(lic->offset >= used, "licence %u overlaps the one before", i);
		used = lic->offset + (uint64_t)lic->size;
		FUZZ_CHECK(lic->features >= buf &&
			   (uint64_t)(lic->features - buf) +
			   (uint64_t)lic->num_features * 32u <= len,
			   "licence %u: %u bundles past the end", i, lic->num_features);
		FUZZ_CHECK(36u + (uint64_t)lic->num_features * 32u <= lic->size,
			   "licence %u: %u bundles past its %u bytes", i, lic->num_features,
			   lic->size);
		for (uint32_t k = 0; k < lic->num_features; k++)
			sum += sdsi_license_feature(lic, k);
	}
	sdsi_state_cert_free(&cert);
	/* Keeps the reads above from being optimised away. */
	__asm__ volatile("" : : "r"(sum));
	return 0;
}

int cert_decode_meter(const uint8_t *buf, size_t len, char *why, size_t whylen)
{
	struct sdsi_meter_cert cert;
	FUZZ_ERROR(err);
	uint32_t enc, count, sum = 0;

	if (sdsi_decode_meter_cert(buf, len, &cert, err))
		return failed(err, why, whylen);
	FUZZ_CHECK(cert.counters == buf + SDSI_METER_HEADER_SIZE &&
		   40u + (uint64_t)cert.num_counters * 8u <= len,
		   "%u counters past %zu bytes", cert.num_counters, len);
	for (uint32_t i = 0; i < cert.num_counters; i++) {
		sdsi_meter_counter(&cert, i, &enc, &count);
		sum += enc ^ count;
	}
	__asm__ volatile("" : : "r"(sum));
	return 0;
}

int cert_decode_registers(const uint8_t *buf, size_t len, uint32_t guid,
			  struct cert_counters *out, char *why, size_t whylen)
{
	struct sdsi_registers regs;
	FUZZ_ERROR(err);

	if (sdsi_decode_registers(buf, len, guid, &regs, err))
		return failed(err, why, whylen);
	out->akc_fail_count = regs.akc_fail_count;
	out->akc_fail_threshold = regs.akc_fail_threshold;
	out->cap_fail_count = regs.cap_fail_count;
	out->cap_fail_threshold = regs.cap_fail_threshold;
	out->updates_available = regs.updates_available;
	out->updates_threshold = regs.updates_threshold;
	out->ppin = regs.ppin;
	out->akc_provisioned = regs.akc_provisioned;
	return 0;
}
