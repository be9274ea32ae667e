/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libsdsi's decoders seen from the harnesses that also include the model's
 * or the licensing library's headers: those use some of libsdsi's names, so
 * the two cannot share a translation unit.  Each function decodes with the
 * public libsdsi API, checks what a successful decode promises (every
 * pointer it hands out stays inside the buffer) and returns 0, or the
 * decoder's negative errno with its message in why.
 */
#ifndef SDSI_FUZZ_CERT_DECODE_H
#define SDSI_FUZZ_CERT_DECODE_H

#include <stddef.h>
#include <stdint.h>

int cert_decode_state(const uint8_t *buf, size_t len, char *why, size_t whylen);
int cert_decode_meter(const uint8_t *buf, size_t len, char *why, size_t whylen);

/* The failure counters and updates of a register file, as libsdsi reads them. */
struct cert_counters {
	unsigned int akc_fail_count, akc_fail_threshold;
	unsigned int cap_fail_count, cap_fail_threshold;
	unsigned int updates_available, updates_threshold;
	uint64_t ppin;
	int akc_provisioned;
};

int cert_decode_registers(const uint8_t *buf, size_t len, uint32_t guid,
			  struct cert_counters *out, char *why, size_t whylen);

#endif /* SDSI_FUZZ_CERT_DECODE_H */
