// SPDX-License-Identifier: GPL-2.0-only
/*
 * The part's attestation identity in the model: made once from the root,
 * kept beside the NVRAM across restarts, never shared by two parts,
 * refused when its file is not one; a part without a root; and the
 * attest-* faults, each breaking what it names.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/evp.h>

#include "model/model_priv.h"
#include "spdm_requester.h"

static void test_identity_kept(void **state)
{
	struct fixture *f = *state;
	uint8_t first[48], again[48], other[48];
	static uint8_t chain[65536];
	EVP_PKEY *key, *other_key;
	char path[160];
	size_t len;

	chain_digest(f, first);
	tsock_close(&f->ts);
	/* Made: the root is no longer needed to start. */
	f->cfg.attest_root_cert_path = NULL;
	f->cfg.attest_root_key_path = NULL;
	tsock_open(&f->ts, &f->cfg);
	chain_digest(f, again);
	assert_memory_equal(first, again, 48);
	snprintf(path, sizeof(path), "%s/socket0.identity", f->dir);
	assert_int_equal(access(path, R_OK), 0);
	f->cfg.attest_root_cert_path = f->root_cert;
	f->cfg.attest_root_key_path = f->root_key;
	len = read_chain(f, chain, sizeof(chain), 4092);
	key = leaf_key(chain, len);
	tsock_close(&f->ts);
	f->cfg.socket_index = 1;
	f->cfg.ppin = 0x1111;
	tsock_open(&f->ts, &f->cfg);
	chain_digest(f, other);
	assert_memory_not_equal(first, other, 48);
	len = read_chain(f, chain, sizeof(chain), 4092);
	other_key = leaf_key(chain, len);
	/* Two parts never share a key. */
	assert_int_not_equal(EVP_PKEY_eq(key, other_key), 1);
	EVP_PKEY_free(key);
	EVP_PKEY_free(other_key);
}

/* An identity file that is not one is refused, named, and left as it was. */
static void test_identity_file_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], link_target[160];
	const char *msg;
	FILE *fp;

	tsock_close(&f->ts);
	snprintf(path, sizeof(path), "%s/socket0.identity", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("not a key\n", fp);
	fclose(fp);
	msg = tsock_expect_refused(&f->cfg, -EPROTO, path);
	assert_non_null(strstr(msg, "not a P-384 key"));
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(link_target, sizeof(link_target), fp));
	fclose(fp);
	assert_string_equal(link_target, "not a key\n");
	/* A symbolic link is not followed. */
	assert_int_equal(unlink(path), 0);
	snprintf(link_target, sizeof(link_target), "%s/attestation-root.key", f->dir);
	assert_int_equal(symlink(link_target, path), 0);
	tsock_expect_refused(&f->cfg, -ELOOP, path);
	assert_int_equal(unlink(path), 0);
	/* A root whose key is another's: nothing is made. */
	f->cfg.attest_root_key_path = f->root_cert;
	tsock_expect_refused(&f->cfg, -EBADMSG, "attestation root");
	assert_int_not_equal(access(path, F_OK), 0);
}

/* A part made without a root: an empty slot 0, and the rest refused. */
static void test_no_identity(void **state)
{
	struct fixture *f = *state;
	uint8_t rsp[SDSI_READ_MSG_MAX];

	tsock_close(&f->ts);
	f->cfg.attest_root_cert_path = NULL;
	f->cfg.attest_root_key_path = NULL;
	f->cfg.state_dir = NULL;
	tsock_open(&f->ts, &f->cfg);
	vca(f);
	assert_int_equal(xchg(f, spdm_get_digests, 4, rsp), 4);
	assert_int_equal(rsp[3], 0);
	expect_error(f, ((uint8_t[]){ 0x10, 0x82, 0, 0, 0, 0, 16, 0 }), 8,
		     SDSI_SPDM_ERR_INVALID_REQUEST);
}

static void test_faults(void **state)
{
	struct fixture *f = *state;
	uint8_t chain[65536], rsp[SDSI_READ_MSG_MAX], good[48], state_hash[48];
	size_t chain_len;
	EVP_PKEY *key;
	bool ok = false;

	chain_digest(f, good);
	chain_len = read_chain(f, chain, sizeof(chain), 4092);
	key = leaf_key(chain, chain_len);

	/* Busy, once, whatever was asked; not a requester's error. */
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_BUSY, 0, 1), 0);
	assert_int_equal(xchg(f, spdm_get_digests, 4, rsp), 4);
	assert_int_equal(rsp[1], 0x7F);
	assert_int_equal(rsp[2], SDSI_SPDM_ERR_BUSY);
	assert_int_equal(sdsi_model_spdm_errors(f->ts.m), 0);
	assert_int_equal(xchg_m1(f, spdm_get_digests, 4, rsp), 52);

	/* A flipped signature bit: CHALLENGE_AUTH no longer verifies, once. */
	assert_true(challenge(f, key, chain, chain_len, 0));
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_SIGNATURE, 0, 1), 0);
	assert_false(challenge(f, key, chain, chain_len, 0));
	assert_true(challenge(f, key, chain, chain_len, 0));

	/* Measurement 1 of a different certificate. */
	state_digest(f, state_hash);
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_MEASUREMENT, 0, 1), 0);
	f->l1_len = 0;
	measurements(f, key, 1, true, rsp, &ok);
	assert_true(ok);
	assert_memory_not_equal(rsp + 15, state_hash, 48);
	measurements(f, key, 1, true, rsp, &ok);
	assert_memory_equal(rsp + 15, state_hash, 48);
	EVP_PKEY_free(key);

	/* A chain from another root, until cleared. */
	assert_int_equal(sdsi_model_fault_set(f->ts.m, SDSI_FAULT_ATTEST_CHAIN, 0, 0), 0);
	assert_int_equal(xchg(f, spdm_get_digests, 4, rsp), 52);
	assert_memory_not_equal(rsp + 4, good, 48);
	chain_len = read_chain(f, chain + 0, sizeof(chain), 4092);
	sha384(chain, chain_len, good);
	assert_memory_equal(rsp + 4, good, 48);
	sdsi_model_fault_clear(f->ts.m, SDSI_FAULT_ATTEST_CHAIN);
	assert_int_equal(sdsi_model_violation_count(f->ts.m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, spdm_setup, spdm_teardown)
		T(test_identity_kept),
		T(test_no_identity),
		T(test_identity_file_refused),
		T(test_faults),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
