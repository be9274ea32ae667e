/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The manifest of a CAP directory (intel_sdsi --all -c DIR): the file
 * DIR/MANIFEST, which names the socket of a CAP that does not read as a
 * licence blob, by the PPIN it is for (docs/intel_sdsi.md, "The manifest").
 * One entry a line, "PPIN NAME": PPIN in hexadecimal (0x optional, at most
 * 16 digits), NAME an entry of DIR (no '/'), separated by blanks; blank
 * lines and lines starting with '#' say nothing.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_CAP_MANIFEST_H
#define SDSI_TOOLS_INTEL_SDSI_CAP_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdsi/libsdsi.h"

#define CAP_MANIFEST_NAME	"MANIFEST"
#define CAP_MANIFEST_MAX	65536u	/* bytes: a line per CAP of a large fleet */

struct manifest_entry {
	char *name;
	uint64_t ppin;
	unsigned int line;
	bool used;			/* names a file of the directory */
};

struct cap_manifest {
	char *path;			/* DIR/MANIFEST */
	struct manifest_entry *entries;
	size_t count;
};

/*
 * Read DIR/MANIFEST (path) into m.  -errno with err filled: the file cannot
 * be read (class USAGE, as any input file), or a line that is not an entry,
 * a NAME given twice, or a file of more than CAP_MANIFEST_MAX bytes (EBADMSG,
 * class MALFORMED, naming the file and the line).
 */
int cap_manifest_load(const char *path, struct cap_manifest *m, struct sdsi_error *err);
void cap_manifest_free(struct cap_manifest *m);

/* The entry of that file name, or NULL. */
struct manifest_entry *cap_manifest_find(const struct cap_manifest *m, const char *name);

#endif /* SDSI_TOOLS_INTEL_SDSI_CAP_MANIFEST_H */
