// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdsi's attestation against the tests' own SPDM 1.0 responder
 * (spdm_test_responder.c) through the test seam: the whole flow and its
 * verdict, the calls that verify nothing, the owner's anchors (only they
 * are trusted; a bad path is refused before any byte goes out), a
 * replayed CHALLENGE_AUTH, bad signatures, wrong measurements, ERROR Busy,
 * and the chain's bounds on both sides.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "spdm_test_responder.h"

static void assert_failed_at(struct test_responder *r, const char *check, const char *why)
{
	struct sdsi_attest_verdict *v;
	struct sdsi_error *err = sdsi_error_new();
	unsigned int i;
	bool after = false;

	assert_int_equal(tr_verify(r, NULL, &v, err), 0);
	assert_non_null(v);
	assert_false(sdsi_attest_verdict_ok(v));
	assert_string_equal(sdsi_attest_verdict_failed_check(v), check);
	assert_int_equal(tr_result(v, check), SDSI_ATTEST_FAILED);
	if (!strstr(tr_detail(v, check), why))
		fail_msg("%s: \"%s\" does not say \"%s\"", check, tr_detail(v, check), why);
	assert_non_null(strstr(sdsi_attest_verdict_summary(v), check));
	/* the flow stops at the first failure */
	for (i = 0; i < sdsi_attest_num_checks(); i++) {
		if (after)
			assert_int_equal(sdsi_attest_verdict_result(v, i), SDSI_ATTEST_NOT_RUN);
		if (!strcmp(sdsi_attest_check_name(i), check))
			after = true;
	}
	sdsi_attest_verdict_free(v);
	sdsi_error_free(err);
}

static void test_check_names(void **state)
{
	static const char *const names[] = {
		"version", "capabilities", "algorithms", "digest", "chain", "trust", "root-hash",
		"slot-digest", "challenge-signature", "challenge-nonce", "challenge-chain-hash",
		"measurement-signature", "measurement-state", "measurement-meter" };
	unsigned int i;

	(void)state;
	assert_int_equal(sdsi_attest_num_checks(), sizeof(names) / sizeof(names[0]));
	for (i = 0; i < sdsi_attest_num_checks(); i++)
		assert_string_equal(sdsi_attest_check_name(i), names[i]);
	assert_null(sdsi_attest_check_name(i));
	assert_string_equal(sdsi_attest_result_name(SDSI_ATTEST_OK), "ok");
	assert_string_equal(sdsi_attest_result_name(SDSI_ATTEST_FAILED), "failed");
	assert_string_equal(sdsi_attest_result_name(SDSI_ATTEST_NOT_RUN), "not-run");
}

static void test_full_flow(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	struct sdsi_error *err = sdsi_error_new();
	uint8_t hash[SDSI_SPDM_HASH_SIZE];
	char hex[ATTEST_HEX_SIZE];
	unsigned int i;

	assert_int_equal(tr_verify(r, NULL, &v, err), 0);
	for (i = 0; i < sdsi_attest_num_checks(); i++)
		if (sdsi_attest_verdict_result(v, i) != SDSI_ATTEST_OK)
			fail_msg("%s: %s", sdsi_attest_check_name(i), sdsi_attest_verdict_detail(v, i));
	assert_true(sdsi_attest_verdict_ok(v));
	assert_null(sdsi_attest_verdict_failed_check(v));
	assert_string_equal(sdsi_attest_verdict_summary(v),
			    "state certificate attested by the part whose key the root certifies"
			    ", and its meter certificate");
	assert_memory_equal(sdsi_attest_verdict_digest(v), r->digest, SDSI_SPDM_HASH_SIZE);
	assert_int_equal(sdsi_attest_verdict_num_certs(v), 2);
	assert_string_equal(sdsi_attest_verdict_cert_subject(v, 0),
			    "CN=test attestation root,O=sdsi tests");
	assert_string_equal(sdsi_attest_verdict_cert_subject(v, 1), "CN=test part,O=sdsi tests");
	assert_null(sdsi_attest_verdict_cert_subject(v, 2));
	assert_string_equal(sdsi_attest_verdict_anchor_subject(v),
			    "CN=test attestation root,O=sdsi tests");
	assert_int_equal(sdsi_attest_verdict_num_measurements(v), 2);
	assert_int_equal(sdsi_attest_verdict_measurement_index(v, 0), 1);
	EVP_Digest(r->state_read, r->state_len, hash, NULL, EVP_sha384(), NULL);
	attest_hex(hash, sizeof(hash), hex);
	assert_string_equal(sdsi_attest_verdict_measurement_hex(v, 0), hex);
	assert_int_equal(sdsi_attest_verdict_measurement_index(v, 1), 2);
	assert_null(sdsi_attest_verdict_measurement_hex(v, 2));
	/* one of each, the chain in one portion */
	assert_int_equal(r->seen[SDSI_SPDM_GET_CERTIFICATE], 1);
	assert_int_equal(r->seen[SDSI_SPDM_CHALLENGE], 1);
	assert_int_equal(r->seen[SDSI_SPDM_GET_MEASUREMENTS], 1);
	sdsi_attest_verdict_free(v);
	sdsi_error_free(err);
}

static void test_no_meter(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;

	r->meters = false;
	assert_int_equal(tr_verify(r, NULL, &v, NULL), 0);
	assert_true(sdsi_attest_verdict_ok(v));
	assert_int_equal(tr_result(v, "measurement-meter"), SDSI_ATTEST_NOT_RUN);
	assert_non_null(strstr(tr_detail(v, "measurement-meter"), "does not meter"));
	assert_int_equal(sdsi_attest_verdict_num_measurements(v), 1);
	sdsi_attest_verdict_free(v);
}

static void test_plain_calls(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_io io = tr_io(r);
	struct sdsi_error *err = sdsi_error_new();
	uint8_t digest[SDSI_ATTEST_DIGEST_SIZE];
	unsigned char *leaf = NULL;
	const uint8_t *bytes;
	struct sdsi_attest *att;
	size_t len;
	int leaf_len;

	assert_int_equal(sdsi_attest_open_with(&io, "t", &att, err), 0);
	assert_int_equal(sdsi_attest_digest(att, digest, err), 0);
	assert_memory_equal(digest, r->digest, sizeof(digest));
	assert_int_equal(sdsi_attest_chain(att, &bytes, &len, err), 0);
	assert_int_equal(len, r->chain_len);
	assert_memory_equal(bytes, r->chain, len);
	assert_int_equal(sdsi_attest_leaf_der(att, &bytes, &len, err), 0);
	leaf_len = i2d_X509(r->leaf, &leaf);
	assert_int_equal(len, (size_t)leaf_len);
	assert_memory_equal(bytes, leaf, len);
	OPENSSL_free(leaf);
	sdsi_attest_free(att);
	sdsi_error_free(err);
}

static void test_untrusted_root(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	char other[300];

	snprintf(other, sizeof(other), "%s/other.pem", r->dir);
	assert_int_equal(tr_write_other_root(other), 0);
	assert_int_equal(tr_verify(r, other, &v, NULL), 0);
	unlink(other);
	assert_false(sdsi_attest_verdict_ok(v));
	assert_string_equal(sdsi_attest_verdict_failed_check(v), "trust");
	assert_null(sdsi_attest_verdict_anchor_subject(v));
	/* the device's own root is never trusted, though it sent it */
	assert_int_equal(sdsi_attest_verdict_num_certs(v), 2);
	assert_int_equal(r->seen[SDSI_SPDM_CHALLENGE], 0);
	sdsi_attest_verdict_free(v);
}

/* A directory of anchors: its PEM files, whatever else it holds. */
static void test_trust_dir(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/README", r->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "anchors\n", 8), 8);
	close(fd);
	assert_int_equal(tr_verify(r, r->dir, &v, NULL), 0);
	unlink(path);
	assert_true(sdsi_attest_verdict_ok(v));
	sdsi_attest_verdict_free(v);
}

static void assert_trust_refused(struct test_responder *r, const char *path, int errnum,
				 const char *why)
{
	struct sdsi_attest_verdict *v = (void *)1;
	struct sdsi_error *err = sdsi_error_new();

	assert_int_equal(tr_verify(r, path, &v, err), -errnum);
	assert_null(v);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_USAGE);
	assert_non_null(strstr(sdsi_error_message(err), path));
	if (!strstr(sdsi_error_message(err), why))
		fail_msg("\"%s\" does not say \"%s\"", sdsi_error_message(err), why);
	/* refused before the part is asked anything */
	assert_int_equal(r->requests, 0);
	sdsi_error_free(err);
}

static void test_trust_paths_refused(void **state)
{
	struct test_responder *r = *state;
	char path[300], empty[300];

	snprintf(path, sizeof(path), "%s/missing.pem", r->dir);
	assert_trust_refused(r, path, ENOENT, "No such file");
	snprintf(path, sizeof(path), "%s/link.pem", r->dir);
	assert_int_equal(symlink(r->root_pem, path), 0);
	assert_trust_refused(r, path, ELOOP, "symbolic link");
	unlink(path);
	snprintf(path, sizeof(path), "%s/fifo", r->dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_trust_refused(r, path, EINVAL, "neither a regular file nor a directory");
	unlink(path);
	snprintf(empty, sizeof(empty), "%s/empty", r->dir);
	assert_int_equal(mkdir(empty, 0700), 0);
	assert_trust_refused(r, empty, EINVAL, "no PEM certificate");
	/* a link to the anchor inside a directory is passed over, not followed */
	snprintf(path, sizeof(path), "%s/empty/root.pem", r->dir);
	assert_int_equal(symlink(r->root_pem, path), 0);
	assert_trust_refused(r, empty, EINVAL, "no PEM certificate");
	unlink(path);
	rmdir(empty);
}

static void save_auth(struct test_responder *r, const uint8_t *req, size_t req_len,
		      uint8_t *rsp, size_t *rsp_len)
{
	(void)req_len;
	/* the answer of the first run, sent again to the second's CHALLENGE */
	if (req[1] == SDSI_SPDM_CHALLENGE) {
		memcpy(rsp, r->tamper_ctx, r->last_auth_len);
		*rsp_len = r->last_auth_len;
	}
}

static void test_replayed_challenge_auth(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	uint8_t old[SDSI_SPDM_RESPONSE_MAX];

	assert_int_equal(tr_verify(r, NULL, &v, NULL), 0);
	assert_true(sdsi_attest_verdict_ok(v));
	sdsi_attest_verdict_free(v);
	memcpy(old, r->last_auth, r->last_auth_len);
	r->tamper = save_auth;
	r->tamper_ctx = old;
	assert_failed_at(r, "challenge-signature", "does not verify");
	r->tamper_ctx = NULL;
}

static void flip_signature(struct test_responder *r, const uint8_t *req, size_t req_len,
			   uint8_t *rsp, size_t *rsp_len)
{
	(void)req_len;
	if (req[1] == *(uint8_t *)r->tamper_ctx)
		rsp[*rsp_len - 1] ^= 1;
}

static void test_bad_signatures(void **state)
{
	struct test_responder *r = *state;
	uint8_t code = SDSI_SPDM_CHALLENGE;

	r->tamper = flip_signature;
	r->tamper_ctx = &code;
	assert_failed_at(r, "challenge-signature", "does not verify");
	code = SDSI_SPDM_GET_MEASUREMENTS;
	assert_failed_at(r, "measurement-signature", "does not verify");
	r->tamper_ctx = NULL;
}

static void test_wrong_measurements(void **state)
{
	struct test_responder *r = *state;

	r->state_read[3] ^= 1;
	assert_failed_at(r, "measurement-state", "not the SHA-384 of state_certificate");
	r->state_read[3] ^= 1;
	r->meter_read[0] ^= 1;
	assert_failed_at(r, "measurement-meter", "not the SHA-384 of meter_certificate");
	r->meter_read[0] ^= 1;
	/* the last byte counts too */
	r->state_read[r->state_len - 1] ^= 0x80;
	assert_failed_at(r, "measurement-state", "not the SHA-384 of state_certificate");
}

static void test_busy(void **state)
{
	static const uint8_t codes[] = { SDSI_SPDM_GET_VERSION, SDSI_SPDM_GET_CERTIFICATE,
					 SDSI_SPDM_CHALLENGE, SDSI_SPDM_GET_MEASUREMENTS };
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;
	struct sdsi_error *err = sdsi_error_new();
	unsigned int i;

	for (i = 0; i < sizeof(codes); i++) {
		r->busy_on = codes[i];
		assert_int_equal(tr_verify(r, NULL, &v, err), -EBUSY);
		assert_null(v);
		assert_int_equal(sdsi_error_errno(err), EBUSY);
		assert_non_null(strstr(sdsi_error_message(err), "Busy"));
	}
	sdsi_error_free(err);
}

/* The leaf padded so that slot 0's chain is exactly len bytes. */
static void size_chain(struct test_responder *r, size_t len)
{
	size_t padding = len - 1200;
	unsigned int tries;

	/* the signatures' DER varies by a byte or two: size again until it fits */
	for (tries = 0; tries < 64; tries++) {
		tr_free(r);
		assert_int_equal(tr_init(r, padding, false), 0);
		if (r->chain_len == len)
			return;
		padding = padding + len - r->chain_len;
	}
	fail_msg("no chain of exactly %zu bytes", len);
}

static void grow_remainder(struct test_responder *r, const uint8_t *req, size_t req_len,
			   uint8_t *rsp, size_t *rsp_len)
{
	(void)r;
	(void)req_len;
	(void)rsp_len;
	if (req[1] == SDSI_SPDM_GET_CERTIFICATE)
		sdsi_put_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER,
			      (uint16_t)(sdsi_le16(rsp + SDSI_SPDM_CERT_OFF_REMAINDER) + 1));
}

static void test_chain_bound(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_verdict *v;

	size_chain(r, SDSI_SPDM_CHAIN_MAX);
	assert_int_equal(tr_verify(r, NULL, &v, NULL), 0);
	if (!sdsi_attest_verdict_ok(v))
		fail_msg("%s", sdsi_attest_verdict_summary(v));
	/* 65535 bytes in portions of 4080 (answers of 4088 bytes, the most) */
	assert_int_equal(r->seen[SDSI_SPDM_GET_CERTIFICATE], 17);
	sdsi_attest_verdict_free(v);
	/* the first answer announcing one byte more */
	r->tamper = grow_remainder;
	assert_failed_at(r, "chain", "a chain of 65536 bytes announced, over 65535");
}

static void test_garbage_der(void **state)
{
	struct test_responder *r = *state;
	struct sdsi_attest_io io = tr_io(r);
	struct sdsi_error *err = sdsi_error_new();
	struct sdsi_attest *att;
	const uint8_t *der;
	size_t len;

	tr_free(r);
	assert_int_equal(tr_init(r, 0, true), 0);
	assert_failed_at(r, "chain", "starts no DER certificate");
	/* the raw chain is the device's, as it gave it; its leaf is no DER */
	assert_int_equal(sdsi_attest_open_with(&io, "t", &att, err), 0);
	assert_int_equal(sdsi_attest_chain(att, &der, &len, err), 0);
	assert_int_equal(sdsi_attest_leaf_der(att, &der, &len, err), -EPROTO);
	assert_null(der);
	assert_non_null(strstr(sdsi_error_message(err), "starts no DER certificate"));
	sdsi_attest_free(att);
	sdsi_error_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_names),
		cmocka_unit_test_setup_teardown(test_full_flow, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_no_meter, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_plain_calls, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_untrusted_root, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_trust_dir, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_trust_paths_refused, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_replayed_challenge_auth, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_bad_signatures, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_measurements, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_busy, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_chain_bound, tr_fixture_setup, tr_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_garbage_der, tr_fixture_setup, tr_fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
