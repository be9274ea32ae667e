/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The values sdsi-emu and sdsi-shmem take on their command lines and in
 * their control commands, parsed once so that both accept the same words
 * with the same limits.  The limits are the model's: a 4-bit socket ID
 * (16 sockets), 3-bit failure and update thresholds where 0 would mean
 * "the model's default" and so is not a value to ask for (1..7), and the
 * three feature bits the model keeps (docs/model.md).
 */
#ifndef SDSI_CLI_VALUE_H
#define SDSI_CLI_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_MAX_SOCKETS		16u	/* Socket ID is bits 3:0 */
#define CLI_THRESHOLD_MIN	1u
#define CLI_THRESHOLD_MAX	7u	/* a 3-bit register field */

/* Strict unsigned decimal in [min, max]; no sign, no blanks, no suffix. */
bool cli_parse_uint(const char *text, unsigned long long min,
		   unsigned long long max, unsigned long long *value);

/* 1 to 16 hex digits of text[0..len), optionally after "0x". */
bool cli_parse_hex64(const char *text, size_t len, uint64_t *value);

/*
 * A feature list: comma-separated names (on-demand, attestation,
 * metering), "none", or a hex value using only those bits.  0 or -EINVAL
 * with the reason in err.
 */
int cli_parse_features(const char *text, uint64_t *features, char *err,
		      size_t errlen);

/* v1, v2 or either GUID in hex: 0 or -EINVAL. */
int cli_parse_guid(const char *text, uint32_t *guid);

#endif /* SDSI_CLI_VALUE_H */
