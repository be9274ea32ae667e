// SPDX-License-Identifier: GPL-2.0-only
/*
 * --attest: the part's attestation service through libsdsi's attestation
 * API.  get_digests and get_certificate print what the part sends, as
 * Intel's posted tool does, verifying nothing; verify runs the whole flow
 * on one device or on every device at once (--all) and prints the verdict.
 *
 * Two outcomes are kept apart: a verdict that is not ok (the part failed
 * attestation) exits SDSI_EXIT_NOT_ATTESTED; an error (attestation could
 * not run: no transport, busy, permission) exits with its class, as a read
 * does.  With --format prometheus a part without attestation (bit 12
 * clear) is a third outcome: it lacks the data, no failure (render_device).
 * The flow sends SPDM requests and reads certificates only: nothing
 * here can spend a provisioning attempt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "device_registers.h"
#include "fleet.h"
#include "sysfs_root.h"
#include "util/util_hex.h"

/* One step of the flow on an open session, as the action asks. */
typedef int (*attest_step)(struct sdsi_attest *att, void *ctx, struct sdsi_error *err);

/*
 * Open a session on dev and run step; while the part or its mailbox is busy
 * (EBUSY), again in a new session (SPDM starts over with VCA), up to
 * retries more times, BUSY_RETRY_DELAY_MS apart, as the reads of -a and -c
 * retry.  0 with *att open (the caller frees it), or -1 with err.
 */
static int attest_with_retry(const struct sdsi_device *dev, unsigned int retries,
			     attest_step step, void *ctx, struct sdsi_attest **att,
			     struct sdsi_error *err)
{
	const struct timespec delay = { .tv_sec = BUSY_RETRY_DELAY_MS / 1000,
					.tv_nsec = BUSY_RETRY_DELAY_MS % 1000 * 1000000L };

	for (unsigned int attempt = 0;; attempt++) {
		if (sdsi_attest_open(dev, att, err))
			return -1;
		if (step(*att, ctx, err) == 0)
			return 0;
		sdsi_attest_free(*att);
		*att = NULL;
		if (sdsi_error_errno(err) != EBUSY || attempt >= retries)
			break;
		nanosleep(&delay, NULL);
	}
	if (sdsi_error_errno(err) == EBUSY && retries)
		sdsi_error_set(err, EBUSY, sdsi_error_class(err), -1, "%s (still busy after %u attempts)",
			       sdsi_error_message(err), retries + 1);
	else if (sdsi_error_errno(err) == EBUSY)
		sdsi_error_set(err, EBUSY, sdsi_error_class(err), -1,
			       "%s (--retry N asks again up to N times while busy)",
			       sdsi_error_message(err));
	return -1;
}

/* --attest verify's step: the whole flow against the owner's anchors. */
struct verify_ctx {
	const char *trust;
	struct sdsi_attest_verdict *verdict;
};

static int verify_step(struct sdsi_attest *att, void *ctx, struct sdsi_error *err)
{
	struct verify_ctx *v = ctx;

	return sdsi_attest_verify(att, v->trust, &v->verdict, err);
}

static int digest_step(struct sdsi_attest *att, void *ctx, struct sdsi_error *err)
{
	return sdsi_attest_digest(att, ctx, err);
}

/* get_certificate's bytes, pointing into the session that read them. */
struct chain_ctx {
	bool der;
	const uint8_t *bytes;
	size_t len;
};

static int chain_step(struct sdsi_attest *att, void *ctx, struct sdsi_error *err)
{
	struct chain_ctx *c = ctx;

	if (c->der)
		return sdsi_attest_leaf_der(att, &c->bytes, &c->len, err);
	return sdsi_attest_chain(att, &c->bytes, &c->len, err);
}

static const char *trust_path(const struct cli *cli)
{
	return cli->trust ? cli->trust : SDSI_ATTEST_TRUST_DIR;
}

/* One verdict printed; its exit status. */
static enum sdsi_exit render_verdict(const struct cli *cli, struct output *out,
				     const char *device, const struct sdsi_attest_verdict *verdict)
{
	const struct attest_report report = { device, trust_path(cli), verdict };
	char line[768];

	out->ops->attestation(out, &report);
	if (sdsi_attest_verdict_ok(verdict))
		return SDSI_EXIT_OK;
	/* The verdict is data, on stdout; the failure is said on stderr too. */
	snprintf(line, sizeof(line), "%s: not attested: %s", device,
		 sdsi_attest_verdict_summary(verdict));
	out_error_message(line);
	return SDSI_EXIT_NOT_ATTESTED;
}

/* The bytes of the chain or of its leaf, as they are: data for a pipe. */
static enum sdsi_exit print_bytes(struct output *out, const char *device,
				  const struct chain_ctx *c)
{
	util_scoped_error err = tool_error_new();

	if (fwrite(c->bytes, 1, c->len, stdout) == c->len)
		return SDSI_EXIT_OK;
	tool_error(err, EIO, SDSI_ERR_INTERNAL, "%s: writing the certificate failed", device);
	return report_error(out, device, err);
}

static enum sdsi_exit fetch_one(const struct cli *cli, struct output *out,
				const struct sdsi_device *dev)
{
	const char *device = sdsi_device_name(dev);
	uint8_t digest[SDSI_ATTEST_DIGEST_SIZE];
	char hex[2 * SDSI_ATTEST_DIGEST_SIZE + 1];
	struct chain_ctx chain = { .der = cli->der };
	struct sdsi_attest *att = NULL;
	util_scoped_error err = tool_error_new();
	enum sdsi_exit status = SDSI_EXIT_OK;

	if (cli->attest == ATTEST_GET_DIGESTS) {
		if (attest_with_retry(dev, cli->busy_retries, digest_step, digest, &att, err))
			return report_error(out, device, err);
		util_hex(hex, digest, sizeof(digest));
		printf("%s\n", hex);
	} else {
		if (attest_with_retry(dev, cli->busy_retries, chain_step, &chain, &att, err))
			return report_error(out, device, err);
		out_note(out, "%s: %s, %zu bytes", device,
			 cli->der ? "the leaf certificate (DER)" : "slot 0's certificate chain",
			 chain.len);
		status = print_bytes(out, device, &chain);
	}
	sdsi_attest_free(att);
	return status;
}

/*
 * What one device gave, filled where it may run in a thread of its own
 * (fleet.h), so it prints nothing: the verdict, or why there is none.
 * With an output that monitors a fleet of mixed parts (data_available,
 * Prometheus), the registers are read first, as -s reads them before the
 * certificate: a part whose ENABLED_FEATURES lacks bit 12 then lacks the
 * data, which is no failure, while a part with the bit whose transport is
 * missing still is one (ENODEV).
 */
struct device_verdict {
	struct sdsi_registers regs;
	bool regs_decoded;
	bool lacking;			/* bit 12 clear: nothing to attest */
	struct sdsi_attest_verdict *verdict;
	struct sdsi_error *err;		/* when verdict is NULL and not lacking */
};

static void verify_device(const struct cli *cli, bool registers_first,
			  const struct sdsi_device *dev, struct device_verdict *r)
{
	struct verify_ctx v = { trust_path(cli), NULL };
	struct sdsi_attest *att = NULL;

	if (registers_first) {
		if (read_device_registers(dev, &r->regs, NULL, r->err))
			return;
		r->regs_decoded = true;
		if (!r->regs.attestation) {
			r->lacking = true;
			return;
		}
	}
	if (attest_with_retry(dev, cli->busy_retries, verify_step, &v, &att, r->err))
		return;
	r->verdict = v.verdict;
	sdsi_attest_free(att);
}

static enum sdsi_exit render_device(const struct cli *cli, struct output *out,
				    const char *device, const struct device_verdict *r)
{
	if (r->regs_decoded && out->ops->registers)
		out->ops->registers(out, device, &r->regs);
	if (r->lacking) {
		out_warn(out, "%s: the part lacks this data: attestation is not enabled "
			 "(ENABLED_FEATURES bit 12 clear)", device);
		out->ops->data_available(out, device, false);
		return SDSI_EXIT_OK;
	}
	if (!r->verdict)
		return report_error(out, device, r->err);
	if (out->ops->data_available)
		out->ops->data_available(out, device, true);
	return render_verdict(cli, out, device, r->verdict);
}

static enum sdsi_exit verify_one(const struct cli *cli, struct output *out,
				 const struct sdsi_device *dev)
{
	struct device_verdict r = { .err = tool_error_new() };
	enum sdsi_exit status;

	verify_device(cli, out->ops->data_available != NULL, dev, &r);
	status = render_device(cli, out, sdsi_device_name(dev), &r);
	/* A verdict, attested or not, is a whole document: --output writes it. */
	out->complete_document = r.verdict != NULL;
	sdsi_attest_verdict_free(r.verdict);
	sdsi_error_free(r.err);
	return status;
}

struct verify_all_jobs {
	const struct cli *cli;
	bool registers_first;
	struct sdsi_device **devs;
	struct device_verdict *results;
};

static void verify_all_job(void *ctx, size_t i)
{
	struct verify_all_jobs *jobs = ctx;
	struct device_verdict *r = &jobs->results[i];

	if (!sdsi_device_guid_valid(jobs->devs[i]) && reopen_listed_device(&jobs->devs[i], r->err))
		return;
	verify_device(jobs->cli, jobs->registers_first, jobs->devs[i], r);
}

/*
 * Every device attested at once (each part has its own mailbox), then the
 * verdicts printed in device order; the status is the first failure's.
 */
static enum sdsi_exit verify_all(const struct cli *cli, struct output *out)
{
	util_scoped_error err = tool_error_new();
	struct verify_all_jobs jobs = { .cli = cli,
					.registers_first = out->ops->data_available != NULL };
	enum sdsi_exit status = SDSI_EXIT_OK, one;
	size_t count;

	if (sdsi_device_list(cli->sysfs_root, &jobs.devs, &count, err))
		return report_error(out, NULL, err);
	if (count == 0)
		warn_no_devices(cli, out);
	jobs.results = count ? calloc(count, sizeof(*jobs.results)) : NULL;
	if (count && !jobs.results) {
		sdsi_device_list_free(jobs.devs, count);
		tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory");
		return report_error(out, NULL, err);
	}
	for (size_t i = 0; i < count; i++)
		jobs.results[i].err = tool_error_new();
	fleet_run(count, verify_all_job, &jobs);
	out->ops->begin_all(out);
	for (size_t i = 0; i < count; i++) {
		one = render_device(cli, out, sdsi_device_name(jobs.devs[i]), &jobs.results[i]);
		if (status == SDSI_EXIT_OK)
			status = one;
	}
	out->ops->end_all(out);
	out->complete_document = true;
	for (size_t i = 0; i < count; i++) {
		sdsi_attest_verdict_free(jobs.results[i].verdict);
		sdsi_error_free(jobs.results[i].err);
	}
	free(jobs.results);
	sdsi_device_list_free(jobs.devs, count);
	return status;
}

enum sdsi_exit cmd_attest(const struct cli *cli, struct output *out)
{
	util_scoped_device dev = NULL;
	util_scoped_error err = tool_error_new();
	char wanted[64];

	if (cli->all)
		return verify_all(cli, out);
	out->error_device = requested_device(cli->devno, wanted, sizeof(wanted));
	if (sdsi_device_open(cli->sysfs_root, cli->devno, &dev, err))
		return report_error(out, NULL, err);
	if (cli->attest == ATTEST_VERIFY)
		return verify_one(cli, out, dev);
	return fetch_one(cli, out, dev);
}
