/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exit status of intel_sdsi: the table shared by the sdsi programs
 * (include/sdsi/exit_status.h, docs/exit-codes.md), the same in text and
 * JSON mode, and the mapping from libsdsi's error classes to it.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_EXIT_CODES_H
#define SDSI_TOOLS_INTEL_SDSI_EXIT_CODES_H

#include "sdsi/exit_status.h"
#include "sdsi/libsdsi.h"

struct exit_code_doc {
	enum sdsi_exit code;
	const char *meaning;
};

/* SDSI_EXIT_STATUS_TABLE, for --help and the man page. */
extern const struct exit_code_doc exit_code_docs[];
extern const unsigned int exit_code_doc_count;

enum sdsi_exit exit_for_error(const struct sdsi_error *err);

#endif /* SDSI_TOOLS_INTEL_SDSI_EXIT_CODES_H */
