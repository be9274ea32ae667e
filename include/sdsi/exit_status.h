/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exit status of the sdsi programs: intel_sdsi, sdsi-authority and
 * sdsi-emu give the same failure the same code.  docs/exit-codes.md documents
 * this table and which program uses which code; intel_sdsi's --help and man
 * page print it from here.  The values are a contract for scripts: never
 * renumber them.  Not installed: a header of the programs, not of libsdsi.
 */
#ifndef SDSI_EXIT_STATUS_H
#define SDSI_EXIT_STATUS_H

#include "sdsi/errno_class.h"

enum sdsi_exit {
	SDSI_EXIT_OK = 0,
	SDSI_EXIT_INTERNAL = 1,		/* out of memory, output failure */
	SDSI_EXIT_USAGE = 2,		/* bad arguments, an input file that cannot be used */
	SDSI_EXIT_NO_DEVICE = 3,	/* no such device or attribute, no emulator */
	SDSI_EXIT_PERMISSION = 4,	/* EACCES, EPERM */
	SDSI_EXIT_REFUSED = 5,		/* a check refused to go on */
	SDSI_EXIT_REJECTED = 6,		/* an AKC or CAP rejected, a bad signature */
	SDSI_EXIT_IO = 7,		/* I/O, mailbox, protocol, system failures */
	SDSI_EXIT_MALFORMED = 8,	/* input that does not decode */
	SDSI_EXIT_STATE_UNKNOWN = 9,	/* what a socket holds is unknown: nothing written */
	SDSI_EXIT_NOT_ATTESTED = 10,	/* the part failed attestation (intel_sdsi --attest verify) */
};

/*
 * X(code, meaning) for every code, in order: the one wording of the table,
 * shared by every generated document.
 */
#define SDSI_EXIT_STATUS_TABLE(X) \
	X(SDSI_EXIT_OK, "success (intel_sdsi -a or -c: also a blob already provisioned, left unchanged)") \
	X(SDSI_EXIT_INTERNAL, "internal error: out of memory, standard output cannot be written") \
	X(SDSI_EXIT_USAGE, "usage error: bad options or arguments, or an input file that is missing, unreadable or not a regular file (a directory, FIFO or device)") \
	X(SDSI_EXIT_NO_DEVICE, "no such device, or the attribute is absent (feature disabled, driver unbound); sdsi-emu ctl: no emulator at the control socket") \
	X(SDSI_EXIT_PERMISSION, "permission denied (EACCES), or provisioning locked by the BIOS (EPERM)") \
	X(SDSI_EXIT_REFUSED, "refused: a pre-flight or safety check failed (On Demand or metering not enabled, keys that already exist)") \
	X(SDSI_EXIT_REJECTED, "rejected: the device rejected the AKC or CAP (EIO from the provision write), or its signature does not verify") \
	X(SDSI_EXIT_IO, "I/O, mailbox or protocol error (EBUSY, ETIMEDOUT, EIO, EPROTO, ...), a file that cannot be written, a mount that fails") \
	X(SDSI_EXIT_MALFORMED, "malformed input: registers, a certificate, an AKC, CAP, key or NVRAM file that does not decode, or is too large for its format") \
	X(SDSI_EXIT_STATE_UNKNOWN, "state unknown (intel_sdsi -a or -c): the state certificate that tells whether the blob is already provisioned could not be read, even with --retry, so nothing was written") \
	X(SDSI_EXIT_NOT_ATTESTED, "not attested (intel_sdsi --attest verify): the attestation ran and the part failed it, a signature, the certificate chain, its trust anchor or a measurement wrong; attestation that could not run (no transport, busy, permission) has the codes above")

/*
 * The exit status for a failure reported as an errno (either sign; 0 is
 * success), by the class the errno has in context (errno_class.h).
 */
static inline enum sdsi_exit sdsi_exit_for_errno_in(int errnum, enum sdsi_errno_context context)
{
	if (errnum < 0)
		errnum = -errnum;
	if (errnum == 0)
		return SDSI_EXIT_OK;
#define EXIT_ROW(e, read, write, program, input) \
	SDSI_ERRNO_CLASS_ROW(SDSI_EXIT_, context, e, read, write, program, input)
#define EXIT_OTHER(e, read, write, program, input) \
	return (enum sdsi_exit)sdsi_errno_context_pick(context, SDSI_EXIT_##read, \
						       SDSI_EXIT_##write, SDSI_EXIT_##program, \
						       SDSI_EXIT_##input);
	switch (errnum) {
	SDSI_ERRNO_CLASS_TABLE(EXIT_ROW)
	}
	SDSI_ERRNO_CLASS_OTHER(EXIT_OTHER)
#undef EXIT_ROW
#undef EXIT_OTHER
}

/*
 * A program that reads files and runs the model (sdsi-authority, sdsi-emu,
 * sdsi-shmem).  intel_sdsi maps libsdsi's error classes instead
 * (tools/intel_sdsi/exit_codes.c), where EPROTO is a mailbox failure; here it is what
 * the NVRAM loader says of a corrupt file.
 */
static inline enum sdsi_exit sdsi_exit_for_errno(int errnum)
{
	return sdsi_exit_for_errno_in(errnum, SDSI_ERRNO_PROGRAM);
}

/*
 * An input file the user named (a saved certificate, an AKC or CAP, a key
 * file) that cannot be used: whatever keeps it from being opened is a usage
 * error, EACCES included; contents that do not decode, or too many of them,
 * are malformed input.
 */
static inline enum sdsi_exit sdsi_exit_for_input_errno(int errnum)
{
	return sdsi_exit_for_errno_in(errnum, SDSI_ERRNO_INPUT);
}

#endif /* SDSI_EXIT_STATUS_H */
