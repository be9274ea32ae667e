/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kinds of blob an operator provisions, as the project's format tells
 * them apart (docs/formats.md): an AKC, a CAP, or a foreign blob (Intel's
 * real files among them) passed through with the generic checks.  Their
 * names, each spelled once: the upper-case one of text and errors, the
 * lower-case one of JSON and sdsi-authority inspect, and the sysfs file a
 * blob is written to (a row of sysfs_files.h).  libsdsi's public enums sdsi_blob_format and
 * sdsi_blob_kind are fixed by its ABI; lib/blob.c asserts they agree.
 * Not installed: libsdsi, the licensing codec and the programs share it.
 */
#ifndef SDSI_BLOB_KIND_H
#define SDSI_BLOB_KIND_H

#include <stddef.h>

#include "sdsi/sysfs_files.h"

enum sdsi_payload_kind {
	SDSI_PAYLOAD_FOREIGN = 0,
	SDSI_PAYLOAD_AKC,
	SDSI_PAYLOAD_CAP,
};

/*
 * X(kind, name, lower-case name, provisioning file); SDSI_FILE_COUNT: a
 * foreign blob has no file of its own.
 */
#define SDSI_PAYLOAD_KIND_TABLE(X) \
	X(SDSI_PAYLOAD_FOREIGN, "foreign", "foreign", SDSI_FILE_COUNT) \
	X(SDSI_PAYLOAD_AKC, "AKC", "akc", SDSI_FILE_PROVISION_AKC) \
	X(SDSI_PAYLOAD_CAP, "CAP", "cap", SDSI_FILE_PROVISION_CAP)

struct sdsi_payload_names {
	const char *name;
	const char *lower;
	enum sdsi_sysfs_file file;
};

/* The names of kind; a value outside the enum is named as foreign. */
static inline const struct sdsi_payload_names *sdsi_payload_names(enum sdsi_payload_kind kind)
{
#define SDSI_PAYLOAD_NAMES_(k, name, lower, file) [k] = { name, lower, file },
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

/* "provision_akc", "provision_cap"; NULL for a foreign blob. */
static inline const char *sdsi_payload_file_name(enum sdsi_payload_kind kind)
{
	enum sdsi_sysfs_file file = sdsi_payload_names(kind)->file;

	return file < SDSI_FILE_COUNT ? sdsi_sysfs_file_name(file) : NULL;
}

#endif /* SDSI_BLOB_KIND_H */
