// SPDX-License-Identifier: GPL-2.0-only
/*
 * -i, -s, -m and -C: read registers and certificates from one device, from
 * every device (--all, all at once), or from a saved file (--file), decode
 * and print them.
 * As upstream does, a certificate is read only after the registers show that
 * On Demand (and, for the meter, metering) is enabled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sdsi/hw.h"
#include "commands.h"
#include "sdsi/le.h"
#include "fleet.h"
#include "sysfs_root.h"

static enum sdsi_attr attr_of(enum command cmd)
{
	switch (cmd) {
	case CMD_STATE:
		return SDSI_ATTR_STATE_CERT;
	case CMD_METER:
		return SDSI_ATTR_METER_CERT;
	case CMD_METER_CURRENT:
		return SDSI_ATTR_METER_CURRENT;
	default:
		return SDSI_ATTR_REGISTERS;
	}
}

static void warn_state(const struct output *out, const struct sdsi_state_cert *c)
{
	if (c->warnings & SDSI_STATE_WARN_KEY_SIZE)
		out_warn(out, "state certificate: key size %u dwords, expected %u; decoded with the documented 48-byte key image",
			 c->key_size, SDSI_STATE_KEY_SIZE_DWORDS);
	if (c->warnings & SDSI_STATE_WARN_CONTENT_TYPE)
		out_warn(out, "state certificate: unknown content type 0x%x", c->content_type);
}

/* A decoder's error, named after the saved file it came from (device NULL). */
static enum sdsi_exit decode_failed(const struct cli *cli, struct output *out,
				    const char *device, struct sdsi_error *err)
{
	if (!device)
		sdsi_error_prefix(err, cli->file);
	return report_error(out, device, err);
}

/* Decode bytes per the command and print them; device is NULL for --file. */
static enum sdsi_exit decode_and_print(const struct cli *cli, struct output *out,
				       const char *device, const uint8_t *buf, size_t len,
				       uint32_t guid)
{
	struct sdsi_registers regs;
	struct sdsi_state_cert state;
	struct sdsi_meter_cert meter;
	util_scoped_error err = tool_error_new();

	switch (cli->command) {
	case CMD_INFO:
		if (sdsi_decode_registers(buf, len, guid, &regs, err))
			return decode_failed(cli, out, device, err);
		if (!regs.guid_known)
			out_warn(out, "unrecognized GUID 0x%x: decoded with the V1 layout", guid);
		out->ops->info(out, device, &regs);
		return SDSI_EXIT_OK;
	case CMD_STATE:
		if (sdsi_decode_state_cert(buf, len, &state, err))
			return decode_failed(cli, out, device, err);
		warn_state(out, &state);
		out->ops->state(out, device, &state);
		sdsi_state_cert_free(&state);
		return SDSI_EXIT_OK;
	default:
		if (sdsi_decode_meter_cert(buf, len, &meter, err))
			return decode_failed(cli, out, device, err);
		if (meter.warnings & SDSI_METER_WARN_MMRC)
			out_warn(out, "meter certificate: the master reference counter is not labelled 'MMRC'");
		out->ops->meter(out, device, &meter, cli->command == CMD_METER_CURRENT);
		return SDSI_EXIT_OK;
	}
}

static enum sdsi_exit refuse(struct output *out, const char *device, int errnum,
			     const char *reason)
{
	util_scoped_error err = tool_error_new();

	sdsi_error_set(err, errnum, SDSI_ERR_REFUSED, -1, "%s: %s", device, reason);
	return report_error(out, device, err);
}

/*
 * What one device gave: the registers, then (but for -i) the certificate, or
 * where it stopped.  Filled by fetch_device(), which may run in a thread of
 * its own (fleet.h), so it prints nothing; render_device() prints it.
 */
struct device_read {
	uint8_t regs[SDSI_READ_BUF_SIZE];
	size_t regs_len;
	bool have_regs;
	struct sdsi_registers decoded;	/* but for -i */
	bool regs_decoded;
	uint8_t cert[SDSI_READ_BUF_SIZE];
	size_t cert_len;
	bool have_cert;
	struct sdsi_error *err;		/* why the next step is missing */
	int refused_errno;		/* 0, or the certificate is not read: */
	const char *refusal;		/* why */
};

static void fetch_device(enum command cmd, struct sdsi_device **listed, struct device_read *r)
{
	const enum sdsi_attr attr = attr_of(cmd);
	const struct sdsi_registers *regs = &r->decoded;
	const struct sdsi_device *dev;

	if (!sdsi_device_guid_valid(*listed) && reopen_listed_device(listed, r->err))
		return;
	dev = *listed;
	if (sdsi_read_attr(dev, SDSI_ATTR_REGISTERS, r->regs, &r->regs_len, r->err))
		return;
	r->have_regs = true;
	if (cmd == CMD_INFO)
		return;
	if (sdsi_decode_registers(r->regs, r->regs_len, sdsi_device_guid(dev), &r->decoded, r->err))
		return;
	r->regs_decoded = true;
	if (!regs->on_demand) {
		r->refused_errno = EPERM;
		r->refusal = "On Demand feature is present but not enabled: unable to read the certificate";
	} else if (attr != SDSI_ATTR_STATE_CERT && !regs->metering) {
		r->refused_errno = ENOTSUP;
		r->refusal = "Metering is not supported on this socket";
	} else if (sdsi_read_attr(dev, attr, r->cert, &r->cert_len, r->err) == 0) {
		r->have_cert = true;
	}
}

/*
 * The part lacks the data: metering not enabled for -m or -C, or the
 * attribute absent while the registers beside it read.  On Demand present
 * but disabled is not lacking: it is a setting the operator can change.
 */
static bool data_lacking(const struct device_read *r)
{
	return r->regs_decoded &&
	       (r->refused_errno == ENOTSUP ||
		(!r->refusal && !r->have_cert && sdsi_error_errno(r->err) == ENOENT));
}

static enum sdsi_exit render_device(const struct cli *cli, struct output *out,
				    const struct sdsi_device *dev, const struct device_read *r)
{
	util_scoped_error err = tool_error_new();

	sdsi_error_copy(err, r->err);
	if (!r->have_regs)
		return report_error(out, sdsi_device_name(dev), err);
	out_note(out, "%s/registers: %zu bytes, GUID 0x%x", sdsi_device_path(dev), r->regs_len, sdsi_device_guid(dev));
	if (cli->command == CMD_INFO)
		return decode_and_print(cli, out, sdsi_device_name(dev), r->regs, r->regs_len, sdsi_device_guid(dev));
	if (r->regs_decoded && out->ops->registers)
		out->ops->registers(out, sdsi_device_name(dev), &r->decoded);
	if (out->ops->data_available && data_lacking(r)) {
		out_warn(out, "%s: the part lacks this data: %s", sdsi_device_name(dev),
			 r->refusal ? r->refusal : sdsi_error_message(r->err));
		out->ops->data_available(out, sdsi_device_name(dev), false);
		return SDSI_EXIT_OK;
	}
	if (out->ops->data_available && r->have_cert)
		out->ops->data_available(out, sdsi_device_name(dev), true);
	if (r->refusal)
		return refuse(out, sdsi_device_name(dev), r->refused_errno, r->refusal);
	if (!r->have_cert)
		return report_error(out, sdsi_device_name(dev), err);
	out_note(out, "%s/%s: %zu bytes", sdsi_device_path(dev), sdsi_attr_file(attr_of(cli->command)),
		 r->cert_len);
	return decode_and_print(cli, out, sdsi_device_name(dev), r->cert, r->cert_len, sdsi_device_guid(dev));
}

static enum sdsi_exit read_device(const struct cli *cli, struct output *out,
				  struct sdsi_device **dev)
{
	struct device_read *r = calloc(1, sizeof(*r));
	util_scoped_error err = tool_error_new();
	enum sdsi_exit status;

	sdsi_error_set(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	if (!r)
		return report_error(out, sdsi_device_name(*dev), err);
	r->err = tool_error_new();
	fetch_device(cli->command, dev, r);
	status = render_device(cli, out, *dev, r);
	sdsi_error_free(r->err);
	free(r);
	return status;
}

/*
 * A registers file saved from a socket of a known GUID is exactly that
 * layout's size (without --guid, libsdsi lets only the two sizes through).
 */
static enum sdsi_exit check_registers_size(const struct cli *cli, struct output *out,
					   size_t len)
{
	const unsigned int layout = sdsi_guid_layout_or_v1(cli->guid);
	const size_t want = sdsi_layout_regs_size(layout);
	util_scoped_error err = NULL;

	if (!cli->guid || len == want)
		return SDSI_EXIT_OK;
	err = tool_error_new();
	sdsi_error_set(err, EBADMSG, SDSI_ERR_MALFORMED, (long)len,
		       "%s: %zu bytes; the registers of GUID 0x%x (V%u) are %zu bytes",
		       cli->file, len, cli->guid, layout, want);
	return report_error(out, NULL, err);
}

/*
 * A saved file is told by its content, not its size alone: an AKC or CAP,
 * a state certificate (content type 0xD or 0xE, and it decodes) or a meter
 * certificate ("MTDB") given to the command that reads another kind is
 * named for what it is, with the command that reads it, instead of being
 * decoded as nonsense (an 80-byte empty state certificate is the size of a
 * V2 registers file).  0 when the bytes may be what the command reads.
 */
static int saved_file_kind(const struct cli *cli, const uint8_t *buf, size_t len,
			   struct sdsi_error *err)
{
	static const char *const reads[] = {
		[CMD_INFO] = "a registers file", [CMD_STATE] = "a state certificate",
		[CMD_METER] = "a meter certificate", [CMD_METER_CURRENT] = "a meter certificate",
	};
	const char *want = cli->command <= CMD_METER_CURRENT ? reads[cli->command] : NULL;
	struct sdsi_state_cert state = { 0 };
	struct sdsi_meter_cert meter;
	struct sdsi_blob_info info;
	uint32_t first = len >= 4 ? sdsi_le32(buf) : 0;

	if (!want)
		return 0;
	if (sdsi_decode_blob(buf, len, &info, NULL) == 0 && info.format != SDSI_BLOB_FORMAT_FOREIGN)
		return tool_error(err, EBADMSG, SDSI_ERR_MALFORMED,
				  "%s: %s (%zu bytes), not %s: read it with sdsi-authority inspect %s, or check it against a socket with intel_sdsi -d N %s %s --dry-run",
				  cli->file, info.format == SDSI_BLOB_FORMAT_AKC ? "an AKC" : "a CAP", len,
				  want, cli->file, info.format == SDSI_BLOB_FORMAT_AKC ? "-a" : "-c",
				  cli->file);
	if (cli->command != CMD_STATE &&
	    (first == SDSI_STATE_CONTENT_KEY || first == SDSI_STATE_CONTENT_KEY_BLOBS) &&
	    sdsi_decode_state_cert(buf, len, &state, NULL) == 0) {
		sdsi_state_cert_free(&state);
		return tool_error(err, EBADMSG, SDSI_ERR_MALFORMED,
				  "%s: a state certificate (content type 0x%x, %zu bytes), not %s: read it with intel_sdsi --file %s -s",
				  cli->file, first, len, want, cli->file);
	}
	if (cli->command != CMD_METER && cli->command != CMD_METER_CURRENT &&
	    first == SDSI_METER_SIGNATURE && sdsi_decode_meter_cert(buf, len, &meter, NULL) == 0)
		return tool_error(err, EBADMSG, SDSI_ERR_MALFORMED,
				  "%s: a meter certificate (MTDB, %zu bytes), not %s: read it with intel_sdsi --file %s -m",
				  cli->file, len, want, cli->file);
	return 0;
}

static enum sdsi_exit read_saved_file(const struct cli *cli, struct output *out)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	util_scoped_error err = tool_error_new();
	enum sdsi_exit status;
	size_t len;

	out->file = cli->file;
	if (sdsi_read_file(cli->file, buf, sizeof(buf), &len, err))
		return report_error(out, NULL, err);
	out_note(out, "%s: %zu bytes", cli->file, len);
	if (saved_file_kind(cli, buf, len, err))
		return report_error(out, NULL, err);
	if (cli->command == CMD_INFO) {
		status = check_registers_size(cli, out, len);
		if (status != SDSI_EXIT_OK)
			return status;
	}
	return decode_and_print(cli, out, NULL, buf, len, cli->guid);
}

struct read_all_jobs {
	enum command command;
	struct sdsi_device **devs;
	struct device_read *reads;
};

static void read_all_job(void *ctx, size_t i)
{
	struct read_all_jobs *jobs = ctx;

	fetch_device(jobs->command, &jobs->devs[i], &jobs->reads[i]);
}

/*
 * Every device read at once (their mailboxes are independent), then printed
 * in device order; the status is that of the first device that failed.
 */
static enum sdsi_exit read_all(const struct cli *cli, struct output *out)
{
	util_scoped_error err = tool_error_new();
	enum sdsi_exit status = SDSI_EXIT_OK, one;
	struct read_all_jobs jobs = { .command = cli->command };
	size_t count;

	if (sdsi_device_list(cli->sysfs_root, &jobs.devs, &count, err))
		return report_error(out, NULL, err);
	if (count == 0)
		warn_no_devices(cli, out);
	jobs.reads = count ? calloc(count, sizeof(*jobs.reads)) : NULL;
	if (count && !jobs.reads) {
		sdsi_device_list_free(jobs.devs, count);
		return report_error(out, NULL, err);
	}
	for (size_t i = 0; i < count; i++)
		jobs.reads[i].err = tool_error_new();
	fleet_run(count, read_all_job, &jobs);
	out->ops->begin_all(out);
	for (size_t i = 0; i < count; i++) {
		one = render_device(cli, out, jobs.devs[i], &jobs.reads[i]);
		if (status == SDSI_EXIT_OK)
			status = one;
	}
	out->ops->end_all(out);
	out->complete_document = true;
	for (size_t i = 0; i < count; i++)
		sdsi_error_free(jobs.reads[i].err);
	free(jobs.reads);
	sdsi_device_list_free(jobs.devs, count);
	return status;
}

enum sdsi_exit cmd_read(const struct cli *cli, struct output *out)
{
	util_scoped_device dev = NULL;
	util_scoped_error err = tool_error_new();
	char wanted[64];

	if (cli->file)
		return read_saved_file(cli, out);
	if (cli->all)
		return read_all(cli, out);
	/* A device that cannot be opened is still the one asked for: named. */
	out->error_device = requested_device(cli->devno, wanted, sizeof(wanted));
	if (sdsi_device_open(cli->sysfs_root, cli->devno, &dev, err))
		return report_error(out, NULL, err);
	return read_device(cli, out, &dev);
}
