// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output: nothing but JSON on stdout.  Key names are the contract of
 * docs/intel_sdsi.md; 64-bit values (PPIN, IDs, GUID, key image) are hex
 * strings so no consumer loses precision.  With --all, every device's object
 * (or error) is collected under its name and printed once at the end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <json-c/json.h>

#include "output.h"

static json_object *hex64(uint64_t v)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%" PRIx64, v);
	return json_object_new_string(text);
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

static void emit(struct output *out, const char *device, json_object *obj)
{
	if (out->in_all) {
		add(out->json_all, device ? device : "", obj);
		return;
	}
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
}

static void json_begin_all(struct output *out)
{
	out->json_all = json_object_new_object();
	out->in_all = true;
}

static void json_end_all(struct output *out)
{
	out->in_all = false;
	emit(out, NULL, out->json_all);
	out->json_all = NULL;
}

static void json_devices(struct output *out, const struct sdsi_device *devs, size_t count)
{
	json_object *obj = json_object_new_object(), *list = json_object_new_array();
	char guid[16];

	for (size_t i = 0; i < count; i++) {
		json_object *dev = json_object_new_object();

		add(dev, "name", json_object_new_string(devs[i].name));
		add(dev, "devno", json_object_new_int64(devs[i].devno));
		snprintf(guid, sizeof(guid), "0x%x", devs[i].guid);
		add(dev, "guid", devs[i].guid_valid ? json_object_new_string(guid) : NULL);
		json_object_array_add(list, dev);
	}
	add(obj, "devices", list);
	emit(out, NULL, obj);
}

static void json_info(struct output *out, const char *device, const struct sdsi_registers *r)
{
	json_object *obj = json_object_new_object(), *nvram = json_object_new_object();
	json_object *features = json_object_new_object();
	char guid[16];

	snprintf(guid, sizeof(guid), "0x%x", r->guid);
	add(obj, "device", device ? json_object_new_string(device) : NULL);
	add(obj, "guid", json_object_new_string(guid));
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
	emit(out, device, obj);
}

static json_object *json_license(const struct sdsi_license *lic)
{
	json_object *obj = json_object_new_object(), *features = json_object_new_array();
	const bool p = lic->present;

	add(obj, "index", json_object_new_int(lic->index));
	add(obj, "size", json_object_new_int64(lic->size));
	add(obj, "valid", json_object_new_boolean(lic->valid));
	add(obj, "type", p ? json_object_new_int64(lic->type) : NULL);
	add(obj, "id", p ? hex64(lic->id) : NULL);
	add(obj, "ppin", p ? hex64(lic->ppin) : NULL);
	add(obj, "previous_ppin", p ? hex64(lic->previous_ppin) : NULL);
	add(obj, "revision", p ? json_object_new_int64(lic->revision) : NULL);
	for (uint32_t k = 0; p && k < lic->num_features; k++)
		json_object_array_add(features, fourcc(sdsi_license_feature(lic, k)));
	add(obj, "features", features);
	return obj;
}

static void json_state(struct output *out, const char *device, const struct sdsi_state_cert *c)
{
	json_object *obj = json_object_new_object(), *licenses = json_object_new_array();
	char image[2 + 96 + 1];

	add(obj, "content_type", json_object_new_int64(c->content_type));
	add(obj, "region_rev_id", json_object_new_int64(c->region_rev_id));
	add(obj, "header_size", json_object_new_int64((int64_t)c->header_size * 4));
	add(obj, "total_size", json_object_new_int64(c->total_size));
	add(obj, "key_size", json_object_new_int64((int64_t)c->key_size * 4));
	add(obj, "key_rev_id", c->key_present ? json_object_new_int64(c->key_rev_id) : NULL);
	format_key_image(c->key_image, image);
	add(obj, "key_image", c->key_present ? json_object_new_string(image) : NULL);
	for (uint32_t i = 0; i < c->num_licenses; i++)
		json_object_array_add(licenses, json_license(&c->licenses[i]));
	add(obj, "licenses", licenses);
	emit(out, device, obj);
}

static void json_meter(struct output *out, const char *device, const struct sdsi_meter_cert *c,
		       bool current)
{
	json_object *obj = json_object_new_object(), *counters = json_object_new_array();
	uint32_t enc, count;

	(void)current;
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
	emit(out, device, obj);
}

static json_object *json_blob(const struct sdsi_blob_info *b)
{
	json_object *obj, *features;
	char image[2 + 96 + 1];

	if (b->format == SDSI_BLOB_FORMAT_FOREIGN)
		return NULL;
	obj = json_object_new_object();
	add(obj, "kind", json_object_new_string(sdsi_blob_format_name(b->format)));
	if (b->format == SDSI_BLOB_FORMAT_AKC) {
		format_key_image(b->key_image, image);
		add(obj, "key_rev_id", json_object_new_int64(b->key_revision));
		add(obj, "key_image", json_object_new_string(image));
		return obj;
	}
	features = json_object_new_array();
	add(obj, "type", json_object_new_int64(b->type));
	add(obj, "id", hex64(b->id));
	add(obj, "ppin", hex64(b->ppin));
	add(obj, "previous_ppin", hex64(b->previous_ppin));
	add(obj, "revision", json_object_new_int64(b->revision));
	for (uint32_t k = 0; k < b->num_features; k++)
		json_object_array_add(features, fourcc(b->features[k]));
	add(obj, "features", features);
	return obj;
}

static json_object *json_checks(const struct sdsi_preflight *pf)
{
	json_object *list = json_object_new_array();

	for (unsigned int i = 0; i < pf->num_checks; i++) {
		const struct sdsi_check *c = &pf->checks[i];
		json_object *check = json_object_new_object();

		add(check, "name", json_object_new_string(c->name));
		add(check, "result", json_object_new_string(sdsi_check_status_name(c->status)));
		add(check, "detail", json_object_new_string(c->detail));
		json_object_array_add(list, check);
	}
	return list;
}

/* "format", "decoded" and "checks": what the pre-flight checks saw. */
static void add_preflight(json_object *obj, const struct sdsi_preflight *pf)
{
	add(obj, "format", json_object_new_string(sdsi_blob_format_name(pf->blob.format)));
	add(obj, "decoded", json_blob(&pf->blob));
	add(obj, "checks", json_checks(pf));
}

static void json_provisioned(struct output *out, const struct provision_report *r)
{
	json_object *obj = json_object_new_object();

	add(obj, "device", json_object_new_string(r->device));
	add(obj, "blob", json_object_new_string(sdsi_blob_name(r->kind)));
	add(obj, "file", json_object_new_string(r->blob_path));
	add(obj, "bytes", json_object_new_int64((int64_t)r->bytes));
	add(obj, "dry_run", json_object_new_boolean(r->dry_run));
	add(obj, "provisioned", json_object_new_boolean(r->written));
	add(obj, "unchanged", json_object_new_boolean(r->preflight->unchanged));
	add(obj, "forced", json_object_new_boolean(r->preflight->forced));
	add_preflight(obj, r->preflight);
	emit(out, r->device, obj);
}

static json_object *error_object(const struct sdsi_error *err)
{
	json_object *e = json_object_new_object();

	add(e, "errno", json_object_new_int(err->errnum));
	add(e, "name", json_object_new_string(sdsi_errno_name(err->errnum)));
	add(e, "message", json_object_new_string(err->message));
	return e;
}

/*
 * A refusal is an error like any other ({"error": {...}} and nothing else, the
 * contract), with what the pre-flight checks saw inside it.
 */
static void json_refused(struct output *out, const struct provision_report *r,
			 const struct sdsi_error *err)
{
	json_object *obj = json_object_new_object(), *e = error_object(err);
	json_object *preflight = json_object_new_object();

	fprintf(stderr, "intel_sdsi: %s\n", err->message);
	add(preflight, "device", json_object_new_string(r->device));
	add(preflight, "dry_run", json_object_new_boolean(r->dry_run));
	add_preflight(preflight, r->preflight);
	add(e, "preflight", preflight);
	add(obj, "error", e);
	emit(out, r->device, obj);
}

static void json_error(struct output *out, const char *device, const struct sdsi_error *err)
{
	json_object *obj = json_object_new_object();

	fprintf(stderr, "intel_sdsi: %s\n", err->message);
	add(obj, "error", error_object(err));
	emit(out, device, obj);
}

const struct output_ops json_output_ops = {
	.begin_all = json_begin_all,
	.end_all = json_end_all,
	.devices = json_devices,
	.info = json_info,
	.state = json_state,
	.meter = json_meter,
	.provisioned = json_provisioned,
	.refused = json_refused,
	.error = json_error,
};
