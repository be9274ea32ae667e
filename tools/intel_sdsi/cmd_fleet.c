// SPDX-License-Identifier: GPL-2.0-only
/*
 * --all -a FILE and --all -c DIR|FILE: provision every socket at once.
 *
 * Each socket, in a thread of its own (fleet.h), reads its registers, takes
 * the blobs meant for it (the AKC; the CAPs bound to its PPIN, in file name
 * order) and, for each, runs the same pre-flight checks as -d N -c FILE
 * against its own registers and state certificate before writing it.  A
 * blob already provisioned is unchanged and not written, so a second run
 * writes nothing.  After a write the socket's registers and state
 * certificate are read again before its next blob is checked: the write used
 * an update, and two files may carry the same licence.  The first blob that
 * is refused or fails stops that socket (each failure spends one of the few
 * attempts it allows per power cycle); the others go on.  The results are
 * printed afterwards in device order; the exit status is that of the first
 * socket that failed, 0 when none did.  With -c, one CAP per socket: two
 * or more for one socket write none there (the socket fails, naming them),
 * and a run that leaves a socket of a directory's run without its CAP, a
 * CAP without its socket, any file of the directory unused, or the
 * directory empty ends with exit 5 (refused) after the writes it could make,
 * naming each (fleet_report.c).  A dry run judges each blob against
 * the socket as the plan's earlier writes leave it; --all -a AKC -c DIR
 * --dry-run plans the AKC first on each socket, then its CAPs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device_registers.h"
#include "fleet.h"
#include "fleet_report.h"
#include "sysfs_root.h"
#include "tool_error.h"

struct fleet_jobs {
	const struct cli *cli;
	const struct blob_set *set;
	const struct blob_set *akc;	/* the plan's AKC (cli->plan_akc), or NULL */
	struct socket_result *sockets;
};

static bool read_registers(struct socket_result *s, struct sdsi_error *err)
{
	if (!sdsi_device_guid_valid(s->dev) && reopen_listed_device(&s->dev, err))
		return false;
	return read_device_registers(s->dev, &s->regs, NULL, err) == 0;
}

/* The blobs of the set meant for this socket, in file name order. */
static bool match_blobs(const struct blob_set *set, struct socket_result *s)
{
	for (size_t i = 0; i < set->count; i++)
		s->nblobs += blob_set_matches(set, i, s->regs.ppin);
	if (!s->nblobs)
		return true;
	s->blobs = calloc(s->nblobs, sizeof(*s->blobs));
	if (!s->blobs)
		return false;
	for (size_t i = 0, k = 0; i < set->count; i++)
		if (blob_set_matches(set, i, s->regs.ppin))
			s->blobs[k++].file = i;
	for (size_t k = 0; k < s->nblobs; k++) {
		s->blobs[k].err = tool_error_new();
		s->blobs[k].pf = tool_preflight_new();
	}
	return true;
}

struct socket_view {
	struct sdsi_registers regs;	/* as they are now (dry run: as the plan leaves them) */
	uint8_t state_buf[SDSI_READ_BUF_SIZE];
	struct sdsi_state_cert state;
	bool have_state;
	struct sdsi_error *why;		/* errno set: the state certificate unreadable */
};

/* (Re)read what the next blob's checks compare it with. */
static bool refresh(struct socket_result *s, const struct blob_file *f, bool registers,
		    unsigned int retries, bool force, struct socket_view *v, struct sdsi_error *err)
{
	if (registers && !read_registers(s, err))
		return false;
	v->regs = s->regs;
	sdsi_state_cert_free(&v->state);
	v->have_state = provision_read_state(s->dev, &v->regs, f->bytes, f->len, retries,
					     v->state_buf, &v->state, v->why);
	/* Forced on without it, the write goes on: the report warns of that. */
	if (sdsi_error_errno(v->why) && force)
		sdsi_error_copy(s->state_warning, v->why);
	return true;
}

/*
 * A dry run judges the next blob against the socket as the plan leaves it,
 * as the real run reads it again after each write: one update fewer, and
 * the AKC or the licence in the state, so that a second copy of a CAP is
 * unchanged in the plan as it is on the silicon.
 */
static void plan_write(struct socket_view *v, const struct blob_file *f)
{
	struct sdsi_license *grown;

	if (v->regs.updates_available)
		v->regs.updates_available--;
	if (f->info.format == SDSI_BLOB_FORMAT_AKC) {
		v->regs.akc_provisioned = true;
		v->have_state = true;
		v->state.key_present = true;
		v->state.key_rev_id = f->info.key_revision;
		memcpy(v->state.key_image, f->info.key_image, sizeof(v->state.key_image));
	} else if (f->info.format == SDSI_BLOB_FORMAT_CAP && v->have_state) {
		grown = realloc(v->state.licenses,
				(v->state.num_licenses + 1) * sizeof(*grown));
		if (!grown)
			return;	/* the plan then counts a copy as a write: never fewer */
		v->state.licenses = grown;
		grown[v->state.num_licenses] = (struct sdsi_license){
			.index = v->state.num_licenses, .valid = true, .present = true,
			.type = f->info.type, .id = f->info.id, .ppin = f->info.ppin,
			.revision = f->info.revision,
		};
		v->state.num_licenses++;
	}
}

/*
 * Two CAPs or more for one socket: which one the operator meant is unclear,
 * and each refused write spends an attempt.  None is written; the socket
 * fails, naming them (Intel issues one CAP per CPU).
 */
static bool conflicting_caps(const struct blob_set *set, struct socket_result *s)
{
	char *names = NULL, *grown;
	size_t used = 0;

	if (set->kind != SDSI_BLOB_CAP || s->nblobs < 2)
		return false;
	for (size_t k = 0; k < s->nblobs; k++) {
		const char *name = blob_file_name(set, &set->files[s->blobs[k].file]);
		size_t add = strlen(name) + 2;

		grown = realloc(names, used + add + 1);
		if (!grown)
			break;
		names = grown;
		sprintf(names + used, "%s%s", k ? ", " : "", name);
		used += strlen(names + used);
		s->blobs[k].outcome = BLOB_SKIPPED;
	}
	tool_error(s->err, EEXIST, SDSI_ERR_REFUSED,
		   "%s (PPIN 0x%016" PRIx64 "): %zu CAPs are for it (%s): one CAP per socket, so none is written to it",
		   sdsi_device_name(s->dev), s->regs.ppin, s->nblobs, names ? names : "out of memory");
	free(names);
	return true;
}

/* One blob on one socket: checks, then (unless dry run or unchanged) the write. */
static void provision_one(const struct cli *cli, const struct blob_set *set,
			  struct socket_result *s, struct socket_view *v, struct blob_result *b)
{
	const struct blob_file *f = &set->files[b->file];
	const struct sdsi_provision_options opts = {
		.busy_retries = cli->busy_retries,
		.busy_delay_ms = BUSY_RETRY_DELAY_MS,
	};

	if (sdsi_preflight_blob(&v->regs, v->have_state ? &v->state : NULL, set->kind,
				f->bytes, f->len, provision_flags(cli), b->pf, b->err)) {
		if (sdsi_error_class(b->err) == SDSI_ERR_STATE_UNKNOWN)
			explain_state_unknown(b->err, v->why, set->kind, cli->busy_retries);
		else
			name_implausible_file(b->err, b->pf, f->path);
		sdsi_error_prefix(b->err, sdsi_device_name(s->dev));
		b->outcome = BLOB_REFUSED;
	} else if (sdsi_preflight_unchanged(b->pf) && !sdsi_preflight_forced(b->pf)) {
		b->outcome = BLOB_UNCHANGED;
	} else if (cli->dry_run) {
		b->outcome = BLOB_PLANNED;
		plan_write(v, f);
	} else if (sdsi_provision(s->dev, set->kind, f->bytes, f->len, &opts, b->err)) {
		b->outcome = BLOB_FAILED;
	} else {
		b->outcome = BLOB_WRITTEN;
	}
}

static enum socket_outcome outcome_of(const struct socket_result *s)
{
	bool written = false, planned = false;

	if (s->failed)
		return SOCKET_FAILED;
	if (!s->nblobs)
		return SOCKET_NO_MATCH;
	for (size_t k = 0; k < s->nblobs; k++) {
		switch (s->blobs[k].outcome) {
		case BLOB_REFUSED:
		case BLOB_FAILED:
		case BLOB_SKIPPED:
			return SOCKET_FAILED;
		case BLOB_WRITTEN:
			written = true;
			break;
		case BLOB_PLANNED:
			planned = true;
			break;
		case BLOB_UNCHANGED:
			break;
		}
	}
	return written ? SOCKET_PROVISIONED : planned ? SOCKET_PLANNED : SOCKET_UNCHANGED;
}

/*
 * The plan's AKC on one socket (--all -a AKC -c DIR --dry-run): false when
 * it would be refused, the socket then failed with its error; else *planned
 * says whether it would be written.
 */
static bool plan_akc(const struct fleet_jobs *jobs, struct socket_result *s,
		     struct socket_view *v, bool *planned)
{
	struct blob_result b = { .file = 0, .err = tool_error_new(), .pf = tool_preflight_new() };
	bool judged = false;

	if (!refresh(s, &jobs->akc->files[0], false, jobs->cli->busy_retries, jobs->cli->force,
		     v, b.err)) {
		sdsi_error_copy(s->err, b.err);
	} else {
		provision_one(jobs->cli, jobs->akc, s, v, &b);
		if (b.outcome == BLOB_REFUSED) {
			sdsi_error_copy(s->err, b.err);
		} else {
			*planned = b.outcome == BLOB_PLANNED;
			judged = true;
		}
	}
	sdsi_error_free(b.err);
	sdsi_preflight_free(b.pf);
	return judged;
}

static void socket_job(void *ctx, size_t i)
{
	struct fleet_jobs *jobs = ctx;
	struct socket_result *s = &jobs->sockets[i];
	struct socket_view *v = calloc(1, sizeof(*v));
	bool stop = false, akc_planned = false;

	if (v)
		v->why = tool_error_new();
	if (!v || !read_registers(s, s->err) || !match_blobs(jobs->set, s)) {
		if (!v || !sdsi_error_errno(s->err))
			sdsi_error_set(s->err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
		s->failed = true;
		goto out;
	}
	s->have_regs = true;
	if (conflicting_caps(jobs->set, s)) {
		s->failed = true;
		goto free_state;
	}
	if (jobs->akc && !plan_akc(jobs, s, v, &akc_planned)) {
		/* The AKC would be refused: its CAPs are not judged. */
		s->failed = true;
		stop = true;
	}
	for (size_t k = 0; k < s->nblobs; k++) {
		struct blob_result *b = &s->blobs[k];
		/* After a write, the socket has changed: read it again. */
		bool reread = k > 0 && s->blobs[k - 1].outcome == BLOB_WRITTEN;

		if (stop) {
			/* Not checked; what it is still shows (output_json.c). */
			b->outcome = BLOB_SKIPPED;
		} else if ((k == 0 || reread) &&
			   !refresh(s, &jobs->set->files[b->file], reread, jobs->cli->busy_retries,
				    jobs->cli->force, v, b->err)) {
			b->outcome = BLOB_FAILED;
		} else {
			/* Judged as the socket will be once the plan's AKC is in. */
			if (k == 0 && akc_planned)
				plan_write(v, &jobs->akc->files[0]);
			provision_one(jobs->cli, jobs->set, s, v, b);
		}
		stop = stop || b->outcome == BLOB_REFUSED || b->outcome == BLOB_FAILED;
	}
free_state:
	sdsi_state_cert_free(&v->state);
out:
	if (v)
		sdsi_error_free(v->why);
	free(v);
	s->outcome = outcome_of(s);
}


static void free_socket_result(struct socket_result *s)
{
	for (size_t k = 0; s->blobs && k < s->nblobs; k++) {
		sdsi_error_free(s->blobs[k].err);
		sdsi_preflight_free(s->blobs[k].pf);
	}
	free(s->blobs);
	sdsi_error_free(s->err);
	sdsi_error_free(s->state_warning);
	sdsi_device_close(s->dev);
}

static enum sdsi_exit run(const struct cli *cli, struct output *out, const struct blob_set *set,
			  const struct blob_set *akc)
{
	util_scoped_error err = tool_error_new();
	struct fleet_report report = { .cli = cli, .set = set };
	struct fleet_jobs jobs = { .cli = cli, .set = set, .akc = akc };
	enum sdsi_exit status = SDSI_EXIT_OK;
	struct sdsi_device **devs;
	const struct sdsi_error *failure;

	if (sdsi_device_list(cli->sysfs_root, &devs, &report.count, err))
		return report_error(out, NULL, err);
	if (report.count == 0)
		warn_no_devices(cli, out);
	report.sockets = report.count ? calloc(report.count, sizeof(*report.sockets)) : NULL;
	if (report.count && !report.sockets) {
		sdsi_device_list_free(devs, report.count);
		return report_error(out, NULL, err);
	}
	for (size_t i = 0; i < report.count; i++) {
		/* The socket's result owns the device from now on. */
		report.sockets[i].dev = devs[i];
		devs[i] = NULL;
		report.sockets[i].err = tool_error_new();
		report.sockets[i].state_warning = tool_error_new();
	}
	sdsi_device_list_free(devs, report.count);
	jobs.sockets = report.sockets;
	fleet_run(report.count, socket_job, &jobs);

	for (size_t i = 0; i < report.count; i++) {
		report.totals[report.sockets[i].outcome]++;
		failure = socket_error(&report.sockets[i]);
		if (failure && status == SDSI_EXIT_OK)
			status = exit_for_error(failure);
	}
	/* Nothing left silently unused: a CAP, a socket, or an empty directory. */
	if (status == SDSI_EXIT_OK && fleet_unmatched(&report))
		status = SDSI_EXIT_REFUSED;
	out->ops->fleet(out, &report);
	for (size_t i = 0; i < report.count; i++)
		free_socket_result(&report.sockets[i]);
	free(report.sockets);
	return status;
}

enum sdsi_exit cmd_fleet_provision(const struct cli *cli, struct output *out)
{
	const enum sdsi_blob_kind kind = cli->command == CMD_AKC ? SDSI_BLOB_AKC : SDSI_BLOB_CAP;
	util_scoped_error err = tool_error_new();
	struct blob_set set, akc;
	enum sdsi_exit status;

	/* An error before any socket is about the source: named in the document. */
	out->error_file = cli->blob_path;
	if (cli->plan_akc && blob_set_load(cli->plan_akc, SDSI_BLOB_AKC, &akc, err)) {
		out->error_file = cli->plan_akc;
		return report_error(out, NULL, err);
	}
	if (blob_set_load(cli->blob_path, kind, &set, err)) {
		if (cli->plan_akc)
			blob_set_free(&akc);
		return report_error(out, NULL, err);
	}
	/* Before any write: which blobs are held is known only in the threads. */
	if (cli->force && !cli->dry_run && kind == SDSI_BLOB_CAP)
		out_warn(out, "warning: --force writes every CAP, even one its socket already holds: the silicon refuses such a replay and counts it as a CAP failure");
	status = run(cli, out, &set, cli->plan_akc ? &akc : NULL);
	blob_set_free(&set);
	if (cli->plan_akc)
		blob_set_free(&akc);
	return status;
}
