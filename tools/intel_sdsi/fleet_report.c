// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a fleet provisioning report says whatever its format (fleet_report.h):
 * the words of its outcomes, the error of a socket, and the failures and
 * unusable files said on stderr, as every error of intel_sdsi is.
 */
#include "fleet_report.h"

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
		}
		err = socket_error(s);
		if (err)
			out_error_message(sdsi_error_message(err));
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
