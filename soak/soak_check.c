// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "soak_check.h"

#define STATE_HEADER	0x18u
#define STATE_KEY_INFO	52u
#define STATE_ALIGN	16u
#define STATE_MAX	4096u
#define METER_HEADER	0x28u

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

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
	uint32_t licences;

	if (n < STATE_HEADER + STATE_KEY_INFO || n > STATE_MAX || n % STATE_ALIGN)
		return false;
	licences = le32(buf + 0x14);
	return le32(buf + 0x0c) == n && le32(buf + 0x08) == 6 + licences &&
	       STATE_HEADER + 4ull * licences + STATE_KEY_INFO <= n;
}

/* 'MTDB', then 'MMRC' at 0x20, and as many pair bytes as the length says. */
static bool meter_ok(const uint8_t *buf, size_t n)
{
	return n >= METER_HEADER && !memcmp(buf, "BDTM", 4) &&
	       !memcmp(buf + 0x20, "CRMM", 4) && le32(buf + 0x14) == n - METER_HEADER &&
	       le32(buf + 0x14) % 8 == 0;
}

bool soak_check(enum soak_kind kind, const uint8_t *buf, size_t n)
{
	switch (kind) {
	case SOAK_GUID:
		return guid_ok(buf, n);
	case SOAK_REGISTERS:
		return n == 72 || n == 80;
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
