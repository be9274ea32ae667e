/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What an errno means, as one of the error classes every sdsi program exits
 * by (enum sdsi_error_class in libsdsi.h, enum sdsi_exit in exit_status.h;
 * docs/exit-codes.md).  One errno can mean different things depending on
 * who met it, so the context is a column of the one table, not a second
 * table:
 *   read     libsdsi reading a device attribute (EIO: the mailbox failed)
 *   write    libsdsi writing provision_akc or provision_cap (EIO: the
 *            silicon rejected the blob; EOVERFLOW: the blob was refused)
 *   program  sdsi-emu, sdsi-shmem and sdsi-authority on their own files and
 *            arguments (EINVAL: a bad argument; EPROTO: a corrupt NVRAM file)
 *   input    a file the user named as input (a key, a saved certificate):
 *            whatever keeps it from being opened is a usage error
 * Not installed: libsdsi and the programs share it, callers never see it.
 */
#ifndef SDSI_ERRNO_CLASS_H
#define SDSI_ERRNO_CLASS_H

#include <errno.h>

enum sdsi_errno_context {
	SDSI_ERRNO_READ,
	SDSI_ERRNO_WRITE,
	SDSI_ERRNO_PROGRAM,
	SDSI_ERRNO_INPUT,
};

/*
 * X(errno, read, write, program, input): the class, by its name without the
 * SDSI_ERR_ prefix, in each context.  An errno not listed is the
 * SDSI_ERRNO_CLASS_OTHER row.
 */
#define SDSI_ERRNO_CLASS_TABLE(X) \
	X(ENOMEM,	INTERNAL,	INTERNAL,	INTERNAL,	INTERNAL) \
	X(ENOENT,	NO_DEVICE,	NO_DEVICE,	USAGE,		USAGE) \
	X(ENOTDIR,	NO_DEVICE,	NO_DEVICE,	USAGE,		USAGE) \
	X(ENODEV,	NO_DEVICE,	NO_DEVICE,	NO_DEVICE,	USAGE) \
	X(EACCES,	PERMISSION,	PERMISSION,	PERMISSION,	USAGE) \
	X(EPERM,	PERMISSION,	PERMISSION,	PERMISSION,	USAGE) \
	X(EIO,		IO,		REJECTED,	IO,		IO) \
	X(EOVERFLOW,	IO,		REFUSED,	IO,		USAGE) \
	X(EINVAL,	IO,		IO,		USAGE,		USAGE) \
	X(E2BIG,	IO,		IO,		USAGE,		USAGE) \
	X(EISDIR,	IO,		IO,		USAGE,		USAGE) \
	X(ENAMETOOLONG,	IO,		IO,		USAGE,		USAGE) \
	X(ELOOP,	IO,		IO,		USAGE,		USAGE) \
	X(ENXIO,	IO,		IO,		USAGE,		USAGE) \
	X(EEXIST,	IO,		IO,		REFUSED,	USAGE) \
	X(EADDRINUSE,	IO,		IO,		REFUSED,	USAGE) \
	X(EBADMSG,	IO,		IO,		MALFORMED,	MALFORMED) \
	X(EPROTO,	IO,		IO,		MALFORMED,	MALFORMED) \
	X(EPROTONOSUPPORT, IO,		IO,		MALFORMED,	MALFORMED) \
	X(EFBIG,	IO,		IO,		MALFORMED,	MALFORMED)

#define SDSI_ERRNO_CLASS_OTHER(X) X(, IO, IO, IO, USAGE)

/*
 * X(class, exit status): the exit status of each class, both by their names
 * without the SDSI_ERR_ and SDSI_EXIT_ prefixes.  A class the program
 * does not know exits as INTERNAL.
 */
#define SDSI_ERROR_CLASS_EXIT_TABLE(X) \
	X(NONE,		OK) \
	X(USAGE,	USAGE) \
	X(NO_DEVICE,	NO_DEVICE) \
	X(PERMISSION,	PERMISSION) \
	X(REFUSED,	REFUSED) \
	X(REJECTED,	REJECTED) \
	X(IO,		IO) \
	X(MALFORMED,	MALFORMED) \
	X(INTERNAL,	INTERNAL) \
	X(STATE_UNKNOWN, STATE_UNKNOWN)

/* The one of four values that stands for context: how a row is read. */
static inline int sdsi_errno_context_pick(enum sdsi_errno_context context, int read,
					  int write, int program, int input)
{
	switch (context) {
	case SDSI_ERRNO_READ:
		return read;
	case SDSI_ERRNO_WRITE:
		return write;
	case SDSI_ERRNO_PROGRAM:
		return program;
	case SDSI_ERRNO_INPUT:
		break;
	}
	return input;
}

/*
 * SDSI_ERRNO_CLASS_ROW(PREFIX, context, errnum, read, write, program, input):
 * one table row as a case of a switch on the errno, returning PREFIX##CLASS:
 * PREFIX is SDSI_ERR_ for libsdsi's classes, SDSI_EXIT_ for the exit
 * statuses, which SDSI_ERROR_CLASS_EXIT_TABLE names after their classes.
 */
#define SDSI_ERRNO_CLASS_ROW(PREFIX, context, errnum, read, write, program, input) \
	case errnum: \
		return sdsi_errno_context_pick(context, PREFIX##read, PREFIX##write, \
					       PREFIX##program, PREFIX##input);

#endif /* SDSI_ERRNO_CLASS_H */
