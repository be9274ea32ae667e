/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exit status of intel_sdsi: one value per class of failure, the same in text
 * and JSON mode.  docs/intel_sdsi.md and the man page list them; the values
 * are a contract for scripts, never renumber them.
 */
#ifndef INTEL_SDSI_EXIT_CODES_H
#define INTEL_SDSI_EXIT_CODES_H

#include "sdsi/libsdsi.h"

enum tool_exit {
	EXIT_OK = 0,
	EXIT_INTERNAL = 1,	/* out of memory, output failure */
	EXIT_USAGE = 2,		/* bad options or arguments */
	EXIT_NO_DEVICE = 3,	/* no such device, or attribute absent */
	EXIT_PERMISSION = 4,	/* EACCES, or EPERM from the in-band lock */
	EXIT_REFUSED = 5,	/* pre-flight refusal, feature not enabled */
	EXIT_REJECTED = 6,	/* the device rejected the blob */
	EXIT_IO = 7,		/* I/O, mailbox or protocol error */
	EXIT_MALFORMED = 8,	/* input that does not decode */
};

struct exit_code_doc {
	enum tool_exit code;
	const char *meaning;
};

extern const struct exit_code_doc exit_code_docs[];
extern const unsigned int exit_code_doc_count;

enum tool_exit exit_for_error(const struct sdsi_error *err);

#endif /* INTEL_SDSI_EXIT_CODES_H */
