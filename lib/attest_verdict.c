// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The verdict of sdsi_attest_verify(): every check of the flow, in order,
 * with its result and detail, the certificates' subjects, the
 * measurements and the digest, read through the accessors of libsdsi.h.
 * The check names come from the one table, SDSI_ATTEST_CHECKS.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest_internal.h"

#define SDSI_ATTEST_CHECK_NAME(id, name) name,
static const char *const check_names[ATTEST_NUM_CHECKS] = {
	SDSI_ATTEST_CHECKS(SDSI_ATTEST_CHECK_NAME)
};
#undef SDSI_ATTEST_CHECK_NAME

static const char proven[] =
	"state certificate attested by the part whose key the root certifies";

unsigned int sdsi_attest_num_checks(void)
{
	return ATTEST_NUM_CHECKS;
}

const char *sdsi_attest_check_name(unsigned int i)
{
	return i < ATTEST_NUM_CHECKS ? check_names[i] : NULL;
}

const char *sdsi_attest_result_name(enum sdsi_attest_result result)
{
	switch (result) {
	case SDSI_ATTEST_OK: return "ok";
	case SDSI_ATTEST_FAILED: return "failed";
	case SDSI_ATTEST_NOT_RUN: return "not-run";
	}
	return "unknown";
}

void attest_hex(const uint8_t *bytes, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * len] = '\0';
}

struct sdsi_attest_verdict *attest_verdict_new(void)
{
	struct sdsi_attest_verdict *v = calloc(1, sizeof(*v));
	unsigned int i;

	if (!v)
		return NULL;
	for (i = 0; i < ATTEST_NUM_CHECKS; i++)
		v->result[i] = SDSI_ATTEST_NOT_RUN;
	return v;
}

static void record(struct sdsi_attest_verdict *v, enum attest_check c,
		   enum sdsi_attest_result result, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void record(struct sdsi_attest_verdict *v, enum attest_check c,
		   enum sdsi_attest_result result, const char *fmt, va_list ap)
{
	v->result[c] = result;
	vsnprintf(v->detail[c], sizeof(v->detail[c]), fmt, ap);
}

int attest_fail(struct sdsi_attest_verdict *v, enum attest_check c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(v, c, SDSI_ATTEST_FAILED, fmt, ap);
	va_end(ap);
	return 1;
}

int attest_pass(struct sdsi_attest_verdict *v, enum attest_check c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(v, c, SDSI_ATTEST_OK, fmt, ap);
	va_end(ap);
	return 0;
}

int attest_first_failed(const struct sdsi_attest_verdict *v)
{
	unsigned int i;

	for (i = 0; i < ATTEST_NUM_CHECKS; i++)
		if (v->result[i] == SDSI_ATTEST_FAILED)
			return (int)i;
	return -1;
}

bool sdsi_attest_verdict_ok(const struct sdsi_attest_verdict *v)
{
	unsigned int i;

	if (!v)
		return false;
	for (i = 0; i < ATTEST_NUM_CHECKS; i++) {
		if (v->result[i] == SDSI_ATTEST_OK)
			continue;
		/* a part that does not meter has nothing to compare there */
		if (i == ATTEST_CHECK_MEASUREMENT_METER && v->result[i] == SDSI_ATTEST_NOT_RUN &&
		    v->result[ATTEST_CHECK_MEASUREMENT_STATE] == SDSI_ATTEST_OK)
			continue;
		return false;
	}
	return true;
}

void attest_verdict_finish(struct sdsi_attest_verdict *v)
{
	int failed = attest_first_failed(v);

	if (sdsi_attest_verdict_ok(v))
		snprintf(v->summary, sizeof(v->summary), "%s%s", proven,
			 v->result[ATTEST_CHECK_MEASUREMENT_METER] == SDSI_ATTEST_OK ?
			 ", and its meter certificate" : "");
	else if (failed >= 0)
		snprintf(v->summary, sizeof(v->summary), "attestation failed: %s: %s",
			 check_names[failed], v->detail[failed]);
	else
		snprintf(v->summary, sizeof(v->summary), "attestation incomplete");
}

const char *sdsi_attest_verdict_failed_check(const struct sdsi_attest_verdict *v)
{
	int failed = v ? attest_first_failed(v) : -1;

	return failed < 0 ? NULL : check_names[failed];
}

const char *sdsi_attest_verdict_summary(const struct sdsi_attest_verdict *v)
{
	return v ? v->summary : "";
}

enum sdsi_attest_result sdsi_attest_verdict_result(const struct sdsi_attest_verdict *v,
						   unsigned int i)
{
	return v && i < ATTEST_NUM_CHECKS ? v->result[i] : SDSI_ATTEST_NOT_RUN;
}

const char *sdsi_attest_verdict_detail(const struct sdsi_attest_verdict *v, unsigned int i)
{
	return v && i < ATTEST_NUM_CHECKS ? v->detail[i] : NULL;
}

unsigned int sdsi_attest_verdict_num_certs(const struct sdsi_attest_verdict *v)
{
	return v ? v->num_certs : 0;
}

const char *sdsi_attest_verdict_cert_subject(const struct sdsi_attest_verdict *v, unsigned int i)
{
	return v && i < v->num_certs ? v->subjects[i] : NULL;
}

const char *sdsi_attest_verdict_anchor_subject(const struct sdsi_attest_verdict *v)
{
	return v ? v->anchor_subject : NULL;
}

unsigned int sdsi_attest_verdict_num_measurements(const struct sdsi_attest_verdict *v)
{
	return v ? v->num_meas : 0;
}

unsigned int sdsi_attest_verdict_measurement_index(const struct sdsi_attest_verdict *v,
						   unsigned int i)
{
	return v && i < v->num_meas ? v->meas[i].index : 0;
}

const char *sdsi_attest_verdict_measurement_hex(const struct sdsi_attest_verdict *v,
						unsigned int i)
{
	return v && i < v->num_meas ? v->meas_hex[i] : NULL;
}

const uint8_t *sdsi_attest_verdict_digest(const struct sdsi_attest_verdict *v)
{
	return v && v->digest_read ? v->digest : NULL;
}

void sdsi_attest_verdict_free(struct sdsi_attest_verdict *v)
{
	unsigned int i;

	if (!v)
		return;
	for (i = 0; i < v->num_certs; i++)
		free(v->subjects[i]);
	free(v->subjects);
	free(v->anchor_subject);
	free(v);
}

void sdsi_attest_verdict_freep(struct sdsi_attest_verdict **v)
{
	if (v)
		sdsi_attest_verdict_free(*v);
}
