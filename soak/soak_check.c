// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi/le.h"
#include "soak_check.h"


enum soak_kind soak_kind_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strcmp(base, "guid"))
		return SOAK_GUID;
	if (!strcmp(base, "registers"))
		return SOAK_REGISTERS;
	if (!strcmp(base, "state_certificate"))
		return SOAK_STATE_CERT;
	if (!strcmp(base, "meter_certificate") || !strcmp(base, "meter_current"))
		return SOAK_METER_CERT;
	return SOAK_OTHER;
}

/* "0x" and lower-case hex digits, then a newline: what the driver prints. */
static bool guid_ok(const uint8_t *buf, size_t n)
{
	size_t i;

	if (n < 4 || n > 11 || buf[0] != '0' || buf[1] != 'x' || buf[n - 1] != '\n')
		return false;
	for (i = 2; i < n - 1; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
			return false;
	return true;
}

/* Header sizes agree with the bytes read; the whole region fits 4096. */
static bool state_ok(const uint8_t *buf, size_t n)
{
	uint32_t licenses;

	if (n < SDSI_STATE_HEADER_SIZE + SDSI_STATE_KEY_INFO_SIZE ||
	    n > SDSI_STATE_MAX_SIZE || n % SDSI_STATE_REGION_ALIGN)
		return false;
	licenses = sdsi_le32(buf + SDSI_STATE_OFF_NUM_LICENSES);
	return sdsi_le32(buf + SDSI_STATE_OFF_TOTAL_SIZE) == n &&
	       sdsi_le32(buf + SDSI_STATE_OFF_HEADER_SIZE) ==
			SDSI_STATE_HEADER_SIZE / 4 + licenses &&
	       SDSI_STATE_HEADER_SIZE + 4ull * licenses + SDSI_STATE_KEY_INFO_SIZE <= n;
}

/* 'MTDB', then 'MMRC' at 0x20, and as many pair bytes as the length says. */
static bool meter_ok(const uint8_t *buf, size_t n)
{
	return n >= SDSI_METER_HEADER_SIZE &&
	       sdsi_le32(buf + SDSI_METER_OFF_SIGNATURE) == SDSI_METER_SIGNATURE &&
	       sdsi_le32(buf + SDSI_METER_OFF_MMRC_ENCODING) == SDSI_METER_MMRC &&
	       sdsi_le32(buf + SDSI_METER_OFF_BUNDLE_LENGTH) == n - SDSI_METER_HEADER_SIZE &&
	       sdsi_le32(buf + SDSI_METER_OFF_BUNDLE_LENGTH) % SDSI_METER_PAIR_SIZE == 0;
}

bool soak_check(enum soak_kind kind, const uint8_t *buf, size_t n)
{
	switch (kind) {
	case SOAK_GUID:
		return guid_ok(buf, n);
	case SOAK_REGISTERS:
		return n == SDSI_REGS_SIZE_V1 || n == SDSI_REGS_SIZE_V2;
	case SOAK_STATE_CERT:
		return state_ok(buf, n);
	case SOAK_METER_CERT:
		return meter_ok(buf, n);
	default:
		return n > 0;
	}
}

const char *soak_errno_name(int err)
{
	static __thread char unnamed[16];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(unnamed, sizeof(unnamed), "E%d", err);
	return unnamed;
}
