/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands of intel_sdsi; each returns its exit status. */
#ifndef SDSI_TOOLS_INTEL_SDSI_COMMANDS_H
#define SDSI_TOOLS_INTEL_SDSI_COMMANDS_H

#include "exit_codes.h"
#include "tool_options.h"
#include "output.h"
#include "tool_error.h"

enum sdsi_exit cmd_list(const struct cli *cli, struct output *out);
/* -i, -s, -m, -C on one device, every device (--all) or a saved file (--file). */
enum sdsi_exit cmd_read(const struct cli *cli, struct output *out);
/* -a, -c, with or without --dry-run. */
enum sdsi_exit cmd_provision(const struct cli *cli, struct output *out);

/* --all -a FILE, --all -c DIR|FILE: every socket at once, CAPs matched by PPIN. */
enum sdsi_exit cmd_fleet_provision(const struct cli *cli, struct output *out);

/*
 * --attest get_digests, get_certificate (-d) and verify (-d or --all): the
 * part's attestation service through libsdsi; a part that fails attestation
 * exits SDSI_EXIT_NOT_ATTESTED, one where attestation cannot run exits with
 * its error's class.
 */
enum sdsi_exit cmd_attest(const struct cli *cli, struct output *out);

/* Between attempts on a busy mailbox (--retry): the driver's own acquire period. */
#define BUSY_RETRY_DELAY_MS 500

/*
 * Read and decode the state certificate into buf and state when the
 * comparisons of the pre-flight checks need it (an sdsi-format blob, a socket
 * with an AKC), retrying a busy mailbox as the write does (--retry: up to
 * retries more attempts).  False when not needed, or, with why->errnum set,
 * unreadable.  Prints nothing.  Free state with sdsi_state_cert_free().
 */
bool provision_read_state(const struct sdsi_device *dev, const struct sdsi_registers *regs,
			  const uint8_t *blob, size_t blob_len, unsigned int retries,
			  uint8_t *buf, struct sdsi_state_cert *state, struct sdsi_error *why);

/*
 * A pre-flight refusal of class STATE_UNKNOWN: put why the state certificate
 * could not be read (its errno, EBUSY for a mailbox held by the BMC, and its
 * message) into err, and what the operator can do.
 */
void explain_state_unknown(struct sdsi_error *err, const struct sdsi_error *why,
			   enum sdsi_blob_kind kind, unsigned int retries);

/* The pre-flight's flags: strict always (issue 19), --force as asked. */
static inline unsigned int provision_flags(const struct cli *cli)
{
	return SDSI_PREFLIGHT_STRICT | (cli->force ? SDSI_PREFLIGHT_FORCE : 0);
}

/*
 * --force over "already provisioned", said before the write: a CAP the
 * socket holds is a replay the silicon refuses and counts as a CAP failure;
 * an AKC again spends an update.
 */
void warn_forced_replay(const struct output *out, const char *device, enum sdsi_blob_kind kind,
			const char *path, const struct sdsi_blob_info *info,
			const struct sdsi_registers *regs);

/* A foreign blob refused as implausible: name its file in err. */
void name_implausible_file(struct sdsi_error *err, const struct sdsi_preflight *pf,
			   const char *path);

/* Report err through the output and return its exit status. */
enum sdsi_exit report_error(struct output *out, const char *device, const struct sdsi_error *err);

#endif /* SDSI_TOOLS_INTEL_SDSI_COMMANDS_H */
