// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * STUB, on wip/att-lib only: the attestation API of libsdsi.h with no
 * implementation yet, so that intel_sdsi can be written against the header
 * while the flow is built.  Every call fails with ENOSYS; it is replaced
 * by attest_*.c before the branch is merged.
 */
#include <errno.h>
#include <stdlib.h>

#include "sdsi_internal.h"

#define STUB(err) sdsi_fail(err, ENOSYS, SDSI_ERR_INTERNAL, -1, "attestation: not implemented yet")

int sdsi_attest_open(const struct sdsi_device *dev, struct sdsi_attest **att,
		     struct sdsi_error *err)
{
	(void)dev;
	if (att)
		*att = NULL;
	return STUB(err);
}

void sdsi_attest_free(struct sdsi_attest *att) { (void)att; }
void sdsi_attest_freep(struct sdsi_attest **att) { (void)att; }

int sdsi_attest_digest(struct sdsi_attest *att, uint8_t digest[SDSI_ATTEST_DIGEST_SIZE],
		       struct sdsi_error *err)
{
	(void)att; (void)digest;
	return STUB(err);
}

int sdsi_attest_chain(struct sdsi_attest *att, const uint8_t **bytes, size_t *len,
		      struct sdsi_error *err)
{
	(void)att; (void)bytes; (void)len;
	return STUB(err);
}

int sdsi_attest_leaf_der(struct sdsi_attest *att, const uint8_t **der, size_t *len,
			 struct sdsi_error *err)
{
	(void)att; (void)der; (void)len;
	return STUB(err);
}

int sdsi_attest_verify(struct sdsi_attest *att, const char *trust_path,
		       struct sdsi_attest_verdict **verdict, struct sdsi_error *err)
{
	(void)att; (void)trust_path;
	if (verdict)
		*verdict = NULL;
	return STUB(err);
}

const char *sdsi_attest_result_name(enum sdsi_attest_result r) { (void)r; return "not-run"; }
unsigned int sdsi_attest_num_checks(void) { return 0; }
const char *sdsi_attest_check_name(unsigned int i) { (void)i; return NULL; }
void sdsi_attest_verdict_free(struct sdsi_attest_verdict *v) { (void)v; }
void sdsi_attest_verdict_freep(struct sdsi_attest_verdict **v) { (void)v; }
bool sdsi_attest_verdict_ok(const struct sdsi_attest_verdict *v) { (void)v; return false; }
const char *sdsi_attest_verdict_failed_check(const struct sdsi_attest_verdict *v) { (void)v; return NULL; }
const char *sdsi_attest_verdict_summary(const struct sdsi_attest_verdict *v) { (void)v; return ""; }
enum sdsi_attest_result sdsi_attest_verdict_result(const struct sdsi_attest_verdict *v, unsigned int i)
{ (void)v; (void)i; return SDSI_ATTEST_NOT_RUN; }
const char *sdsi_attest_verdict_detail(const struct sdsi_attest_verdict *v, unsigned int i)
{ (void)v; (void)i; return NULL; }
unsigned int sdsi_attest_verdict_num_certs(const struct sdsi_attest_verdict *v) { (void)v; return 0; }
const char *sdsi_attest_verdict_cert_subject(const struct sdsi_attest_verdict *v, unsigned int i)
{ (void)v; (void)i; return NULL; }
const char *sdsi_attest_verdict_anchor_subject(const struct sdsi_attest_verdict *v) { (void)v; return NULL; }
unsigned int sdsi_attest_verdict_num_measurements(const struct sdsi_attest_verdict *v) { (void)v; return 0; }
unsigned int sdsi_attest_verdict_measurement_index(const struct sdsi_attest_verdict *v, unsigned int i)
{ (void)v; (void)i; return 0; }
const char *sdsi_attest_verdict_measurement_hex(const struct sdsi_attest_verdict *v, unsigned int i)
{ (void)v; (void)i; return NULL; }
const uint8_t *sdsi_attest_verdict_digest(const struct sdsi_attest_verdict *v) { (void)v; return NULL; }
