// SPDX-License-Identifier: GPL-2.0-only
/*
 * -a FILE / -c FILE: pre-flight checks, then one write of the blob.  A
 * socket allows only a few failed attempts per power cycle, so everything
 * that can be known beforehand is checked before the provision file is
 * opened; --dry-run stops right there, and a blob the state certificate
 * shows is already provisioned is not written again unless --force.  When
 * that certificate cannot be read (after --retry), nothing is written
 * either (exit 9): the write could be a replay the silicon counts.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "device_registers.h"
#include "sysfs_root.h"

static enum sdsi_exit load_blob(const struct cli *cli, struct output *out,
				enum sdsi_blob_kind kind, uint8_t *buf, size_t *len)
{
	util_scoped_error err = tool_error_new();

	if (sdsi_read_file(cli->blob_path, buf, SDSI_READ_BUF_SIZE, len, err) == 0)
		return SDSI_EXIT_OK;
	if (sdsi_error_errno(err) == EFBIG) {
		/* Too large for its format: malformed input (exit 8), as for sdsi-authority. */
		sdsi_error_set(err, EOVERFLOW, SDSI_ERR_MALFORMED, sdsi_error_offset(err),
			       "the %s file %s, the mailbox takes at most %u bytes",
			       sdsi_blob_name(kind), sdsi_error_message(err), SDSI_BLOB_MAX);
	} else if (sdsi_error_class(err) != SDSI_ERR_INTERNAL) {
		/* The operator named a file that cannot be read: a usage error. */
		sdsi_error_set(err, sdsi_error_errno(err), SDSI_ERR_USAGE, sdsi_error_offset(err),
			       "%s", sdsi_error_message(err));
	}
	return report_error(out, NULL, err);
}

/*
 * The state certificate tells what the socket already holds.  It is read only
 * for a blob of the project's format on a socket with an AKC; without it the
 * tool cannot tell whether the blob needs writing, and writes nothing
 * (sdsi_preflight_blob()), so a busy mailbox is waited for as for the write.
 * Prints nothing (fleet provisioning calls it from a thread): false with
 * why's errno set when it could not be read, 0 when it was not needed.
 */
bool provision_read_state(const struct sdsi_device *dev, const struct sdsi_registers *regs,
			  const uint8_t *blob, size_t blob_len, unsigned int retries,
			  uint8_t *buf, struct sdsi_state_cert *state, struct sdsi_error *why)
{
	const struct timespec delay = { .tv_sec = BUSY_RETRY_DELAY_MS / 1000,
					.tv_nsec = BUSY_RETRY_DELAY_MS % 1000 * 1000000L };
	struct sdsi_blob_info info;
	size_t len;
	int ret;

	sdsi_error_set(why, 0, SDSI_ERR_NONE, -1, "%s", "");
	if (!regs->on_demand || !regs->akc_provisioned || blob_len > SDSI_BLOB_MAX ||
	    sdsi_decode_blob(blob, blob_len, &info, NULL) ||
	    info.format == SDSI_BLOB_FORMAT_FOREIGN)
		return false;
	for (unsigned int attempt = 0;; attempt++) {
		ret = sdsi_read_attr(dev, SDSI_ATTR_STATE_CERT, buf, &len, why);
		if (ret == 0 || sdsi_error_errno(why) != EBUSY || attempt == retries)
			break;
		nanosleep(&delay, NULL);
	}
	return ret == 0 && sdsi_decode_state_cert(buf, len, state, why) == 0;
}

void explain_state_unknown(struct sdsi_error *err, const struct sdsi_error *why,
			   enum sdsi_blob_kind kind, unsigned int retries)
{
	char reason[512];
	int errnum = sdsi_error_errno(err);

	if (sdsi_error_errno(why)) {
		errnum = sdsi_error_errno(why);
		snprintf(reason, sizeof(reason), "%.480s%s", sdsi_error_message(why),
			 sdsi_error_errno(why) == EBUSY && !retries ? " (no --retry)" : "");
	} else {
		snprintf(reason, sizeof(reason), "%s", "the state certificate holds no licence key although the registers say an AKC is provisioned");
	}
	sdsi_error_set(err, errnum, sdsi_error_class(err), sdsi_error_offset(err),
		 "%.300s: whether this %s is already provisioned is unknown, so nothing is written: try again later or with --retry N (--force sends it anyway)",
		 reason, sdsi_blob_name(kind));
}

void name_implausible_file(struct sdsi_error *err, const struct sdsi_preflight *pf,
			   const char *path)
{
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++) {
		const char *name = sdsi_preflight_check_name(pf, i);

		if (sdsi_preflight_check_status(pf, i) != SDSI_CHECK_FAIL)
			continue;
		if (!strcmp(name, "size") && (sdsi_error_errno(err) == ENODATA ||
					      sdsi_error_errno(err) == EOVERFLOW)) {
			/*
			 * Empty or over 1016 bytes: too large or small for any
			 * AKC or CAP, malformed input (exit 8) as sdsi-authority
			 * inspect says of the same file.
			 */
			sdsi_error_set(err, sdsi_error_errno(err), SDSI_ERR_MALFORMED,
				       sdsi_error_offset(err), "%s", sdsi_error_message(err));
			sdsi_error_prefix(err, path);
			return;
		}
		if (sdsi_preflight_blob_info(pf)->format == SDSI_BLOB_FORMAT_FOREIGN &&
		    !strcmp(name, "format")) {
			sdsi_error_prefix(err, path);
			return;
		}
	}
}

static void note_checks(const struct output *out, const struct sdsi_preflight *pf)
{
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++)
		out_note(out, "check %s: %s: %s", sdsi_preflight_check_name(pf, i),
			 sdsi_check_status_name(sdsi_preflight_check_status(pf, i)),
			 sdsi_preflight_check_detail(pf, i));
}

/*
 * EPERM from the provision write has two causes (docs/interface.md §4.4,
 * §2.4): On Demand disabled, or the BIOS's in-band lock (IBLOCK, a bit of
 * the control register, which the registers file does not show).  The
 * registers read before the write tell them apart, so the message names the
 * one it is.
 */
static void name_eperm_cause(enum sdsi_blob_kind kind, const struct sdsi_registers *regs,
			     struct sdsi_error *err)
{
	/* Without On Demand the pre-flight refuses before any write. */
	if (regs->on_demand)
		sdsi_error_set(err, sdsi_error_errno(err), sdsi_error_class(err),
			       sdsi_error_offset(err), "%s refused (EPERM): the BIOS has set the in-band lock (IBLOCK), since "
			 "the registers show On Demand enabled: unlock in-band provisioning in the "
			 "BIOS setup, or provision out of band (through the BMC)",
			 sdsi_blob_name(kind));
}

void warn_forced_replay(const struct output *out, const char *device, enum sdsi_blob_kind kind,
			const char *path, const struct sdsi_blob_info *info,
			const struct sdsi_registers *regs)
{
	if (kind == SDSI_BLOB_CAP)
		out_warn(out, "%s: warning: --force writes %s although the socket already holds licence 0x%016" PRIx64 " at revision %u or higher: the silicon refuses such a replay and counts it as a CAP failure (%u of %u so far)",
			 device, path, info->id, info->revision, regs->cap_fail_count,
			 regs->cap_fail_threshold);
	else
		out_warn(out, "%s: warning: --force writes %s although that AKC is already provisioned: it spends one of the %u update(s) left in this power cycle",
			 device, path, regs->updates_available);
}

enum sdsi_exit cmd_provision(const struct cli *cli, struct output *out)
{
	const enum sdsi_blob_kind kind = cli->command == CMD_AKC ? SDSI_BLOB_AKC : SDSI_BLOB_CAP;
	const struct sdsi_provision_options opts = {
		.busy_retries = cli->busy_retries,
		.busy_delay_ms = BUSY_RETRY_DELAY_MS,
	};
	uint8_t blob[SDSI_READ_BUF_SIZE];
	uint8_t state_buf[SDSI_READ_BUF_SIZE];
	char attr_path[SDSI_PATH_SIZE + 32];
	struct sdsi_state_cert state = { 0 };
	struct provision_report report;
	struct sdsi_registers regs;
	util_scoped_preflight pf = tool_preflight_new();
	util_scoped_device dev = NULL;
	util_scoped_error err = tool_error_new();
	util_scoped_error why = tool_error_new();
	size_t regs_len, blob_len;
	enum sdsi_exit status;
	bool have_state;
	int ret;

	char wanted[64];

	/* An error document names the blob and the device even before they open. */
	out->error_file = cli->blob_path;
	out->error_device = requested_device(cli->devno, wanted, sizeof(wanted));
	status = load_blob(cli, out, kind, blob, &blob_len);
	if (status != SDSI_EXIT_OK)
		return status;
	if (sdsi_device_open(cli->sysfs_root, cli->devno, &dev, err))
		return report_error(out, NULL, err);
	if (read_device_registers(dev, &regs, &regs_len, err))
		return report_error(out, sdsi_device_name(dev), err);
	out_note(out, "%s: GUID 0x%x, %zu-byte registers; %s is %zu bytes", sdsi_device_name(dev), sdsi_device_guid(dev),
		 regs_len, cli->blob_path, blob_len);

	have_state = provision_read_state(dev, &regs, blob, blob_len, cli->busy_retries,
					  state_buf, &state, why);
	if (!have_state && sdsi_error_errno(why) && cli->force)
		out_warn(out, "%s: %s; the comparison with what is provisioned is skipped (--force)",
			 sdsi_device_name(dev), sdsi_error_message(why));
	ret = sdsi_preflight_blob(&regs, have_state ? &state : NULL, kind, blob, blob_len,
				  provision_flags(cli), pf, err);
	if (ret && sdsi_error_class(err) == SDSI_ERR_STATE_UNKNOWN)
		explain_state_unknown(err, why, kind, cli->busy_retries);
	else if (ret)
		name_implausible_file(err, pf, cli->blob_path);
	sdsi_state_cert_free(&state);
	note_checks(out, pf);

	snprintf(attr_path, sizeof(attr_path), "%s/%s", sdsi_device_path(dev), sdsi_blob_file(kind));
	report = (struct provision_report){
		.device = sdsi_device_name(dev),
		.attr_path = attr_path,
		.blob_path = cli->blob_path,
		.kind = kind,
		.bytes = blob_len,
		.dry_run = cli->dry_run,
		.preflight = pf,
	};
	if (ret) {
		sdsi_error_prefix(err, sdsi_device_name(dev));
		out->ops->refused(out, &report, err);
		return exit_for_error(err);
	}
	out_note(out, "pre-flight checks passed: layout, size, On Demand, %u update(s) left, %s failures %u of %u%s",
		 regs.updates_available, sdsi_blob_name(kind),
		 kind == SDSI_BLOB_AKC ? regs.akc_fail_count : regs.cap_fail_count,
		 kind == SDSI_BLOB_AKC ? regs.akc_fail_threshold : regs.cap_fail_threshold,
		 kind == SDSI_BLOB_CAP ? ", AKC present" : "");
	if (sdsi_preflight_blob_info(pf)->format == SDSI_BLOB_FORMAT_FOREIGN)
		out_warn(out, "%s: %s %s (a foreign blob): only its size, the updates left and the failure count could be checked",
			 sdsi_device_name(dev), cli->blob_path,
			 kind == SDSI_BLOB_CAP ? "does not read as a licence blob"
					       : "is not in the sdsi AKC format");
	if (!cli->dry_run && sdsi_preflight_forced(pf))
		warn_forced_replay(out, sdsi_device_name(dev), kind, cli->blob_path,
				   sdsi_preflight_blob_info(pf), &regs);
	/* The last attempt before the threshold, an implausible blob sent by force. */
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++)
		if (sdsi_preflight_check_status(pf, i) == SDSI_CHECK_WARN)
			out_warn(out, "%s: warning: %s", sdsi_device_name(dev),
				 sdsi_preflight_check_detail(pf, i));

	if (!cli->dry_run && (!sdsi_preflight_unchanged(pf) || sdsi_preflight_forced(pf))) {
		if (sdsi_provision(dev, kind, blob, blob_len, &opts, err)) {
			if (sdsi_error_errno(err) == EPERM)
				name_eperm_cause(kind, &regs, err);
			return report_error(out, sdsi_device_name(dev), err);
		}
		report.written = true;
	}
	out->ops->provisioned(out, &report);
	return SDSI_EXIT_OK;
}
