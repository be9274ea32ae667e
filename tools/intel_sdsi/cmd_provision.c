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
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"

static enum sdsi_exit load_blob(const struct cli *cli, struct output *out,
				enum sdsi_blob_kind kind, uint8_t *buf, size_t *len)
{
	struct sdsi_error err;

	if (sdsi_read_file(cli->blob_path, buf, SDSI_READ_BUF_SIZE, len, &err) == 0)
		return SDSI_EXIT_OK;
	if (err.errnum == EFBIG) {
		err.errnum = EOVERFLOW;
		err.cls = SDSI_ERR_REFUSED;
		snprintf(err.message, sizeof(err.message),
			 "the %s file %s is larger than %u bytes, the mailbox takes at most %u",
			 sdsi_blob_name(kind), cli->blob_path, SDSI_READ_BUF_SIZE, SDSI_BLOB_MAX);
	} else if (err.cls != SDSI_ERR_INTERNAL) {
		/* The operator named a file that cannot be read: a usage error. */
		err.cls = SDSI_ERR_USAGE;
	}
	return report_error(out, NULL, &err);
}

/*
 * The state certificate tells what the socket already holds.  It is read only
 * for a blob of the project's format on a socket with an AKC; without it the
 * tool cannot tell whether the blob needs writing, and writes nothing
 * (sdsi_preflight_blob()), so a busy mailbox is waited for as for the write.
 * Prints nothing (fleet provisioning calls it from a thread): false with
 * why->errnum set when it could not be read, 0 when it was not needed.
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

	why->errnum = 0;
	if (!regs->on_demand || !regs->akc_provisioned || blob_len > SDSI_BLOB_MAX ||
	    sdsi_decode_blob(blob, blob_len, &info, NULL) ||
	    info.format == SDSI_BLOB_FORMAT_FOREIGN)
		return false;
	for (unsigned int attempt = 0;; attempt++) {
		ret = sdsi_read_attr(dev, SDSI_ATTR_STATE_CERT, buf, &len, why);
		if (ret == 0 || why->errnum != EBUSY || attempt == retries)
			break;
		nanosleep(&delay, NULL);
	}
	return ret == 0 && sdsi_decode_state_cert(buf, len, state, why) == 0;
}

void explain_state_unknown(struct sdsi_error *err, const struct sdsi_error *why,
			   enum sdsi_blob_kind kind, unsigned int retries)
{
	char reason[sizeof(why->message)];

	if (why->errnum) {
		err->errnum = why->errnum;
		snprintf(reason, sizeof(reason), "%.480s%s", why->message,
			 why->errnum == EBUSY && !retries ? " (no --retry)" : "");
	} else {
		snprintf(reason, sizeof(reason), "%s", "the state certificate holds no licence key although the registers say an AKC is provisioned");
	}
	snprintf(err->message, sizeof(err->message),
		 "%.300s: whether this %s is already provisioned is unknown, so nothing is written: try again later or with --retry N (--force sends it anyway)",
		 reason, sdsi_blob_name(kind));
}

void name_implausible_file(struct sdsi_error *err, const struct sdsi_preflight *pf,
			   const char *path)
{
	for (unsigned int i = 0; i < pf->num_checks; i++)
		if (pf->blob.format == SDSI_BLOB_FORMAT_FOREIGN &&
		    !strcmp(pf->checks[i].name, "format") &&
		    pf->checks[i].status == SDSI_CHECK_FAIL) {
			prefix_error(err, path);
			return;
		}
}

static void note_checks(const struct output *out, const struct sdsi_preflight *pf)
{
	for (unsigned int i = 0; i < pf->num_checks; i++)
		out_note(out, "check %s: %s: %s", pf->checks[i].name,
			 sdsi_check_status_name(pf->checks[i].status), pf->checks[i].detail);
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
		snprintf(err->message, sizeof(err->message),
			 "%s refused (EPERM): the BIOS has set the in-band lock (IBLOCK), since "
			 "the registers show On Demand enabled: unlock in-band provisioning in the "
			 "BIOS setup, or provision out of band (through the BMC)",
			 sdsi_blob_name(kind));
}

enum sdsi_exit cmd_provision(const struct cli *cli, struct output *out)
{
	const enum sdsi_blob_kind kind = cli->command == CMD_AKC ? SDSI_BLOB_AKC : SDSI_BLOB_CAP;
	const struct sdsi_provision_options opts = {
		.busy_retries = cli->busy_retries,
		.busy_delay_ms = BUSY_RETRY_DELAY_MS,
	};
	uint8_t regs_buf[SDSI_READ_BUF_SIZE], blob[SDSI_READ_BUF_SIZE];
	uint8_t state_buf[SDSI_READ_BUF_SIZE];
	char attr_path[SDSI_PATH_SIZE + 32];
	struct sdsi_state_cert state = { 0 };
	struct provision_report report;
	struct sdsi_registers regs;
	struct sdsi_preflight pf;
	struct sdsi_device dev;
	struct sdsi_error err, why;
	size_t regs_len, blob_len;
	enum sdsi_exit status;
	bool have_state;
	int ret;

	status = load_blob(cli, out, kind, blob, &blob_len);
	if (status != SDSI_EXIT_OK)
		return status;
	if (sdsi_device_open(cli->sysfs_root, cli->devno, &dev, &err))
		return report_error(out, NULL, &err);
	if (sdsi_read_attr(&dev, SDSI_ATTR_REGISTERS, regs_buf, &regs_len, &err) ||
	    sdsi_decode_registers(regs_buf, regs_len, dev.guid, &regs, &err))
		return report_error(out, dev.name, &err);
	out_note(out, "%s: GUID 0x%x, %zu-byte registers; %s is %zu bytes", dev.name, dev.guid,
		 regs_len, cli->blob_path, blob_len);

	have_state = provision_read_state(&dev, &regs, blob, blob_len, cli->busy_retries,
					  state_buf, &state, &why);
	if (!have_state && why.errnum && cli->force)
		out_warn(out, "%s: %s; the comparison with what is provisioned is skipped (--force)",
			 dev.name, why.message);
	ret = sdsi_preflight_blob(&regs, have_state ? &state : NULL, kind, blob, blob_len,
				  provision_flags(cli), &pf, &err);
	if (ret && err.cls == SDSI_ERR_STATE_UNKNOWN)
		explain_state_unknown(&err, &why, kind, cli->busy_retries);
	else if (ret)
		name_implausible_file(&err, &pf, cli->blob_path);
	sdsi_state_cert_free(&state);
	note_checks(out, &pf);

	snprintf(attr_path, sizeof(attr_path), "%s/%s", dev.path, sdsi_blob_file(kind));
	report = (struct provision_report){
		.device = dev.name,
		.attr_path = attr_path,
		.blob_path = cli->blob_path,
		.kind = kind,
		.bytes = blob_len,
		.dry_run = cli->dry_run,
		.preflight = &pf,
	};
	if (ret) {
		prefix_error(&err, dev.name);
		out->ops->refused(out, &report, &err);
		return exit_for_error(&err);
	}
	out_note(out, "pre-flight checks passed: layout, size, On Demand, %u update(s) left, %s failures %u of %u%s",
		 regs.updates_available, sdsi_blob_name(kind),
		 kind == SDSI_BLOB_AKC ? regs.akc_fail_count : regs.cap_fail_count,
		 kind == SDSI_BLOB_AKC ? regs.akc_fail_threshold : regs.cap_fail_threshold,
		 kind == SDSI_BLOB_CAP ? ", AKC present" : "");
	if (pf.blob.format == SDSI_BLOB_FORMAT_FOREIGN)
		out_warn(out, "%s: %s is not in the sdsi AKC/CAP format (a foreign blob): only its size, the updates left and the failure count could be checked",
			 dev.name, cli->blob_path);
	/* The last attempt before the threshold, an implausible blob sent by force. */
	for (unsigned int i = 0; i < pf.num_checks; i++)
		if (pf.checks[i].status == SDSI_CHECK_WARN)
			out_warn(out, "%s: warning: %s", dev.name, pf.checks[i].detail);

	if (!cli->dry_run && (!pf.unchanged || pf.forced)) {
		if (sdsi_provision(&dev, kind, blob, blob_len, &opts, &err)) {
			if (err.errnum == EPERM)
				name_eperm_cause(kind, &regs, &err);
			return report_error(out, dev.name, &err);
		}
		report.written = true;
	}
	out->ops->provisioned(out, &report);
	return SDSI_EXIT_OK;
}
