/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The blobs of a fleet provisioning run (intel_sdsi --all -a FILE, --all -c
 * DIR|FILE) and which socket each is for: an AKC is for every socket; a CAP
 * names the one CPU it is bound to by the PPIN of its licence blob
 * (docs/formats.md section 3), or, when it does not read as one, by the
 * line of DIR/MANIFEST that names it (cap_manifest.h).
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_CAP_MATCH_H
#define SDSI_TOOLS_INTEL_SDSI_CAP_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap_manifest.h"
#include "sdsi/libsdsi.h"

struct blob_file {
	char *path;			/* DIR/NAME, or the FILE given */
	uint8_t *bytes;			/* the whole file; NULL when unusable */
	size_t len;
	struct sdsi_blob_info info;	/* decoded when usable */
	bool usable;			/* else err says why it is not */
	uint64_t ppin;			/* a usable CAP's socket: its own, or the manifest's */
	bool by_manifest;		/* a CAP that does not read: the manifest names its PPIN */
	bool unread;			/* -c: no licence blob type at byte 0, so not read */
	struct sdsi_error *err;
};

struct blob_set {
	enum sdsi_blob_kind kind;
	const char *source;		/* the argument of -a or -c */
	bool is_dir;
	struct blob_file *files;	/* by file name, strcmp order */
	size_t count;
	bool has_manifest;		/* DIR/MANIFEST was read (not one of files) */
	struct cap_manifest manifest;
};

/*
 * Load the blobs of a source.  A directory: every entry but . and .. and
 * MANIFEST, in file name order, each kept, usable or not, with the reason
 * (unreadable, not a regular file, too large, malformed, not a licence blob
 * and not in the manifest, a PPIN other than the manifest's, an AKC where
 * CAPs are expected).  A file: that one blob, which, as for -d, must be
 * readable (else -errno with err of class USAGE and nothing loaded); an AKC
 * may be foreign (only the generic checks apply to it, as with -d).  A
 * directory that cannot be opened, a manifest that cannot be read or names
 * a file the directory lacks, or running out of memory, is -errno.
 */
int blob_set_load(const char *source, enum sdsi_blob_kind kind, struct blob_set *set,
		  struct sdsi_error *err);
void blob_set_free(struct blob_set *set);

/* Whether file i of the set is for the socket of that PPIN. */
bool blob_set_matches(const struct blob_set *set, size_t i, uint64_t ppin);

/* The NAME of DIR/NAME, or the path of a single file. */
const char *blob_file_name(const struct blob_set *set, const struct blob_file *f);

#endif /* SDSI_TOOLS_INTEL_SDSI_CAP_MATCH_H */
