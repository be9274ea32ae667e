// SPDX-License-Identifier: GPL-2.0-only
/* Exit status: the mapping from libsdsi's error classes, and its documentation. */
#include <string.h>

#include "commands.h"
#include "exit_codes.h"

#define EXIT_CODE_DOC(code, meaning) { code, meaning },
const struct exit_code_doc exit_code_docs[] = { SDSI_EXIT_STATUS_TABLE(EXIT_CODE_DOC) };
#undef EXIT_CODE_DOC

const unsigned int exit_code_doc_count = sizeof(exit_code_docs) / sizeof(exit_code_docs[0]);

enum sdsi_exit exit_for_error(const struct sdsi_error *err)
{
	switch (err->cls) {
	case SDSI_ERR_NONE:
		return SDSI_EXIT_OK;
	case SDSI_ERR_USAGE:
		return SDSI_EXIT_USAGE;
	case SDSI_ERR_NO_DEVICE:
		return SDSI_EXIT_NO_DEVICE;
	case SDSI_ERR_PERMISSION:
		return SDSI_EXIT_PERMISSION;
	case SDSI_ERR_REFUSED:
		return SDSI_EXIT_REFUSED;
	case SDSI_ERR_REJECTED:
		return SDSI_EXIT_REJECTED;
	case SDSI_ERR_IO:
		return SDSI_EXIT_IO;
	case SDSI_ERR_MALFORMED:
		return SDSI_EXIT_MALFORMED;
	case SDSI_ERR_STATE_UNKNOWN:
		return SDSI_EXIT_STATE_UNKNOWN;
	case SDSI_ERR_INTERNAL:
		break;
	}
	return SDSI_EXIT_INTERNAL;
}

enum sdsi_exit report_error(struct output *out, const char *device, const struct sdsi_error *err)
{
	out->ops->error(out, device, err);
	return exit_for_error(err);
}

void prefix_error(struct sdsi_error *err, const char *prefix)
{
	const size_t cap = sizeof(err->message);
	size_t plen = strlen(prefix) + 2, mlen = strlen(err->message);

	if (plen >= cap)
		return;
	if (plen + mlen >= cap)
		mlen = cap - plen - 1;
	memmove(err->message + plen, err->message, mlen);
	err->message[plen + mlen] = '\0';
	memcpy(err->message, prefix, plen - 2);
	memcpy(err->message + plen - 2, ": ", 2);
}
