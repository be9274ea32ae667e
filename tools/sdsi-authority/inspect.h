/* SPDX-License-Identifier: GPL-2.0-only */
/* What `sdsi-authority inspect` found, and its two printers (text, JSON). */
#ifndef SDSI_TOOLS_AUTHORITY_INSPECT_H
#define SDSI_TOOLS_AUTHORITY_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "licensing/sdsi_lic.h"

struct inspect_report {
	const char *file;
	size_t size;
	enum sdsi_payload_kind kind;
	bool decoded;
	struct sdsi_lic_akc akc;			/* when decoded as an AKC */
	struct sdsi_lic_cap cap;			/* when decoded as a CAP */
	struct sdsi_lic_error decode_err;	/* when not decoded */
	bool verified;				/* a signature check ran */
	bool valid;				/* ... and passed */
	char key_path[4096];
	struct sdsi_lic_error verify_err;	/* when verified but not valid */
	char failure[512];			/* file or key unusable (exit 2, 7 or 8) */
	int failure_errno;			/* ... and its errno */
};

void inspect_print_text(const struct inspect_report *rep);
void inspect_print_json(const struct inspect_report *rep);
/* A usage error as an error document (error.json); the text still goes to stderr. */
void inspect_print_usage_json(const char *message);

#endif /* SDSI_TOOLS_AUTHORITY_INSPECT_H */
