// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Error reporting: errno names, what each errno means in the On Demand sysfs
 * ABI (docs/interface.md §9.2), and the class the tool maps to an exit status.
 */
#define _GNU_SOURCE	/* strerrorname_np, glibc 2.32 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sdsi/errno_class.h"
#include "sdsi_internal.h"
#include "util/util_array.h"

struct errno_entry {
	int errnum;
	const char *read_meaning;
	const char *write_meaning;
};

static const struct errno_entry errno_table[] = {
	{ EIO, "general mailbox failure (firmware status)",
	  "the device rejected the blob (authentication failed or firmware error)" },
	{ EBUSY, "the mailbox is owned by another agent (out-of-band, e.g. the BMC)",
	  "the mailbox is owned by another agent (out-of-band, e.g. the BMC)" },
	{ EPERM, "On Demand is not enabled in hardware",
	  "provisioning is locked by the BIOS (in-band lock) or On Demand is not enabled" },
	{ EPROTO, "mailbox protocol failure", "mailbox protocol failure" },
	{ EOVERFLOW, "value too large", "the blob is larger than 1016 bytes" },
	{ ESPIPE, "seek not allowed: the attribute is read at offset 0 only",
	  "seek not allowed: the blob must be written at offset 0" },
	{ ETIMEDOUT, "the mailbox transaction timed out",
	  "the mailbox transaction timed out" },
	{ EINTR, "interrupted while waiting for the mailbox",
	  "interrupted while waiting for the mailbox" },
	{ ENOMEM, "out of memory", "out of memory" },
	{ ENODEV, "no such device, or the driver was unbound",
	  "no such device, or the driver was unbound" },
	{ ENOENT, "no such file (the driver hides attributes of disabled features)",
	  "no such file (the driver hides attributes of disabled features)" },
	{ EACCES, "permission denied (the attribute's mode forbids it; run as root)",
	  "permission denied (the attribute's mode forbids it; run as root)" },
	{ EINVAL, "invalid argument", "invalid argument" },
	{ EFBIG, "file larger than the format allows", "file larger than the format allows" },
	{ EBADMSG, "malformed data", "malformed data" },
	{ ENOTSUP, "unsupported layout", "unsupported layout" },
	{ EDQUOT, "a limit of the device has been reached",
	  "a limit of the device has been reached" },
	{ ENOKEY, "no license key (AKC) provisioned", "no license key (AKC) provisioned" },
	{ ENODATA, "no data", "no data" },
	{ EXDEV, "bound to another CPU", "the CAP is bound to another CPU's PPIN" },
	{ ESTALE, "older than what is provisioned",
	  "older than what is provisioned (a rollback or a replay)" },
	{ ENOTDIR, "not a directory", "not a directory" },
	{ EISDIR, "is a directory", "is a directory" },
	{ ENAMETOOLONG, "path too long", "path too long" },
};

static const struct errno_entry *find_errno(int errnum)
{
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(errno_table); i++)
		if (errno_table[i].errnum == errnum)
			return &errno_table[i];
	return NULL;
}

/*
 * The names are glibc's (strerrorname_np), so every errno the kernel or the
 * C library can answer has its name.  A number glibc does not name gets
 * "E" and its decimal value ("E4242"): still an E-name as the JSON schema
 * and the Prometheus reason label expect, and one that says the number.
 */
const char *sdsi_errno_name(int errnum)
{
	static _Thread_local char unnamed[sizeof("E2147483648")];
	/* -EIO is EIO: a caller's sign never makes a name the schema refuses. */
	unsigned int value = errnum < 0 ? 0u - (unsigned int)errnum : (unsigned int)errnum;
	/* glibc names 0 "0"; it is no error, and gets the form of one without a name. */
	const char *name = value && value <= INT_MAX ? strerrorname_np((int)value) : NULL;

	if (name)
		return name;
	snprintf(unnamed, sizeof(unnamed), "E%u", value);
	return unnamed;
}

const char *sdsi_errno_meaning(int errnum, bool provisioning)
{
	const struct errno_entry *e = find_errno(errnum);

	if (!e)
		return strerror(errnum);
	return provisioning ? e->write_meaning : e->read_meaning;
}

enum sdsi_error_class sdsi_errno_class(int errnum, bool provisioning)
{
	enum sdsi_errno_context context = provisioning ? SDSI_ERRNO_WRITE : SDSI_ERRNO_READ;

#define CLASS_ROW(e, read, write, program, input) \
	SDSI_ERRNO_CLASS_ROW(SDSI_ERR_, context, e, read, write, program, input)
#define CLASS_OTHER(e, read, write, program, input) \
	return sdsi_errno_context_pick(context, SDSI_ERR_##read, SDSI_ERR_##write, \
				       SDSI_ERR_##program, SDSI_ERR_##input);
	switch (errnum) {
	SDSI_ERRNO_CLASS_TABLE(CLASS_ROW)
	}
	SDSI_ERRNO_CLASS_OTHER(CLASS_OTHER)
#undef CLASS_ROW
#undef CLASS_OTHER
}

void sdsi_clear_error(struct sdsi_error *err)
{
	if (!err)
		return;
	err->errnum = 0;
	err->cls = SDSI_ERR_NONE;
	err->offset = -1;
	err->message[0] = '\0';
}

int sdsi_fail(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
	      long offset, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->errnum = errnum;
		err->cls = cls;
		err->offset = offset;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -errnum;
}
