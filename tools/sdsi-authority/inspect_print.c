// SPDX-License-Identifier: GPL-2.0-only
/*
 * Printers of `sdsi-authority inspect`.  Text for people (errors on stderr),
 * JSON for programs (everything, errors included, as one object on stdout),
 * in the contract intel_sdsi shares (docs/schema/inspect.json, error.json):
 * 64-bit values as fixed-width hex strings, the licence type as its number
 * and its name, bundles as objects, the key image byte 47 first.
 */
#define _GNU_SOURCE	/* strerrorname_np */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "sdsi/json_contract.h"
#include "authority.h"
#include "inspect.h"
#include "util/util_escape.h"

#define PUBKEY_HEX	(2 * SDSI_LICENSE_PUBKEY_SIZE + 1)
#define SIG_HEX		(2 * SDSI_LICENSE_SIG_SIZE + 1)
#define RESERVED_HEX	(2 * SDSI_BUNDLE_RESERVED_SIZE + 1)

static const char *kind_title(enum sdsi_payload_kind kind)
{
	return kind == SDSI_PAYLOAD_FOREIGN ? "foreign blob" : sdsi_payload_name(kind);
}

static bool reserved_set(const struct sdsi_lic_bundle *bundle)
{
	size_t i;

	for (i = 0; i < SDSI_BUNDLE_RESERVED_SIZE; i++)
		if (bundle->reserved[i])
			return true;
	return false;
}

/* The key image in the order intel_sdsi -s prints it (util_hex_key_image). */
static bool image_hex(const struct sdsi_lic_akc *akc, char out[AUTH_KEY_IMAGE_HEX])
{
	uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE];

	if (sdsi_lic_key_image(akc->licensor_key, image)) {
		strcpy(out, "unavailable");
		return false;
	}
	util_hex_key_image(out, image, SDSI_LICENSE_KEY_IMAGE_SIZE);
	return true;
}

static void print_akc_text(const struct sdsi_lic_akc *akc)
{
	char hex[PUBKEY_HEX];

	printf("key revision:      %u\n", akc->key_revision);
	util_hex(hex, akc->licensor_key, SDSI_LICENSE_PUBKEY_SIZE / 2);
	printf("licensor key X:    %s\n", hex);
	util_hex(hex, akc->licensor_key + SDSI_LICENSE_PUBKEY_SIZE / 2,
		 SDSI_LICENSE_PUBKEY_SIZE / 2);
	printf("licensor key Y:    %s\n", hex);
	image_hex(akc, hex);
	printf("license key image: %s\n", hex);
}

static void print_license_text(const struct sdsi_lic_blob *lic)
{
	char code[5], hex[RESERVED_HEX];
	uint32_t i;

	printf("licence type:      %s (%u)\n", sdsi_lic_type_name(lic->type),
	       lic->type);
	printf("licence id:        0x%016llx\n", (unsigned long long)lic->id);
	printf("ppin:              0x%016llx\n", (unsigned long long)lic->ppin);
	printf("previous ppin:     0x%016llx\n",
	       (unsigned long long)lic->previous_ppin);
	printf("revision:          %u\n", lic->revision);
	printf("bundles:           %u\n", lic->bundle_count);
	for (i = 0; i < lic->bundle_count; i++) {
		sdsi_lic_code_format(lic->bundles[i].code, code);
		printf("  bundle %-2u        %s", i, code);
		if (reserved_set(&lic->bundles[i])) {
			util_hex(hex, lic->bundles[i].reserved,
				 SDSI_BUNDLE_RESERVED_SIZE);
			printf("  reserved %s", hex);
		}
		putchar('\n');
	}
}

void inspect_print_text(const struct inspect_report *rep)
{
	char shown[UTIL_TEXT_NAME_SIZE];
	const struct sdsi_lic_error *err;
	char sig[SIG_HEX];

	if (rep->failure[0]) {
		auth_error("%s", rep->failure);
		return;
	}
	printf("file:              %s (%zu bytes)\n", util_text_name(shown, sizeof(shown), rep->file),
	       rep->size);
	printf("kind:              %s\n", kind_title(rep->kind));
	if (!rep->decoded) {
		err = &rep->decode_err;
		if (rep->kind == SDSI_PAYLOAD_FOREIGN)
			auth_error("%s: not decodable at offset %zu (0x%zx): %s",
				   rep->file, err->offset, err->offset, err->reason);
		else
			auth_error("%s: invalid %s at offset %zu (0x%zx): %s",
				   rep->file, kind_title(rep->kind), err->offset,
				   err->offset, err->reason);
		return;
	}
	printf("format version:    %u\n", SDSI_LICENSE_FORMAT_VERSION);
	if (rep->kind == SDSI_PAYLOAD_AKC)
		print_akc_text(&rep->akc);
	else
		print_license_text(&rep->cap.license);
	util_hex(sig, rep->kind == SDSI_PAYLOAD_AKC ? rep->akc.signature :
		 rep->cap.signature, SDSI_LICENSE_SIG_SIZE);
	printf("signature (r||s):  %s\n", sig);
	if (!rep->verified)
		printf("signature check:   not done (no --dir)\n");
	else if (rep->valid)
		printf("signature check:   valid (%s)\n", rep->key_path);
	else
		printf("signature check:   INVALID (%s): %s\n", rep->key_path,
		       rep->verify_err.reason);
}

static json_object *hex_string(const uint8_t *bytes, size_t len)
{
	char hex[2 * SDSI_LICENSE_BLOB_MAX + 1];

	util_hex(hex, bytes, len);
	return json_object_new_string(hex);
}

/* "name" and "errno" of an error object, when the errno is known. */
static void add_errno(json_object *obj, int errnum)
{
	const char *name = errnum > 0 ? strerrorname_np(errnum) : NULL;

	if (!name)
		return;
	json_object_object_add(obj, "errno", json_object_new_int(errnum));
	json_object_object_add(obj, "name", json_object_new_string(name));
}

static json_object *u64_string(uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%016llx", (unsigned long long)value);
	return json_object_new_string(text);
}

static json_object *akc_json(const struct sdsi_lic_akc *akc)
{
	json_object *obj = json_object_new_object();
	char image[AUTH_KEY_IMAGE_HEX];
	bool have_image = image_hex(akc, image);

	json_object_object_add(obj, "key_revision", json_object_new_int64(akc->key_revision));
	json_object_object_add(obj, "key_image", have_image ? json_object_new_string(image) : NULL);
	json_object_object_add(obj, "licensor_key", hex_string(akc->licensor_key, SDSI_LICENSE_PUBKEY_SIZE));
	return obj;
}

static json_object *license_json(const struct sdsi_lic_blob *lic)
{
	json_object *obj = json_object_new_object();
	json_object *bundles = json_object_new_array();
	json_object *bundle;
	char code[5];
	uint32_t i;

	const char *type_name = sdsi_lic_type_name(lic->type);

	json_object_object_add(obj, "type", json_object_new_int64(lic->type));
	json_object_object_add(obj, "type_name", type_name ? json_object_new_string(type_name) : NULL);
	json_object_object_add(obj, "id", u64_string(lic->id));
	json_object_object_add(obj, "ppin", u64_string(lic->ppin));
	json_object_object_add(obj, "previous_ppin", u64_string(lic->previous_ppin));
	json_object_object_add(obj, "revision", json_object_new_int64(lic->revision));
	for (i = 0; i < lic->bundle_count; i++) {
		bundle = json_object_new_object();
		sdsi_lic_code_format(lic->bundles[i].code, code);
		json_object_object_add(bundle, "code", json_object_new_string(code));
		json_object_object_add(bundle, "reserved",
				       hex_string(lic->bundles[i].reserved, SDSI_BUNDLE_RESERVED_SIZE));
		json_object_array_add(bundles, bundle);
	}
	json_object_object_add(obj, "bundles", bundles);
	return obj;
}

static json_object *error_json(const struct sdsi_lic_error *err)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "message", json_object_new_string(err->reason));
	if (err->offset != SDSI_LIC_NO_OFFSET)
		json_object_object_add(obj, "offset", json_object_new_int64((int64_t)err->offset));
	return obj;
}

void inspect_print_json(const struct inspect_report *rep)
{
	json_object *root = json_object_new_object();
	json_object *check, *failure;

	json_object_object_add(root, "schema_version", json_object_new_string(SDSI_JSON_SCHEMA_VERSION));
	json_object_object_add(root, "file", json_object_new_string(rep->file));
	if (rep->failure[0]) {
		/* inspect could not run: an error document (error.json), on stderr too. */
		auth_error("%s", rep->failure);
		failure = json_object_new_object();
		add_errno(failure, rep->failure_errno);
		json_object_object_add(failure, "message", json_object_new_string(rep->failure));
		json_object_object_add(root, "error", failure);
		goto print;
	}
	json_object_object_add(root, "size", json_object_new_int64((int64_t)rep->size));
	json_object_object_add(root, "kind", json_object_new_string(sdsi_lic_kind_name(rep->kind)));
	json_object_object_add(root, "well_formed", json_object_new_boolean(rep->decoded));
	if (!rep->decoded) {
		json_object_object_add(root, "error", error_json(&rep->decode_err));
		goto print;
	}
	json_object_object_add(root, "format_version", json_object_new_int64(SDSI_LICENSE_FORMAT_VERSION));
	if (rep->kind == SDSI_PAYLOAD_AKC) {
		json_object_object_add(root, "akc", akc_json(&rep->akc));
		json_object_object_add(root, "signature", hex_string(rep->akc.signature, SDSI_LICENSE_SIG_SIZE));
	} else {
		json_object_object_add(root, "license", license_json(&rep->cap.license));
		json_object_object_add(root, "signature", hex_string(rep->cap.signature, SDSI_LICENSE_SIG_SIZE));
	}
	if (rep->verified) {
		check = json_object_new_object();
		json_object_object_add(check, "key", json_object_new_string(rep->key_path));
		json_object_object_add(check, "valid", json_object_new_boolean(rep->valid));
		if (!rep->valid)
			json_object_object_add(check, "error", error_json(&rep->verify_err));
		json_object_object_add(root, "verification", check);
	}
print:
	util_json_print_document(root);
	json_object_put(root);
}

void inspect_print_usage_json(const char *message)
{
	json_object *root = json_object_new_object(), *err = json_object_new_object();

	json_object_object_add(root, "schema_version", json_object_new_string(SDSI_JSON_SCHEMA_VERSION));
	json_object_object_add(root, "file", NULL);
	add_errno(err, EINVAL);
	json_object_object_add(err, "message", json_object_new_string(message));
	json_object_object_add(root, "error", err);
	util_json_print_document(root);
	json_object_put(root);
}
