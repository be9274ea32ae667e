// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text output with the upstream tool's labels and layout (values at column
 * 32 for -i), minus its typos and its duplicated "On Demand" line.  The key
 * image is printed zero-padded, qword by qword, so it is unambiguous.
 */
#include <inttypes.h>
#include <stdio.h>

#include "util/util_escape.h"
#include "util/util_hex.h"
#include "output.h"
#include "output_attest.h"
#include "sdsi/license_type.h"
#include "fleet_report.h"

static const char *yes_no(bool v)
{
	return v ? "Yes" : "No";
}

static const char *enabled(bool v)
{
	return v ? "Enabled" : "Disabled";
}

static void header(const struct output *out, const char *what, const char *device)
{
	char name[UTIL_TEXT_NAME_SIZE];

	if (device)
		printf("\n%s for device %s\n\n", what, device);
	else
		printf("\n%s from file %s\n\n", what, util_text_name(name, sizeof(name), out->file));
}

#define INFO_FMT "%-32s"

static void row_str(const char *label, const char *value)
{
	printf(INFO_FMT "%s\n", label, value);
}

static void row_uint(const char *label, unsigned int value)
{
	printf(INFO_FMT "%u\n", label, value);
}

static void text_info(struct output *out, const char *device, const struct sdsi_registers *r)
{
	header(out, "Socket information", device);
	printf(INFO_FMT "0x%016" PRIx64 "\n", "PPIN:", r->ppin);
	printf("NVRAM Content Authorization Error Status\n");
	row_str("    SDSi Auth Err Sts:", r->content_auth_error ? "Error" : "Okay");
	if (r->metering)
		row_str("    Metering Auth Err Sts:", r->metering_auth_error ? "Error" : "Okay");
	printf("Enabled Features\n");
	row_str("    On Demand:", enabled(r->on_demand));
	row_str("    Attestation:", enabled(r->attestation));
	row_str("    Metering:", enabled(r->metering));
	row_str("License Key (AKC) Provisioned:", yes_no(r->akc_provisioned));
	printf("Authorization Failure Count\n");
	row_uint("    AKC Failure Count:", r->akc_fail_count);
	row_uint("    AKC Failure Threshold:", r->akc_fail_threshold);
	row_uint("    CAP Failure Count:", r->cap_fail_count);
	row_uint("    CAP Failure Threshold:", r->cap_fail_threshold);
	printf("Provisioning Availability\n");
	row_uint("    Updates Available:", r->updates_available);
	row_uint("    Updates Threshold:", r->updates_threshold);
	printf("NVRAM Update Limit\n");
	row_str("    50% Limit Reached:", yes_no(r->nvram_50));
	row_str("    75% Limit Reached:", yes_no(r->nvram_75));
	row_str("    90% Limit Reached:", yes_no(r->nvram_90));
	row_uint("Socket ID:", r->socket_id);
}

static const char *content_type_text(uint32_t type)
{
	switch (type) {
	case 0x0:
		return "Empty (nothing provisioned)";
	case 0xd:
		return "License key encoding";
	case 0xe:
		return "License key + Blob encoding";
	default:
		return NULL;
	}
}

static const char *blob_type_text(uint32_t type)
{
	return sdsi_license_type_text(type);
}

static void text_license(const struct sdsi_license *lic)
{
	char code[5];

	printf("     Blob %u:\n", lic->index);
	printf("        License blob size:          %u\n", lic->size);
	printf("        License is valid:           %s\n", yes_no(lic->valid));
	if (!lic->present) {
		printf("        (no license blob content provisioned)\n");
		return;
	}
	printf("        License blob type:          %s\n", blob_type_text(lic->type));
	printf("        License blob ID:            0x%016" PRIx64 "\n", lic->id);
	printf("        PPIN:                       0x%016" PRIx64 "\n", lic->ppin);
	printf("        Previous PPIN:              0x%016" PRIx64 "\n", lic->previous_ppin);
	printf("        Blob revision ID:           %u\n", lic->revision);
	printf("        Number of Features:         %u\n", lic->num_features);
	for (uint32_t k = 0; k < lic->num_features; k++) {
		sdsi_fourcc(sdsi_license_feature(lic, k), code);
		printf("                 Feature %u:         %s\n", k, code);
	}
}

static void text_state(struct output *out, const char *device, const struct sdsi_state_cert *c)
{
	char image[UTIL_KEY_IMAGE_HEX_SIZE(SDSI_KEY_IMAGE_SIZE)];

	header(out, "State certificate", device);
	if (content_type_text(c->content_type))
		printf("Content Type:          %s\n", content_type_text(c->content_type));
	else
		printf("Content Type:          Unknown content type (0x%x)\n", c->content_type);
	printf("Region Revision ID:    %u\n", c->region_rev_id);
	printf("Header Size:           %llu\n", (unsigned long long)c->header_size * 4);
	printf("Total Size:            %u\n", c->total_size);
	printf("OEM Key Size:          %llu\n", (unsigned long long)c->key_size * 4);
	printf("Number of Licenses:    %u\n", c->num_licenses);
	printf("License blob Info:\n");
	if (!c->key_present) {
		printf("    (no license key provisioned)\n");
		return;
	}
	util_hex_key_image(image, c->key_image, sizeof(c->key_image));
	printf("    License Key Revision ID:    0x%x\n", c->key_rev_id);
	printf("    License Key Image Content:  %s\n", image);
	for (uint32_t i = 0; i < c->num_licenses; i++)
		text_license(&c->licenses[i]);
}

static void text_meter(struct output *out, const char *device, const struct sdsi_meter_cert *c,
		       bool current)
{
	uint32_t enc, count;
	char code[5];

	header(out, current ? "Current meter values" : "Meter certificate", device);
	sdsi_fourcc(c->signature, code);
	printf("Signature:                    %s\n", code);
	printf("Version:                      %u\n", c->version);
	printf("Count Unit:                   %ums\n", c->unit_ms);
	printf("PPIN:                         0x%016" PRIx64 "\n", c->ppin);
	printf("Feature Bundle Length:        %u\n", c->bundle_length);
	sdsi_fourcc(c->mmrc_encoding, code);
	printf("MMRC encoding:                %s\n", code);
	printf("MMRC counter:                 %u\n", c->mmrc_counter);
	printf("Number of Feature Counters:   %u\n", c->num_counters);
	for (uint32_t i = 0; i < c->num_counters; i++) {
		sdsi_meter_counter(c, i, &enc, &count);
		sdsi_fourcc(enc, code);
		printf("    %s:          %u\n", code, count);
	}
}

static void text_devices(struct output *out, struct sdsi_device *const *devs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		printf("%s\n", sdsi_device_name(devs[i]));
	(void)out;	/* none found: cmd_list says where it looked */
}

static void text_blob(FILE *f, const struct sdsi_blob_info *b)
{
	char image[UTIL_KEY_IMAGE_HEX_SIZE(SDSI_KEY_IMAGE_SIZE)], code[5];

	if (b->format == SDSI_BLOB_FORMAT_FOREIGN) {
		fprintf(f, "Blob: foreign (not the sdsi AKC/CAP format), %zu bytes: not decoded\n",
			b->size);
		return;
	}
	fprintf(f, "Blob: %s (%s), %zu bytes\n", sdsi_blob_format_name(b->format),
		b->format == SDSI_BLOB_FORMAT_AKC ? "sdsi format" : "licence blob layout", b->size);
	if (b->format == SDSI_BLOB_FORMAT_AKC) {
		util_hex_key_image(image, b->key_image, sizeof(b->key_image));
		fprintf(f, "    License Key Revision ID:    0x%x\n", b->key_revision);
		fprintf(f, "    License Key Image Content:  %s\n", image);
		return;
	}
	fprintf(f, "    License blob type:          %s\n", blob_type_text(b->type));
	fprintf(f, "    License blob ID:            0x%016" PRIx64 "\n", b->id);
	fprintf(f, "    PPIN:                       0x%016" PRIx64 "\n", b->ppin);
	fprintf(f, "    Previous PPIN:              0x%016" PRIx64 "\n", b->previous_ppin);
	fprintf(f, "    Blob revision ID:           %u\n", b->revision);
	fprintf(f, "    Number of Features:         %u\n", b->num_features);
	for (uint32_t k = 0; k < b->num_features; k++) {
		sdsi_fourcc(b->features[k], code);
		fprintf(f, "             Feature %u:         %s\n", k, code);
	}
}

/* The decoded blob and every check: what --dry-run is for. */
static void text_preflight(FILE *f, const struct sdsi_preflight *pf)
{
	text_blob(f, sdsi_preflight_blob_info(pf));
	fprintf(f, "Pre-flight checks:\n");
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++)
		fprintf(f, "    %-20s %-10s %s\n", sdsi_preflight_check_name(pf, i),
			sdsi_check_status_name(sdsi_preflight_check_status(pf, i)),
			sdsi_preflight_check_detail(pf, i));
}

static void text_provisioned(struct output *out, const struct provision_report *r)
{
	const struct sdsi_preflight *pf = r->preflight;
	const char *name = sdsi_blob_name(r->kind);
	char path[UTIL_TEXT_NAME_SIZE];

	util_text_name(path, sizeof(path), r->blob_path);
	if (sdsi_preflight_unchanged(pf) && !sdsi_preflight_forced(pf))
		printf("%s%s file %s is already provisioned on %s: nothing %s (--force sends it anyway)\n",
		       r->dry_run ? "Dry run: " : "", name, path, r->device,
		       r->dry_run ? "would be written" : "written");
	else if (r->dry_run)
		printf("Dry run: %s passed every pre-flight check%s; would write %zu bytes from %s to %s\n",
		       name, sdsi_preflight_unchanged(pf) ? " (already provisioned, sent because of --force)" : "",
		       r->bytes, path, r->attr_path);
	else
		printf("Provisioned %s file %s successfully\n", sdsi_blob_file(r->kind), path);
	if (r->dry_run)
		text_preflight(stdout, pf);
	(void)out;
}

static void text_refused(struct output *out, const struct provision_report *r,
			 const struct sdsi_error *err)
{
	if (r->dry_run) {
		printf("Dry run: %s refused by the pre-flight checks; nothing would be written\n",
		       sdsi_blob_name(r->kind));
		text_preflight(stdout, r->preflight);
	}
	out_error_message(sdsi_error_message(err));
	(void)out;
}

static void text_error(struct output *out, const char *device, const struct sdsi_error *err)
{
	out_error_message(sdsi_error_message(err));
	(void)out;
	(void)device;
}

/* Text output has no frame around --all's results. */
static void text_begin_all(struct output *out)
{
	(void)out;
}

static void text_end_all(struct output *out)
{
	(void)out;
}

const struct output_ops text_output_ops = {
	OUTPUT_OPS_REQUIRED(text),
	.fleet = print_fleet_text,
	.attestation = text_attestation,
};
