/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kinds of blob an operator provisions, as the project's format tells
 * them apart (docs/formats.md): an AKC, a CAP, or a foreign blob (Intel's
 * real files among them) passed through with the generic checks.  Their
 * names, each spelled once: the upper-case one of text and errors, the
 * lower-case one of JSON and sdsi-authority inspect, and the sysfs file a
 * blob is written to.  libsdsi's public enums sdsi_blob_format and
 * sdsi_blob_kind are fixed by its ABI; lib/blob.c asserts they agree.
 * Not installed: libsdsi, the licensing codec and the programs share it.
 */
#ifndef SDSI_BLOB_KIND_H
#define SDSI_BLOB_KIND_H

#include <stddef.h>

enum sdsi_payload_kind {
	SDSI_PAYLOAD_FOREIGN = 0,
	SDSI_PAYLOAD_AKC,
	SDSI_PAYLOAD_CAP,
};

/* X(kind, name, lower-case name, provisioning attribute) */
#define SDSI_PAYLOAD_KIND_TABLE(X) \
	X(SDSI_PAYLOAD_FOREIGN, "foreign", "foreign", NULL) \
	X(SDSI_PAYLOAD_AKC, "AKC", "akc", "provision_akc") \
	X(SDSI_PAYLOAD_CAP, "CAP", "cap", "provision_cap")

struct sdsi_payload_names {
	const char *name;
	const char *lower;
	const char *attribute;
};

/* The names of kind; a value outside the enum is named as foreign. */
static inline const struct sdsi_payload_names *sdsi_payload_names(enum sdsi_payload_kind kind)
{
#define SDSI_PAYLOAD_NAMES_(k, name, lower, attribute) [k] = { name, lower, attribute },
	static const struct sdsi_payload_names names[] = {
		SDSI_PAYLOAD_KIND_TABLE(SDSI_PAYLOAD_NAMES_)
	};
#undef SDSI_PAYLOAD_NAMES_
	size_t i = (size_t)kind;

	return &names[i < sizeof(names) / sizeof(names[0]) ? i : SDSI_PAYLOAD_FOREIGN];
}

/* "AKC", "CAP", "foreign". */
static inline const char *sdsi_payload_name(enum sdsi_payload_kind kind)
{
	return sdsi_payload_names(kind)->name;
}

/* "akc", "cap", "foreign". */
static inline const char *sdsi_payload_lower_name(enum sdsi_payload_kind kind)
{
	return sdsi_payload_names(kind)->lower;
}

#endif /* SDSI_BLOB_KIND_H */
