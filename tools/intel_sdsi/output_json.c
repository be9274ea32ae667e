// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output: nothing but JSON on stdout, errors included.  The documents
 * are the contract of docs/schema/ (shared with sdsi-authority inspect): each
 * carries "schema_version" and, when it is about a device, "device"; 64-bit
 * values are fixed-width hex strings so no consumer loses precision; an
 * enumeration is its number and its name.  With --all, every device's
 * document (or error) is collected in device order and printed once at the end;
 * fleet provisioning (--all -a / -c) prints one document of all sockets.
 */
#include <inttypes.h>
#include <stdio.h>
#include <json-c/json.h>

#include "output.h"
#include "output_json.h"
#include "output_attest.h"
#include "sdsi/blob_kind.h"
#include "sdsi/license_type.h"
#include "fleet_report.h"
#include "util/util_escape.h"
#include "util/util_hex.h"

static json_object *hex64(uint64_t v)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%016" PRIx64, v);
	return json_object_new_string(text);
}

static json_object *hex32(uint32_t v)
{
	char text[16];

	snprintf(text, sizeof(text), "0x%08" PRIx32, v);
	return json_object_new_string(text);
}

/* Licence types as sdsi-authority names them; null for a value the format does not define. */
static json_object *type_name(uint32_t type)
{
	const char *name = sdsi_license_type_name(type);

	return name ? json_object_new_string(name) : NULL;
}

/* The blob kinds in lower case, as sdsi-authority inspect prints them. */
static const char *format_name(enum sdsi_blob_format format)
{
	return sdsi_payload_lower_name((enum sdsi_payload_kind)format);
}

static json_object *fourcc(uint32_t code)
{
	char text[5];

	sdsi_fourcc(code, text);
	return json_object_new_string(text);
}

static void add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add(obj, key, value);
}

static json_object *pair(const char *k1, json_object *v1, const char *k2, json_object *v2)
{
	json_object *obj = json_object_new_object();

	add(obj, k1, v1);
	add(obj, k2, v2);
	return obj;
}

static void json_begin_all(struct output *out)
{
	out->json_all = json_object_new_array();
	out->in_all = true;
}

static void json_end_all(struct output *out)
{
	json_object *obj = json_new_doc();

	out->in_all = false;
	add(obj, "results", out->json_all);
	json_emit(out, obj);
	out->json_all = NULL;
}

static void json_devices(struct output *out, struct sdsi_device *const *devs, size_t count)
{
	json_object *obj = json_new_doc(), *list = json_object_new_array();

	for (size_t i = 0; i < count; i++) {
		json_object *dev = json_object_new_object();

		add(dev, "device", json_object_new_string(sdsi_device_name(devs[i])));
		add(dev, "devno", json_object_new_int64(sdsi_device_devno(devs[i])));
		add(dev, "guid", sdsi_device_guid_valid(devs[i]) ? hex32(sdsi_device_guid(devs[i])) : NULL);
		json_object_array_add(list, dev);
	}
	add(obj, "devices", list);
	json_emit(out, obj);
}

static void json_info(struct output *out, const char *device, const struct sdsi_registers *r)
{
	json_object *obj = json_device_doc(out, device), *nvram = json_object_new_object();
	json_object *features = json_object_new_object();

	add(obj, "guid", hex32(r->guid));
	add(obj, "ppin", hex64(r->ppin));
	add(obj, "socket_id", json_object_new_int(r->socket_id));
	add(features, "on_demand", json_object_new_boolean(r->on_demand));
	add(features, "attestation", json_object_new_boolean(r->attestation));
	add(features, "metering", json_object_new_boolean(r->metering));
	add(obj, "features", features);
	add(obj, "akc_provisioned", json_object_new_boolean(r->akc_provisioned));
	add(obj, "akc_failures", pair("count", json_object_new_int(r->akc_fail_count),
				      "threshold", json_object_new_int(r->akc_fail_threshold)));
	add(obj, "cap_failures", pair("count", json_object_new_int(r->cap_fail_count),
				      "threshold", json_object_new_int(r->cap_fail_threshold)));
	add(obj, "updates", pair("available", json_object_new_int(r->updates_available),
				 "threshold", json_object_new_int(r->updates_threshold)));
	add(nvram, "50", json_object_new_boolean(r->nvram_50));
	add(nvram, "75", json_object_new_boolean(r->nvram_75));
	add(nvram, "90", json_object_new_boolean(r->nvram_90));
	add(obj, "nvram_limits", nvram);
	add(obj, "auth_errors", pair("content", json_object_new_boolean(r->content_auth_error),
				     "metering", json_object_new_boolean(r->metering_auth_error)));
	json_emit(out, obj);
}

static json_object *bundles(uint32_t count, uint32_t (*code_of)(const void *, uint32_t),
			    const void *from)
{
	json_object *list = json_object_new_array();

	for (uint32_t k = 0; k < count; k++) {
		json_object *bundle = json_object_new_object();

		add(bundle, "code", fourcc(code_of(from, k)));
		json_object_array_add(list, bundle);
	}
	return list;
}

static uint32_t license_code(const void *lic, uint32_t k)
{
	return sdsi_license_feature(lic, k);
}

static uint32_t blob_code(const void *blob, uint32_t k)
{
	return ((const struct sdsi_blob_info *)blob)->features[k];
}

/* The licence fields, named and encoded as sdsi-authority inspect's "license". */
static void add_license_fields(json_object *obj, uint32_t type, uint64_t id, uint64_t ppin,
			       uint64_t previous_ppin, uint32_t revision, json_object *list)
{
	add(obj, "type", json_object_new_int64(type));
	add(obj, "type_name", type_name(type));
	add(obj, "id", hex64(id));
	add(obj, "ppin", hex64(ppin));
	add(obj, "previous_ppin", hex64(previous_ppin));
	add(obj, "revision", json_object_new_int64(revision));
	add(obj, "bundles", list);
}

static json_object *json_license(const struct sdsi_license *lic)
{
	json_object *obj = json_object_new_object(), *license = NULL;

	add(obj, "index", json_object_new_int(lic->index));
	add(obj, "size", json_object_new_int64(lic->size));
	add(obj, "valid", json_object_new_boolean(lic->valid));
	if (lic->present) {
		license = json_object_new_object();
		add_license_fields(license, lic->type, lic->id, lic->ppin, lic->previous_ppin,
				   lic->revision, bundles(lic->num_features, license_code, lic));
	}
	add(obj, "license", license);
	return obj;
}

static void json_state(struct output *out, const char *device, const struct sdsi_state_cert *c)
{
	json_object *obj = json_device_doc(out, device), *licenses = json_object_new_array();
	char image[UTIL_KEY_IMAGE_HEX_SIZE(SDSI_KEY_IMAGE_SIZE)];

	add(obj, "content_type", json_object_new_int64(c->content_type));
	add(obj, "region_rev_id", json_object_new_int64(c->region_rev_id));
	add(obj, "header_size", json_object_new_int64((int64_t)c->header_size * 4));
	add(obj, "total_size", json_object_new_int64(c->total_size));
	add(obj, "key_size", json_object_new_int64((int64_t)c->key_size * 4));
	add(obj, "key_revision", c->key_present ? json_object_new_int64(c->key_rev_id) : NULL);
	util_hex_key_image(image, c->key_image, sizeof(c->key_image));
	add(obj, "key_image", c->key_present ? json_object_new_string(image) : NULL);
	for (uint32_t i = 0; i < c->num_licenses; i++)
		json_object_array_add(licenses, json_license(&c->licenses[i]));
	add(obj, "licenses", licenses);
	json_emit(out, obj);
}

static void json_meter(struct output *out, const char *device, const struct sdsi_meter_cert *c,
		       bool current)
{
	json_object *obj = json_device_doc(out, device), *counters = json_object_new_array();
	uint32_t enc, count;

	add(obj, "current", json_object_new_boolean(current));
	add(obj, "signature", fourcc(c->signature));
	add(obj, "version", json_object_new_int64(c->version));
	add(obj, "unit_ms", json_object_new_int64(c->unit_ms));
	add(obj, "ppin", hex64(c->ppin));
	add(obj, "mmrc", pair("encoding", fourcc(c->mmrc_encoding),
			      "counter", json_object_new_int64(c->mmrc_counter)));
	for (uint32_t i = 0; i < c->num_counters; i++) {
		sdsi_meter_counter(c, i, &enc, &count);
		json_object_array_add(counters, pair("feature", fourcc(enc),
						     "count", json_object_new_int64(count)));
	}
	add(obj, "counters", counters);
	json_emit(out, obj);
}

static json_object *json_blob(const struct sdsi_blob_info *b)
{
	json_object *obj, *part;
	char image[UTIL_KEY_IMAGE_HEX_SIZE(SDSI_KEY_IMAGE_SIZE)];

	if (b->format == SDSI_BLOB_FORMAT_FOREIGN)
		return NULL;
	obj = json_object_new_object();
	part = json_object_new_object();
	add(obj, "kind", json_object_new_string(format_name(b->format)));
	if (b->format == SDSI_BLOB_FORMAT_AKC) {
		util_hex_key_image(image, b->key_image, sizeof(b->key_image));
		add(part, "key_revision", json_object_new_int64(b->key_revision));
		add(part, "key_image", json_object_new_string(image));
		add(obj, "akc", part);
		return obj;
	}
	add_license_fields(part, b->type, b->id, b->ppin, b->previous_ppin, b->revision,
			   bundles(b->num_features, blob_code, b));
	add(obj, "license", part);
	return obj;
}

static json_object *json_checks(const struct sdsi_preflight *pf)
{
	json_object *list = json_object_new_array();

	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++) {
		const enum sdsi_check_status status = sdsi_preflight_check_status(pf, i);
		json_object *check = json_object_new_object();

		add(check, "name", json_object_new_string(sdsi_preflight_check_name(pf, i)));
		add(check, "result", json_object_new_string(sdsi_check_status_name(status)));
		add(check, "detail", json_object_new_string(sdsi_preflight_check_detail(pf, i)));
		json_object_array_add(list, check);
	}
	return list;
}

/* "format", "decoded" and "checks": what the pre-flight checks saw of blob. */
static void json_add_preflight(json_object *obj, const struct sdsi_blob_info *blob,
			       const struct sdsi_preflight *pf)
{
	add(obj, "format", json_object_new_string(format_name(blob->format)));
	add(obj, "decoded", json_blob(blob));
	add(obj, "checks", json_checks(pf));
}

static void json_provisioned(struct output *out, const struct provision_report *r)
{
	json_object *obj = json_new_doc();

	add(obj, "device", json_object_new_string(r->device));
	add(obj, "blob", json_object_new_string(r->kind == SDSI_BLOB_AKC ? "akc" : "cap"));
	add(obj, "file", json_object_new_string(r->blob_path));
	add(obj, "bytes", json_object_new_int64((int64_t)r->bytes));
	add(obj, "dry_run", json_object_new_boolean(r->dry_run));
	add(obj, "provisioned", json_object_new_boolean(r->written));
	add(obj, "unchanged", json_object_new_boolean(sdsi_preflight_unchanged(r->preflight)));
	add(obj, "forced", json_object_new_boolean(sdsi_preflight_forced(r->preflight)));
	json_add_preflight(obj, sdsi_preflight_blob_info(r->preflight), r->preflight);
	json_emit(out, obj);
}

static json_object *json_error_object(const struct sdsi_error *err)
{
	json_object *e = json_object_new_object();

	add(e, "errno", json_object_new_int(sdsi_error_errno(err)));
	add(e, "name", json_object_new_string(sdsi_errno_name(sdsi_error_errno(err))));
	add(e, "message", json_object_new_string(sdsi_error_message(err)));
	if (sdsi_error_offset(err) >= 0)
		add(e, "offset", json_object_new_int64(sdsi_error_offset(err)));
	return e;
}

/*
 * A refusal is an error like any other ({"error": {...}} and nothing else, the
 * contract), with what the pre-flight checks saw inside it.
 */
static void json_refused(struct output *out, const struct provision_report *r,
			 const struct sdsi_error *err)
{
	json_object *obj = json_device_doc(out, r->device), *e = json_error_object(err);
	json_object *preflight = json_object_new_object();

	out_error_message(sdsi_error_message(err));
	add(preflight, "dry_run", json_object_new_boolean(r->dry_run));
	json_add_preflight(preflight, sdsi_preflight_blob_info(r->preflight), r->preflight);
	add(e, "preflight", preflight);
	add(obj, "error", e);
	json_emit(out, obj);
}

static void json_error(struct output *out, const char *device, const struct sdsi_error *err)
{
	json_object *obj = json_device_doc(out, device);

	out_error_message(sdsi_error_message(err));
	add(obj, "error", json_error_object(err));
	json_emit(out, obj);
}

/* ---- the fleet provisioning document (--all -a / -c) -------------------- */

static json_object *json_blob_result(const struct fleet_report *r, const struct blob_result *b)
{
	const struct blob_file *f = &r->set->files[b->file];
	json_object *obj = json_object_new_object();
	const bool failed = b->outcome == BLOB_REFUSED || b->outcome == BLOB_FAILED;

	add(obj, "file", json_object_new_string(f->path));
	add(obj, "result", json_object_new_string(blob_outcome_name(b->outcome)));
	add(obj, "bytes", json_object_new_int64((int64_t)f->len));
	add(obj, "forced", json_object_new_boolean(sdsi_preflight_forced(b->pf)));
	/* A blob skipped was never checked: what it is comes from its file. */
	json_add_preflight(obj,
			   b->outcome == BLOB_SKIPPED ? &f->info : sdsi_preflight_blob_info(b->pf),
			   b->pf);
	add(obj, "error", failed ? json_error_object(b->err) : NULL);
	return obj;
}

static json_object *json_socket(const struct fleet_report *r, const struct socket_result *s)
{
	json_object *obj = json_object_new_object(), *blobs = json_object_new_array();
	const struct sdsi_error *err = socket_error(s);

	add(obj, "device", json_object_new_string(sdsi_device_name(s->dev)));
	add(obj, "ppin", s->have_regs ? hex64(s->regs.ppin) : NULL);
	add(obj, "result", json_object_new_string(socket_outcome_name(s->outcome)));
	for (size_t k = 0; k < s->nblobs; k++)
		json_object_array_add(blobs, json_blob_result(r, &s->blobs[k]));
	add(obj, "blobs", blobs);
	add(obj, "error", err ? json_error_object(err) : NULL);
	return obj;
}

static json_object *json_file(const struct fleet_report *r, size_t i)
{
	const struct blob_file *f = &r->set->files[i];
	json_object *obj = json_object_new_object(), *used_by = json_object_new_array();
	const bool cap = f->usable && f->info.format == SDSI_BLOB_FORMAT_CAP;

	add(obj, "file", json_object_new_string(f->path));
	add(obj, "usable", json_object_new_boolean(f->usable));
	/* What its magic says (a malformed CAP is still "cap"); null when unread. */
	add(obj, "format", f->bytes ? json_object_new_string(format_name(f->info.format)) : NULL);
	add(obj, "ppin", cap ? hex64(f->info.ppin) : NULL);
	for (size_t s = 0; s < r->count; s++)
		if (socket_tried_file(&r->sockets[s], i))
			json_object_array_add(used_by,
					      json_object_new_string(sdsi_device_name(r->sockets[s].dev)));
	add(obj, "used_by", used_by);
	add(obj, "error", f->usable ? NULL : json_error_object(f->err));
	return obj;
}

static void json_fleet(struct output *out, const struct fleet_report *r)
{
	json_object *doc = json_new_doc(), *devices = json_object_new_array();
	json_object *files = json_object_new_array(), *totals = json_object_new_object();

	fleet_diagnose(out, r);
	add(doc, "blob", json_object_new_string(r->set->kind == SDSI_BLOB_AKC ? "akc" : "cap"));
	add(doc, "source", json_object_new_string(r->set->source));
	add(doc, "dry_run", json_object_new_boolean(r->cli->dry_run));
	for (size_t i = 0; i < r->count; i++)
		json_object_array_add(devices, json_socket(r, &r->sockets[i]));
	add(doc, "results", devices);
	for (size_t i = 0; i < r->set->count; i++)
		json_object_array_add(files, json_file(r, i));
	add(doc, "files", files);
	add(totals, "sockets", json_object_new_int64((int64_t)r->count));
	for (int o = SOCKET_PROVISIONED; o <= SOCKET_FAILED; o++)
		add(totals, socket_outcome_name(o), json_object_new_int64((int64_t)r->totals[o]));
	add(doc, "summary", totals);
	util_json_print_document(doc);
	json_object_put(doc);
}

const struct output_ops json_output_ops = {
	OUTPUT_OPS_REQUIRED(json),
	.fleet = json_fleet,
	.attestation = json_attestation,
};
