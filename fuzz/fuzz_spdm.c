// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPDM responder's request bytes (docs/fuzzing.md): after a power cycle
 * of one model socket with an attestation identity, a sequence of requests,
 * each exchanged through the driver core's sdsi_mbox_exchange() as a driver
 * would.  The input's first byte arms attest-* faults for one request each
 * (bits 0-3); then each request is a length byte (1..255; 0 ends the input
 * there), that many bytes, and a flag byte whose bit 0 makes the request a
 * well-formed prefix (SPDM 1.0, a known code) so the fuzzer gets deep.
 *
 * Invariants: every exchange completes (the frame is always valid); the
 * response is 1.0, 4..4088 bytes, and either an ERROR with a code this
 * responder uses or the response code of the request; spdm_errors grows by
 * one exactly for an ERROR other than Busy and Unspecified (the responder's
 * own failure); no protocol violation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/x509.h>

#include "fuzz_check.h"
#include "fuzz_model_ops.h"
#include "sdsi/hw.h"
#include "sdsi/spdm.h"
#include "drivers/core/sdsi_mbox.h"
#include "licensing/sdsi_lic.h"
#include "model/sdsi_model.h"

static struct sdsi_model *model;
static struct sdsi_mbox mbox;

static const uint8_t codes[] = {
	SDSI_SPDM_GET_VERSION, SDSI_SPDM_GET_CAPABILITIES,
	SDSI_SPDM_NEGOTIATE_ALGORITHMS, SDSI_SPDM_GET_DIGESTS,
	SDSI_SPDM_GET_CERTIFICATE, SDSI_SPDM_CHALLENGE, SDSI_SPDM_GET_MEASUREMENTS,
};

static const enum sdsi_fault_kind faults[] = {
	SDSI_FAULT_ATTEST_SIGNATURE, SDSI_FAULT_ATTEST_CHAIN,
	SDSI_FAULT_ATTEST_MEASUREMENT, SDSI_FAULT_ATTEST_BUSY,
};

/* An attestation root in a directory that is gone once the model has used it. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/dev/shm/sdsi-fuzz-spdm-XXXXXX", cert[64], key[64], err[256];
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2, .features = SDSI_MODEL_DEFAULT_FEATURES,
		.clock = fuzz_model_clock, .attest_root_cert_path = cert,
		.attest_root_key_path = key,
	};
	struct sdsi_lic_error lerr;
	EVP_PKEY *root_key;
	X509 *root;

	(void)argc;
	(void)argv;
	/* Model time starts at a second, as a part's after power-on. */
	fuzz_now_ns = 1000000000ull;
	FUZZ_CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(cert, sizeof(cert), "%s/root.pem", dir);
	snprintf(key, sizeof(key), "%s/root.key", dir);
	FUZZ_CHECK(!sdsi_lic_attest_root_make("fuzz root", &root_key, &root, &lerr) &&
		   !sdsi_lic_cert_save(cert, root, &lerr) &&
		   !sdsi_lic_key_save_private(key, root_key, &lerr), "%s", lerr.reason);
	FUZZ_CHECK(!sdsi_model_create(&cfg, &model, err, sizeof(err)), "%s", err);
	FUZZ_CHECK(!sdsi_mbox_init(&mbox, SDSI_GUID_V2, &fuzz_model_ops, model, NULL), "core");
	unlink(cert);
	unlink(key);
	rmdir(dir);
	EVP_PKEY_free(root_key);
	X509_free(root);
	return 0;
}

static bool error_code_known(uint8_t code)
{
	return code == SDSI_SPDM_ERR_INVALID_REQUEST || code == SDSI_SPDM_ERR_BUSY ||
	       code == SDSI_SPDM_ERR_UNEXPECTED_REQUEST ||
	       code == SDSI_SPDM_ERR_UNSPECIFIED ||
	       code == SDSI_SPDM_ERR_UNSUPPORTED_REQUEST ||
	       code == SDSI_SPDM_ERR_VERSION_MISMATCH;
}

static void check_response(const uint8_t *req, const uint8_t *rsp, size_t len,
			   uint64_t errors_before, bool busy_armed)
{
	uint64_t errors = sdsi_model_spdm_errors(model);

	FUZZ_CHECK(len >= SDSI_SPDM_HDR_SIZE && len <= SDSI_ATTEST_RESPONSE_MAX,
		   "response of %zu bytes", len);
	FUZZ_CHECK(rsp[0] == SDSI_SPDM_VERSION_10, "version 0x%02x", rsp[0]);
	if (rsp[1] == SDSI_SPDM_ERROR) {
		FUZZ_CHECK(len == SDSI_SPDM_ERROR_SIZE && error_code_known(rsp[2]),
			   "ERROR 0x%02x of %zu bytes", rsp[2], len);
		if (rsp[2] == SDSI_SPDM_ERR_BUSY)
			FUZZ_CHECK(busy_armed && errors == errors_before, "Busy unasked");
		else if (rsp[2] == SDSI_SPDM_ERR_UNSPECIFIED)
			FUZZ_CHECK(errors == errors_before, "own failure counted");
		else
			FUZZ_CHECK(errors == errors_before + 1, "ERROR not counted");
		return;
	}
	FUZZ_CHECK(errors == errors_before, "success counted as an error");
	FUZZ_CHECK(rsp[1] == (req[1] & 0x7f), "code 0x%02x for request 0x%02x",
		   rsp[1], req[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	static uint8_t req[256], rsp[SDSI_READ_MSG_MAX];
	uint8_t arm = (uint8_t)fuzz_take(&in, 1);
	size_t len, n;
	uint64_t before;
	unsigned int i;
	int ret;

	sdsi_model_power_cycle(model);
	sdsi_model_fault_clear_all(model);
	for (i = 0; i < 4; i++)
		if (arm & (1u << i))
			sdsi_model_fault_set(model, faults[i], 0, 1);
	while ((len = (size_t)fuzz_take(&in, 1)) != 0) {
		for (n = 0; n < len; n++)
			req[n] = (uint8_t)fuzz_take(&in, 1);
		if (fuzz_take(&in, 1) & 1) {
			req[0] = SDSI_SPDM_VERSION_10;
			if (len > 1)
				req[1] = codes[req[1] % sizeof(codes)];
		}
		before = sdsi_model_spdm_errors(model);
		ret = sdsi_mbox_exchange(&mbox, req, len, rsp, &n);
		FUZZ_CHECK(ret == 0, "exchange: %d", ret);
		check_response(req, rsp, n, before,
			       arm & (1u << 3));
		/* Busy strikes once: later requests are answered for real. */
		arm &= (uint8_t)~(1u << 3);
	}
	FUZZ_CHECK(sdsi_model_violation_count(model) == 0, "protocol violation");
	return 0;
}
