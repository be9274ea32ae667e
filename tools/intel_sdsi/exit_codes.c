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
#define CLASS_EXIT(cls, status) \
	case SDSI_ERR_##cls: \
		return SDSI_EXIT_##status;
	switch (err->cls) {
	SDSI_ERROR_CLASS_EXIT_TABLE(CLASS_EXIT)
	}
#undef CLASS_EXIT
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
