// SPDX-License-Identifier: GPL-2.0-only
/* Exit status: the mapping from libsdsi's error classes, and its documentation. */
#include "commands.h"
#include "exit_codes.h"
#include "util/util_array.h"

#define EXIT_CODE_DOC(code, meaning) { code, meaning },
const struct exit_code_doc exit_code_docs[] = { SDSI_EXIT_STATUS_TABLE(EXIT_CODE_DOC) };
#undef EXIT_CODE_DOC

const unsigned int exit_code_doc_count = UTIL_ARRAY_SIZE(exit_code_docs);

enum sdsi_exit exit_for_error(const struct sdsi_error *err)
{
#define CLASS_EXIT(cls, status) \
	case SDSI_ERR_##cls: \
		return SDSI_EXIT_##status;
	switch (sdsi_error_class(err)) {
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
