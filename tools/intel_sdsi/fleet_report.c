// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a fleet provisioning report says whatever its format (fleet_report.h):
 * the words of its outcomes, the error of a socket, and the failures and
 * unusable files said on stderr, as every error of intel_sdsi is.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "fleet_report.h"

/* Whether a socket of the run has that PPIN (its registers read). */
static bool socket_with_ppin(const struct fleet_report *r, uint64_t ppin)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->sockets[i].have_regs && r->sockets[i].regs.ppin == ppin)
			return true;
	return false;
}

bool fleet_file_used(const struct fleet_report *r, size_t file)
{
	for (size_t i = 0; i < r->count; i++)
		if (socket_tried_file(&r->sockets[i], file))
			return true;
	return false;
}

/* A socket that a directory of CAPs left without one. */
static bool socket_unmatched(const struct fleet_report *r, const struct socket_result *s)
{
	return r->set->kind == SDSI_BLOB_CAP && r->set->is_dir && s->outcome == SOCKET_NO_MATCH;
}

bool fleet_unmatched(const struct fleet_report *r)
{
	if (r->set->kind != SDSI_BLOB_CAP)
		return false;
	if (r->set->is_dir && r->set->count == 0)
		return true;
	for (size_t i = 0; i < r->set->count; i++)
		if (!fleet_file_used(r, i))
			return true;
	for (size_t i = 0; i < r->count; i++)
		if (socket_unmatched(r, &r->sockets[i]))
			return true;
	return false;
}

/* Said even with --quiet: each is why the run ends with a failure. */
__attribute__((format(printf, 1, 2)))
static void unmatched_error(const char *fmt, ...)
{
	va_list ap;
	char *message;

	va_start(ap, fmt);
	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	va_end(ap);
	out_error_message(message ? message : "out of memory");
	free(message);
}

static void diagnose_unmatched(const struct fleet_report *r)
{
	const struct blob_set *set = r->set;

	if (set->kind != SDSI_BLOB_CAP)
		return;
	if (set->is_dir && set->count == 0)
		unmatched_error("%s: empty: no CAP to provision", set->source);
	for (size_t i = 0; i < r->count; i++)
		if (socket_unmatched(r, &r->sockets[i]))
			unmatched_error("%s (PPIN 0x%016" PRIx64 "): no CAP in %s is for it",
					sdsi_device_name(r->sockets[i].dev), r->sockets[i].regs.ppin,
					set->source);
	for (size_t i = 0; i < set->count; i++) {
		const struct blob_file *f = &set->files[i];

		if (!f->usable)	/* the message names the file */
			unmatched_error("%s; not used", sdsi_error_message(f->err));
		else if (!fleet_file_used(r, i) && !r->count)
			unmatched_error("%s: CAP for PPIN 0x%016" PRIx64 ", and no socket was found; not used",
					f->path, f->ppin);
		else if (!fleet_file_used(r, i) && !socket_with_ppin(r, f->ppin))
			unmatched_error("%s: CAP for PPIN 0x%016" PRIx64 ", which no socket here has; not used",
					f->path, f->ppin);
	}
}

void fleet_diagnose(const struct output *out, const struct fleet_report *r)
{
	const struct blob_set *set = r->set;
	const struct sdsi_error *err;

	for (size_t i = 0; i < r->count; i++) {
		const struct socket_result *s = &r->sockets[i];

		if (sdsi_error_errno(s->state_warning))
			out_warn(out, "%s: %s; the comparison with what is provisioned is skipped",
				 sdsi_device_name(s->dev), sdsi_error_message(s->state_warning));
		for (size_t k = 0; k < s->nblobs; k++) {
			const struct blob_result *b = &s->blobs[k];
			const char *file = set->files[b->file].path;

			for (unsigned int c = 0; c < sdsi_preflight_num_checks(b->pf); c++)
				out_note(out, "%s: %s: check %s: %s: %s", sdsi_device_name(s->dev), file,
					 sdsi_preflight_check_name(b->pf, c),
					 sdsi_check_status_name(sdsi_preflight_check_status(b->pf, c)),
					 sdsi_preflight_check_detail(b->pf, c));
			if (sdsi_preflight_last_attempt(b->pf) && b->outcome != BLOB_SKIPPED)
				out_warn(out, "%s: warning: %s", sdsi_device_name(s->dev),
					 sdsi_preflight_warning(b->pf));
			if (b->outcome != BLOB_SKIPPED && !r->cli->dry_run && sdsi_preflight_forced(b->pf))
				warn_forced_replay(out, sdsi_device_name(s->dev), set->kind, file,
						   &set->files[b->file].info, &s->regs);
		}
		err = socket_error(s);
		if (err)
			out_error_message(sdsi_error_message(err));
	}
	if (set->kind == SDSI_BLOB_CAP) {
		diagnose_unmatched(r);
		return;
	}
	for (size_t i = 0; i < set->count; i++)
		if (!set->files[i].usable)
			out_warn(out, "%s; not used", sdsi_error_message(set->files[i].err));
}

/* Whether the blobs tried on socket s include file i of the set. */
bool socket_tried_file(const struct socket_result *s, size_t file)
{
	for (size_t k = 0; k < s->nblobs; k++)
		if (s->blobs[k].file == file)
			return true;
	return false;
}

const struct sdsi_error *socket_error(const struct socket_result *s)
{
	if (s->failed)
		return s->err;
	for (size_t k = 0; k < s->nblobs; k++)
		if (s->blobs[k].outcome == BLOB_REFUSED || s->blobs[k].outcome == BLOB_FAILED)
			return s->blobs[k].err;
	return NULL;
}

static const char *const blob_outcomes[] = {
	[BLOB_WRITTEN] = "written",
	[BLOB_UNCHANGED] = "unchanged",
	[BLOB_PLANNED] = "planned",
	[BLOB_REFUSED] = "refused",
	[BLOB_FAILED] = "failed",
	[BLOB_SKIPPED] = "skipped",
};

static const char *const socket_outcomes[] = {
	[SOCKET_PROVISIONED] = "provisioned",
	[SOCKET_PLANNED] = "planned",
	[SOCKET_UNCHANGED] = "unchanged",
	[SOCKET_NO_MATCH] = "no_match",
	[SOCKET_FAILED] = "failed",
};

const char *blob_outcome_name(enum blob_outcome outcome)
{
	return blob_outcomes[outcome];
}

const char *socket_outcome_name(enum socket_outcome outcome)
{
	return socket_outcomes[outcome];
}
