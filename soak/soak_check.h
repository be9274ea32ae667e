/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a successful read of each attribute must return (docs/model.md and
 * the sysfs ABI): a read that succeeds with malformed bytes is a failure of
 * the soak, whatever was going on.
 */
#ifndef SDSI_SOAK_CHECK_H
#define SDSI_SOAK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum soak_kind {
	SOAK_GUID,
	SOAK_REGISTERS,
	SOAK_STATE_CERT,
	SOAK_METER_CERT,	/* meter_certificate and meter_current */
	SOAK_OTHER,		/* an attribute this checker does not know: non-empty */
};

/* From the file's base name. */
enum soak_kind soak_kind_of(const char *path);
/* Whether the n bytes read at offset 0 are well-formed for that kind. */
bool soak_check(enum soak_kind kind, const uint8_t *buf, size_t n);
/* "EBUSY" for EBUSY; "E<number>" for a value without a name. */
const char *soak_errno_name(int err);

#endif /* SDSI_SOAK_CHECK_H */
