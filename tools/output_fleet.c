// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fleet provisioning report (fleet_report.h), as text or as one JSON
 * document: the sockets in device order, each with the blobs tried on it,
 * then the files no socket used, then the totals.  Failures and files that
 * cannot be used are also said on stderr, as every error of intel_sdsi is.
 */
#include <inttypes.h>
#include <stdio.h>

#include "fleet_report.h"
#include "output_json.h"
#include "name_escape.h"

static void diagnose(const struct output *out, const struct fleet_report *r)
{
	const struct blob_set *set = r->set;
	const struct sdsi_error *err;

	for (size_t i = 0; i < r->count; i++) {
		const struct socket_result *s = &r->sockets[i];

		if (s->state_warning.errnum)
			out_warn(out, "%s: %s; the comparison with what is provisioned is skipped",
				 s->dev.name, s->state_warning.message);
		for (size_t k = 0; k < s->nblobs; k++) {
			const struct blob_result *b = &s->blobs[k];
			const char *file = set->files[b->file].path;

			for (unsigned int c = 0; c < b->pf.num_checks; c++)
				out_note(out, "%s: %s: check %s: %s: %s", s->dev.name, file,
					 b->pf.checks[c].name,
					 sdsi_check_status_name(b->pf.checks[c].status),
					 b->pf.checks[c].detail);
			if (b->pf.last_attempt && b->outcome != BLOB_SKIPPED)
				out_warn(out, "%s: warning: %s", s->dev.name, b->pf.warning);
		}
		err = socket_error(s);
		if (err)
			out_error_message(err->message);
	}
	for (size_t i = 0; i < set->count; i++)
		if (!set->files[i].usable)
			out_warn(out, "%s; not used", set->files[i].err.message);
}

/* The sockets file i of the set was for. */
static size_t users(const struct fleet_report *r, size_t file, json_object *names)
{
	size_t n = 0;

	for (size_t i = 0; i < r->count; i++)
		for (size_t k = 0; k < r->sockets[i].nblobs; k++)
			if (r->sockets[i].blobs[k].file == file) {
				n++;
				if (names)
					json_object_array_add(names, json_object_new_string(
						r->sockets[i].dev.name));
			}
	return n;
}

/* ---- text --------------------------------------------------------------- */

static void text_blob_line(const struct fleet_report *r, const struct blob_result *b)
{
	const struct blob_file *f = &r->set->files[b->file];
	const struct sdsi_blob_info *info = &f->info;
	char code[5], name[TEXT_NAME_SIZE];

	printf("    %s: ", text_name(name, sizeof(name), blob_file_name(r->set, f)));
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
		       b->pf.unchanged ? " (already provisioned, sent because of --force)" : "");
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
	for (unsigned int i = 0; r->cli->dry_run && i < b->pf.num_checks; i++)
		printf("        %-20s %-10s %s\n", b->pf.checks[i].name,
		       sdsi_check_status_name(b->pf.checks[i].status), b->pf.checks[i].detail);
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

void print_fleet_text(const struct output *out, const struct fleet_report *r)
{
	const struct blob_set *set = r->set;
	char name[TEXT_NAME_SIZE];
	bool header = false;

	diagnose(out, r);
	if (r->cli->dry_run)
		printf("Dry run: nothing is written\n");
	for (size_t i = 0; i < r->count; i++) {
		const struct socket_result *s = &r->sockets[i];

		if (!s->have_regs) {
			printf("%s: failed: %s\n", s->dev.name,
			       text_name(name, sizeof(name), s->err.message));
			continue;
		}
		printf("%s (PPIN 0x%016" PRIx64 "): %s\n", s->dev.name, s->regs.ppin,
		       text_outcome(r, s->outcome));
		for (size_t k = 0; k < s->nblobs; k++)
			text_blob_line(r, &s->blobs[k]);
	}
	for (size_t i = 0; set->kind == SDSI_BLOB_CAP && i < set->count; i++) {
		const struct blob_file *f = &set->files[i];

		if (f->usable && users(r, i, NULL))
			continue;
		if (!header)
			printf("Not used:\n");
		header = true;
		if (f->usable)
			printf("    %s: CAP bound to PPIN 0x%016" PRIx64 ", which no socket here has\n",
			       text_name(name, sizeof(name), blob_file_name(set, f)), f->info.ppin);
		else	/* the message names the file */
			printf("    %s\n", text_name(name, sizeof(name), f->err.message));
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

/* ---- JSON --------------------------------------------------------------- */

static json_object *json_blob_result(const struct fleet_report *r, const struct blob_result *b)
{
	const struct blob_file *f = &r->set->files[b->file];
	json_object *obj = json_object_new_object();
	const bool failed = b->outcome == BLOB_REFUSED || b->outcome == BLOB_FAILED;

	json_object_object_add(obj, "file", json_object_new_string(f->path));
	json_object_object_add(obj, "result",
			       json_object_new_string(blob_outcome_name(b->outcome)));
	json_object_object_add(obj, "bytes", json_object_new_int64((int64_t)f->len));
	json_object_object_add(obj, "forced", json_object_new_boolean(b->pf.forced));
	json_add_preflight(obj, &b->pf);
	json_object_object_add(obj, "error", failed ? json_error_object(&b->err) : NULL);
	return obj;
}

static json_object *json_socket(const struct fleet_report *r, const struct socket_result *s)
{
	json_object *obj = json_object_new_object(), *blobs = json_object_new_array();
	const struct sdsi_error *err = socket_error(s);

	json_object_object_add(obj, "device", json_object_new_string(s->dev.name));
	json_object_object_add(obj, "ppin", s->have_regs ? json_contract_hex64(s->regs.ppin) : NULL);
	json_object_object_add(obj, "result",
			       json_object_new_string(socket_outcome_name(s->outcome)));
	for (size_t k = 0; k < s->nblobs; k++)
		json_object_array_add(blobs, json_blob_result(r, &s->blobs[k]));
	json_object_object_add(obj, "blobs", blobs);
	json_object_object_add(obj, "error", err ? json_error_object(err) : NULL);
	return obj;
}

static json_object *json_file(const struct fleet_report *r, size_t i)
{
	const struct blob_file *f = &r->set->files[i];
	json_object *obj = json_object_new_object(), *used_by = json_object_new_array();
	const bool cap = f->usable && f->info.format == SDSI_BLOB_FORMAT_CAP;

	json_object_object_add(obj, "file", json_object_new_string(f->path));
	json_object_object_add(obj, "usable", json_object_new_boolean(f->usable));
	/* What its magic says (a malformed CAP is still "cap"); null when unread. */
	json_object_object_add(obj, "format", f->bytes ?
			       json_object_new_string(json_contract_kind(f->info.format)) : NULL);
	json_object_object_add(obj, "ppin", cap ? json_contract_hex64(f->info.ppin) : NULL);
	users(r, i, used_by);
	json_object_object_add(obj, "used_by", used_by);
	json_object_object_add(obj, "error", f->usable ? NULL : json_error_object(&f->err));
	return obj;
}

void print_fleet_json(const struct output *out, const struct fleet_report *r)
{
	json_object *doc = json_contract_doc(), *devices = json_object_new_array();
	json_object *files = json_object_new_array(), *totals = json_object_new_object();

	diagnose(out, r);
	json_object_object_add(doc, "blob", json_object_new_string(
		r->set->kind == SDSI_BLOB_AKC ? "akc" : "cap"));
	json_object_object_add(doc, "source", json_object_new_string(r->set->source));
	json_object_object_add(doc, "dry_run", json_object_new_boolean(r->cli->dry_run));
	for (size_t i = 0; i < r->count; i++)
		json_object_array_add(devices, json_socket(r, &r->sockets[i]));
	json_object_object_add(doc, "results", devices);
	for (size_t i = 0; i < r->set->count; i++)
		json_object_array_add(files, json_file(r, i));
	json_object_object_add(doc, "files", files);
	json_object_object_add(totals, "sockets", json_object_new_int64((int64_t)r->count));
	for (int o = SOCKET_PROVISIONED; o <= SOCKET_FAILED; o++)
		json_object_object_add(totals, socket_outcome_name(o),
				       json_object_new_int64((int64_t)r->totals[o]));
	json_object_object_add(doc, "summary", totals);
	json_print_document(doc);
	json_object_put(doc);
}
