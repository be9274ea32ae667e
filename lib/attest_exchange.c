// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One SPDM exchange: a request through the session's transport and the
 * answer's header checked (its size, an ERROR, the version, the code).
 * Its own file because both halves of the flow, the chain's steps
 * (attest_flow.c) and the proofs (attest_prove.c), go through it.  Returns
 * 0 when the answer is the one asked for, 1 with why when the part answered
 * wrongly (a failed check), or -errno with err when the exchange could not
 * run (EBUSY for SPDM ERROR Busy, which the caller may retry).
 */
#include <stdio.h>

#include "attest_internal.h"

static const char *request_name(uint8_t code)
{
	switch (code) {
	case SDSI_SPDM_GET_VERSION: return "GET_VERSION";
	case SDSI_SPDM_GET_CAPABILITIES: return "GET_CAPABILITIES";
	case SDSI_SPDM_NEGOTIATE_ALGORITHMS: return "NEGOTIATE_ALGORITHMS";
	case SDSI_SPDM_GET_DIGESTS: return "GET_DIGESTS";
	case SDSI_SPDM_GET_CERTIFICATE: return "GET_CERTIFICATE";
	case SDSI_SPDM_CHALLENGE: return "CHALLENGE";
	case SDSI_SPDM_GET_MEASUREMENTS: return "GET_MEASUREMENTS";
	default: return "a request";
	}
}

int attest_exchange(struct sdsi_attest *att, const uint8_t *req, size_t len, uint8_t code,
		    char *why, size_t n, struct sdsi_error *err)
{
	const char *name = request_name(req[SDSI_SPDM_OFF_CODE]);
	const uint8_t *rsp = att->rsp;
	int ret;

	att->rsp_len = 0;
	ret = att->io.transact(att->io.ctx, req, len, att->rsp, sizeof(att->rsp),
			       &att->rsp_len, err);
	if (ret)
		return ret < 0 ? ret : -EIO;
	if (att->rsp_len > sizeof(att->rsp))
		return sdsi_fail(err, EMSGSIZE, SDSI_ERR_IO, -1,
				 "%s: an answer of %zu bytes to %s", att->name, att->rsp_len, name);
	if (att->rsp_len < SDSI_SPDM_HDR_SIZE) {
		snprintf(why, n, "an answer of %zu bytes to %s, shorter than an SPDM header",
			 att->rsp_len, name);
		return 1;
	}
	if (rsp[SDSI_SPDM_OFF_CODE] == SDSI_SPDM_ERROR) {
		/* Busy is the one ERROR that says "ask again": the caller may retry */
		if (rsp[SDSI_SPDM_OFF_PARAM1] == SDSI_SPDM_ERR_BUSY)
			return sdsi_fail(err, EBUSY, sdsi_errno_class(EBUSY, false), -1,
					 "%s: the part is busy (SPDM ERROR Busy to %s)",
					 att->name, name);
		snprintf(why, n, "SPDM ERROR 0x%02x (data 0x%02x) to %s",
			 rsp[SDSI_SPDM_OFF_PARAM1], rsp[SDSI_SPDM_OFF_PARAM2], name);
		return 1;
	}
	if (rsp[SDSI_SPDM_OFF_VERSION] != SDSI_SPDM_VERSION_10) {
		snprintf(why, n, "SPDMVersion 0x%02x in the answer to %s, not 0x%02x",
			 rsp[SDSI_SPDM_OFF_VERSION], name, SDSI_SPDM_VERSION_10);
		return 1;
	}
	if (rsp[SDSI_SPDM_OFF_CODE] != code) {
		snprintf(why, n, "answer code 0x%02x to %s, not 0x%02x",
			 rsp[SDSI_SPDM_OFF_CODE], name, code);
		return 1;
	}
	return 0;
}
