// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fleet provisioning report (fleet_report.h) as text, text_output_ops'
 * fleet: the sockets in device order, each with the blobs tried on it, then
 * the files no socket used, then the totals.  (JSON: output_json.c.)
 */
#include <inttypes.h>
#include <stdio.h>

#include "fleet_report.h"
#include "util/util_escape.h"

static void text_blob_line(const struct fleet_report *r, const struct blob_result *b)
{
	const struct blob_file *f = &r->set->files[b->file];
	const struct sdsi_blob_info *info = &f->info;
	char code[5], name[UTIL_TEXT_NAME_SIZE];

	printf("    %s: ", util_text_name(name, sizeof(name), blob_file_name(r->set, f)));
	if (info->format == SDSI_BLOB_FORMAT_CAP) {
		printf("CAP licence 0x%016" PRIx64 " revision %u (", info->id, info->revision);
		for (uint32_t k = 0; k < info->num_features; k++) {
			sdsi_fourcc(info->features[k], code);
			printf("%s%s", k ? " " : "", code);
		}
		printf(")");
	} else if (info->format == SDSI_BLOB_FORMAT_AKC) {
		printf("AKC key revision %u", info->key_revision);
	} else {
		printf("foreign %s, %zu bytes", sdsi_blob_name(r->set->kind), f->len);
	}
	switch (b->outcome) {
	case BLOB_WRITTEN:
		printf(": written\n");
		break;
	case BLOB_UNCHANGED:
		printf(": unchanged, already provisioned\n");
		break;
	case BLOB_PLANNED:
		printf(": would be written%s\n",
		       sdsi_preflight_unchanged(b->pf) ? " (already provisioned, sent because of --force)" : "");
		break;
	case BLOB_REFUSED:
		printf(": refused by the pre-flight checks\n");
		break;
	case BLOB_FAILED:
		printf(": failed\n");
		break;
	case BLOB_SKIPPED:
		printf(": skipped, not tried after the failure above\n");
		break;
	}
	/* A dry run is for seeing every check. */
	for (unsigned int i = 0; r->cli->dry_run && i < sdsi_preflight_num_checks(b->pf); i++)
		printf("        %-20s %-10s %s\n", sdsi_preflight_check_name(b->pf, i),
		       sdsi_check_status_name(sdsi_preflight_check_status(b->pf, i)),
		       sdsi_preflight_check_detail(b->pf, i));
}

static bool file_used(const struct fleet_report *r, size_t file)
{
	for (size_t i = 0; i < r->count; i++)
		if (socket_tried_file(&r->sockets[i], file))
			return true;
	return false;
}

static const char *text_outcome(const struct fleet_report *r, enum socket_outcome o)
{
	switch (o) {
	case SOCKET_PROVISIONED:
		return "provisioned";
	case SOCKET_PLANNED:
		return "would be provisioned";
	case SOCKET_UNCHANGED:
		return "unchanged, already provisioned";
	case SOCKET_NO_MATCH:
		return r->set->kind == SDSI_BLOB_CAP ? "no CAP bound to its PPIN" : "nothing to do";
	case SOCKET_FAILED:
		break;
	}
	return "failed";
}

void print_fleet_text(struct output *out, const struct fleet_report *r)
{
	const struct blob_set *set = r->set;
	char name[UTIL_TEXT_NAME_SIZE];
	bool header = false;

	fleet_diagnose(out, r);
	if (r->cli->dry_run)
		printf("Dry run: nothing is written\n");
	for (size_t i = 0; i < r->count; i++) {
		const struct socket_result *s = &r->sockets[i];

		if (!s->have_regs) {
			printf("%s: failed: %s\n", sdsi_device_name(s->dev),
			       util_text_name(name, sizeof(name), sdsi_error_message(s->err)));
			continue;
		}
		printf("%s (PPIN 0x%016" PRIx64 "): %s\n", sdsi_device_name(s->dev), s->regs.ppin,
		       text_outcome(r, s->outcome));
		for (size_t k = 0; k < s->nblobs; k++)
			text_blob_line(r, &s->blobs[k]);
	}
	for (size_t i = 0; set->kind == SDSI_BLOB_CAP && i < set->count; i++) {
		const struct blob_file *f = &set->files[i];

		if (f->usable && file_used(r, i))
			continue;
		if (!header)
			printf("Not used:\n");
		header = true;
		if (f->usable)
			printf("    %s: CAP bound to PPIN 0x%016" PRIx64 ", which no socket here has\n",
			       util_text_name(name, sizeof(name), blob_file_name(set, f)), f->info.ppin);
		else	/* the message names the file */
			printf("    %s\n", util_text_name(name, sizeof(name), sdsi_error_message(f->err)));
	}
	printf("%zu socket%s: %zu provisioned, %zu unchanged, ", r->count,
	       r->count == 1 ? "" : "s", r->totals[SOCKET_PROVISIONED],
	       r->totals[SOCKET_UNCHANGED]);
	if (r->cli->dry_run)
		printf("%zu would be provisioned, ", r->totals[SOCKET_PLANNED]);
	if (set->kind == SDSI_BLOB_CAP)
		printf("%zu without a matching CAP, ", r->totals[SOCKET_NO_MATCH]);
	printf("%zu failed\n", r->totals[SOCKET_FAILED]);
}
