// SPDX-License-Identifier: GPL-2.0-only
/*
 * --attest verify's verdict, in text and in JSON (docs/schema/attestation.json):
 * the verdict first, then what it rests on (the trust anchor, the chain's
 * subjects, the slot digest, the measurements) and every check with its
 * result.  The subjects and details come from the part: text output escapes
 * their control characters, JSON keeps their bytes (util_escape.h).
 */
#include <stdio.h>

#include "output_attest.h"
#include "output_json.h"
#include "util/util_escape.h"
#include "util/util_hex.h"

/* "-" for what is missing: the flow stopped before it. */
static void text_value(const char *label, const char *value)
{
	printf("%-32s", label);
	util_fputs_text_name(value ? value : "-", stdout);
	putchar('\n');
}

static void text_checks(const struct sdsi_attest_verdict *v)
{
	printf("Checks\n");
	for (unsigned int i = 0; i < sdsi_attest_num_checks(); i++) {
		const char *detail = sdsi_attest_verdict_detail(v, i);

		const char *result = sdsi_attest_result_name(sdsi_attest_verdict_result(v, i));

		/* The details in one column, and no line ends in blanks. */
		printf("    %-28s", sdsi_attest_check_name(i));
		if (detail && *detail) {
			printf("%-8s ", result);
			util_fputs_text_name(detail, stdout);
		} else {
			fputs(result, stdout);
		}
		putchar('\n');
	}
}

void text_attestation(struct output *out, const struct attest_report *r)
{
	const struct sdsi_attest_verdict *v = r->verdict;
	const uint8_t *digest = sdsi_attest_verdict_digest(v);
	const char *failed = sdsi_attest_verdict_failed_check(v);
	char hex[UTIL_HEX_SIZE(SDSI_ATTEST_DIGEST_SIZE)];
	unsigned int n;

	printf("\nAttestation of device %s\n\n", r->device);
	text_value("Verdict:", sdsi_attest_verdict_ok(v) ? "attested" : "NOT attested");
	text_value("    Proves:", sdsi_attest_verdict_ok(v) ? sdsi_attest_verdict_summary(v) : "nothing");
	if (!sdsi_attest_verdict_ok(v)) {
		text_value("    First failed check:", failed ? failed : "-");
		text_value("    Why:", sdsi_attest_verdict_summary(v));
	}
	text_value("Trusted roots:", r->trust);
	text_value("    Anchor used:", sdsi_attest_verdict_anchor_subject(v));
	if (digest)
		util_hex(hex, digest, SDSI_ATTEST_DIGEST_SIZE);
	text_value("Slot 0 digest (SHA-384):", digest ? hex : NULL);
	n = sdsi_attest_verdict_num_certs(v);
	printf("Certificate chain (root first): %u\n", n);
	for (unsigned int i = 0; i < n; i++) {
		printf("    %u: ", i);
		util_fputs_text_name(sdsi_attest_verdict_cert_subject(v, i), stdout);
		putchar('\n');
	}
	n = sdsi_attest_verdict_num_measurements(v);
	printf("Measurements (SHA-384): %u\n", n);
	for (unsigned int i = 0; i < n; i++)
		printf("    %u: %s\n", sdsi_attest_verdict_measurement_index(v, i),
		       sdsi_attest_verdict_measurement_hex(v, i));
	text_checks(v);
	(void)out;
}

static json_object *string_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *json_checks(const struct sdsi_attest_verdict *v)
{
	json_object *list = json_object_new_array();

	for (unsigned int i = 0; i < sdsi_attest_num_checks(); i++) {
		json_object *check = json_object_new_object();
		const char *detail = sdsi_attest_verdict_detail(v, i);

		json_object_object_add(check, "name",
				       json_object_new_string(sdsi_attest_check_name(i)));
		json_object_object_add(check, "result", json_object_new_string(
			sdsi_attest_result_name(sdsi_attest_verdict_result(v, i))));
		json_object_object_add(check, "detail", json_object_new_string(detail ? detail : ""));
		json_object_array_add(list, check);
	}
	return list;
}

static json_object *json_certificates(const struct sdsi_attest_verdict *v)
{
	json_object *list = json_object_new_array();

	for (unsigned int i = 0; i < sdsi_attest_verdict_num_certs(v); i++) {
		json_object *cert = json_object_new_object();

		json_object_object_add(cert, "subject",
				       json_object_new_string(sdsi_attest_verdict_cert_subject(v, i)));
		json_object_array_add(list, cert);
	}
	return list;
}

static json_object *json_measurements(const struct sdsi_attest_verdict *v)
{
	json_object *list = json_object_new_array();

	for (unsigned int i = 0; i < sdsi_attest_verdict_num_measurements(v); i++) {
		json_object *m = json_object_new_object();

		json_object_object_add(m, "index", json_object_new_int(
			(int)sdsi_attest_verdict_measurement_index(v, i)));
		json_object_object_add(m, "value", json_object_new_string(
			sdsi_attest_verdict_measurement_hex(v, i)));
		json_object_array_add(list, m);
	}
	return list;
}

void json_attestation(struct output *out, const struct attest_report *r)
{
	const struct sdsi_attest_verdict *v = r->verdict;
	const uint8_t *digest = sdsi_attest_verdict_digest(v);
	char hex[UTIL_HEX_SIZE(SDSI_ATTEST_DIGEST_SIZE)];
	json_object *doc = json_device_doc(out, r->device);
	const bool ok = sdsi_attest_verdict_ok(v);

	if (digest)
		util_hex(hex, digest, SDSI_ATTEST_DIGEST_SIZE);
	json_object_object_add(doc, "attested", json_object_new_boolean(ok));
	json_object_object_add(doc, "summary", json_object_new_string(sdsi_attest_verdict_summary(v)));
	json_object_object_add(doc, "failed_check",
			       string_or_null(sdsi_attest_verdict_failed_check(v)));
	json_object_object_add(doc, "trust", json_object_new_string(r->trust));
	json_object_object_add(doc, "anchor", string_or_null(sdsi_attest_verdict_anchor_subject(v)));
	json_object_object_add(doc, "digest", digest ? json_object_new_string(hex) : NULL);
	json_object_object_add(doc, "certificates", json_certificates(v));
	json_object_object_add(doc, "measurements", json_measurements(v));
	json_object_object_add(doc, "checks", json_checks(v));
	json_emit(out, doc);
}
