// SPDX-License-Identifier: GPL-2.0-only
/* Exit status: the mapping from libsdsi's error classes, and its documentation. */
#include <string.h>

#include "commands.h"
#include "exit_codes.h"

const struct exit_code_doc exit_code_docs[] = {
	{ EXIT_OK, "success (for --all: every device succeeded; for -a or -c, also a blob already provisioned, left unchanged)" },
	{ EXIT_INTERNAL, "internal error, such as running out of memory" },
	{ EXIT_USAGE, "usage error: bad options, a bad DEVNO, an unreadable input file" },
	{ EXIT_NO_DEVICE, "no such device, or the attribute is absent (feature disabled, driver unbound)" },
	{ EXIT_PERMISSION, "permission denied (EACCES), or provisioning locked by the BIOS (EPERM)" },
	{ EXIT_REFUSED, "refused: a pre-flight check failed, or On Demand or metering is not enabled" },
	{ EXIT_REJECTED, "the device rejected the AKC or CAP (EIO from the provision write)" },
	{ EXIT_IO, "I/O, mailbox or protocol error (EBUSY, ETIMEDOUT, EIO, EPROTO, ...)" },
	{ EXIT_MALFORMED, "malformed input: registers or a certificate that does not decode" },
};

const unsigned int exit_code_doc_count = sizeof(exit_code_docs) / sizeof(exit_code_docs[0]);

enum tool_exit exit_for_error(const struct sdsi_error *err)
{
	switch (err->cls) {
	case SDSI_ERR_NONE:
		return EXIT_OK;
	case SDSI_ERR_USAGE:
		return EXIT_USAGE;
	case SDSI_ERR_NO_DEVICE:
		return EXIT_NO_DEVICE;
	case SDSI_ERR_PERMISSION:
		return EXIT_PERMISSION;
	case SDSI_ERR_REFUSED:
		return EXIT_REFUSED;
	case SDSI_ERR_REJECTED:
		return EXIT_REJECTED;
	case SDSI_ERR_IO:
		return EXIT_IO;
	case SDSI_ERR_MALFORMED:
		return EXIT_MALFORMED;
	case SDSI_ERR_INTERNAL:
		break;
	}
	return EXIT_INTERNAL;
}

enum tool_exit report_error(struct output *out, const char *device, const struct sdsi_error *err)
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
