/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tests' own SPDM 1.0 responder (DSP0274 1.0), written for libsdsi's
 * attestation tests from the specification alone, never from the model:
 * a root and a leaf certificate made with OpenSSL, slot 0's chain, VCA,
 * DIGESTS, CERTIFICATE in portions, CHALLENGE_AUTH signed over M1 and
 * MEASUREMENTS signed over L1.  It plays the device through libsdsi's test
 * seam (struct sdsi_attest_io); a test makes it hostile by a hook that
 * rewrites any answer, and by the knobs below.
 */
#ifndef SDSI_TESTS_UNIT_LIB_SPDM_TEST_RESPONDER_H
#define SDSI_TESTS_UNIT_LIB_SPDM_TEST_RESPONDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "attest_internal.h"

#define TR_CERT_MAX	512u	/* bytes of each certificate file the tests compare */

struct test_responder;

/* Rewrite the answer to req in place (rsp has SDSI_SPDM_RESPONSE_MAX bytes). */
typedef void (*tr_tamper_fn)(struct test_responder *r, const uint8_t *req, size_t req_len,
			     uint8_t *rsp, size_t *rsp_len);

struct test_responder {
	/* identity */
	EVP_PKEY *root_key, *leaf_key;
	X509 *root, *leaf;
	uint8_t *chain;			/* slot 0's SPDM chain */
	size_t chain_len;
	uint8_t digest[SDSI_SPDM_HASH_SIZE];
	char root_pem[256];		/* the root written as PEM in a temporary directory */
	char dir[64];
	/* what the part measures, and what a read of the files returns */
	uint8_t state_measured[TR_CERT_MAX], state_read[TR_CERT_MAX];
	uint8_t meter_measured[TR_CERT_MAX], meter_read[TR_CERT_MAX];
	size_t state_len, meter_len;
	bool meters;			/* index 2 and meter_certificate */
	/* knobs */
	size_t max_portion;		/* of one CERTIFICATE; SDSI_SPDM_CERT_PORTION_MAX */
	uint8_t busy_on;		/* a request code answered ERROR Busy; 0: none */
	tr_tamper_fn tamper;
	void *tamper_ctx;
	/* rewrite a CHALLENGE_AUTH or MEASUREMENTS before it is signed (len: the signed part) */
	void (*presign)(struct test_responder *r, const uint8_t *req, uint8_t *rsp, size_t len);
	bool hide_meter_file;		/* meter_certificate absent, measurement 2 sent */
	/* transcripts and counters */
	EVP_MD_CTX *m1, *l1;
	unsigned int requests;		/* every request seen */
	unsigned int seen[256];		/* requests seen by code */
	uint8_t last_auth[SDSI_SPDM_RESPONSE_MAX];	/* the last CHALLENGE_AUTH sent */
	size_t last_auth_len;
};

/*
 * A responder with a fresh root and leaf (P-384).  leaf_padding bytes of
 * an extension in the leaf let a test size the chain; garbage_cert puts
 * bytes that are no DER where the leaf should be (hashes kept consistent).
 */
int tr_init(struct test_responder *r, size_t leaf_padding, bool garbage_cert);
void tr_free(struct test_responder *r);

/*
 * cmocka fixtures: *state becomes a default responder (tr_init(r, 0,
 * false)) on the heap, and is freed whole.  -1 if it cannot be made.
 */
int tr_fixture_setup(void **state);
int tr_fixture_teardown(void **state);

/* The seam's functions; ctx is the responder. */
int tr_transact(void *ctx, const uint8_t *req, size_t req_len, uint8_t *rsp, size_t rsp_cap,
		size_t *rsp_len, struct sdsi_error *err);
int tr_read_attr(void *ctx, enum sdsi_attr attr, uint8_t *buf, size_t *len,
		 struct sdsi_error *err);
struct sdsi_attest_io tr_io(struct test_responder *r);

/*
 * One whole verification against r in a session of its own (trust: the
 * anchors' path, NULL for r's root): sdsi_attest_verify()'s return.
 */
int tr_verify(struct test_responder *r, const char *trust, struct sdsi_attest_verdict **v,
	      struct sdsi_error *err);
/* The result of the check named name in v (fails the test for an unknown name). */
enum sdsi_attest_result tr_result(const struct sdsi_attest_verdict *v, const char *name);
const char *tr_detail(const struct sdsi_attest_verdict *v, const char *name);

/* Write a fresh self-signed P-384 root (another authority's) as PEM at path. */
int tr_write_other_root(const char *path);

#endif /* SDSI_TESTS_UNIT_LIB_SPDM_TEST_RESPONDER_H */
