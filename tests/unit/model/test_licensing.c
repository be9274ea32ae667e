// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROVISION_AKC and PROVISION_CAP with real signatures through the mailbox:
 * what an authenticated AKC and CAP install, every byte of each covered,
 * every kind of authentication failure counted once, the thresholds and the
 * updates per power cycle, AKC replacement and licence revisions.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "linux_mmio.h"
#include "model/model_priv.h"
#include "test_authority.h"

#define PPIN		0x0123456789abcdefull
#define BLOB_MAX	SDSI_LICENSE_BLOB_MAX

static int provision(struct authority_socket *f, uint64_t cmd, const void *blob,
		     size_t len)
{
	return lx_write(&f->ts, cmd, blob, len, true);
}

static size_t cap_for(struct authority_socket *f, uint64_t id, uint32_t revision,
		      uint8_t *buf)
{
	const struct test_license lic = {
		.type = SDSI_BLOB_TYPE_ONE_TIME, .id = id, .ppin = PPIN,
		.revision = revision, .codes = "CC02,DSA1",
	};

	return authority_cap(f->auth.licensor, &lic, buf, BLOB_MAX);
}

static size_t state_cert(struct authority_socket *f, uint8_t *buf)
{
	size_t len;

	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, buf, &len),
			 0);
	return len;
}

/* An authentication failure: EIO, one more of its kind, nothing else. */
static void expect_auth_failure(struct authority_socket *f, uint64_t cmd,
				const void *blob, size_t len)
{
	unsigned int akc = akc_failures(&f->ts), cap = cap_failures(&f->ts);
	unsigned int updates = updates_available(&f->ts);
	uint32_t wear = f->ts.m->nv.wear;

	assert_int_equal(provision(f, cmd, blob, len), -EIO);
	assert_int_equal(akc_failures(&f->ts),
			 akc + (cmd == SDSI_CMD_PROVISION_AKC));
	assert_int_equal(cap_failures(&f->ts),
			 cap + (cmd == SDSI_CMD_PROVISION_CAP));
	assert_int_equal(reg_read(&f->ts, SDSI_REG_AUTH_ERR),
			 SDSI_AUTH_ERR_CONTENT);
	assert_int_equal(updates_available(&f->ts), updates);
	assert_int_equal(f->ts.m->nv.wear, wear);
}

static void test_akc_installs_licensor_key(void **state)
{
	struct authority_socket *f = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], raw[SDSI_LICENSE_PUBKEY_SIZE];
	uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE];

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV),
			 SDSI_KEY_PROVISIONED);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_AUTH_ERR), 0);
	assert_int_equal(updates_available(&f->ts),
			 SDSI_MODEL_DEFAULT_UPDATES - 1);
	assert_int_equal(state_cert(f, buf), 80);
	assert_int_equal(sdsi_le32(buf), SDSI_STATE_CONTENT_KEY);
	assert_int_equal(sdsi_le32(buf + 0x18), 1);
	assert_int_equal(sdsi_lic_pubkey_to_raw(f->auth.licensor, raw,
						NULL), 0);
	assert_int_equal(sdsi_lic_key_image(raw, image), 0);
	assert_memory_equal(buf + 0x1c, image, sizeof(image));
	assert_memory_equal(f->ts.m->nv.licensor_key, raw, sizeof(raw));
}

static void test_cap_appends_license(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX], buf[SDSI_READ_MSG_MAX];
	size_t len = cap_for(f, 0x77, 1, cap);
	size_t blob = len - SDSI_LICENSE_SIG_SIZE;

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	assert_int_equal(updates_available(&f->ts),
			 SDSI_MODEL_DEFAULT_UPDATES - 2);
	/* Header, one size word, key info, the blob; padded to 16. */
	assert_int_equal(state_cert(f, buf),
			 (0x18 + 4 + 52 + blob + 15) & ~(size_t)15);
	assert_int_equal(sdsi_le32(buf), SDSI_STATE_CONTENT_KEY_BLOBS);
	assert_int_equal(sdsi_le32(buf + 0x14), 1);
	assert_int_equal(sdsi_le32(buf + 0x18), blob / 4 | SDSI_BLOB_VALID);
	/* The blob without its signature, after the key info. */
	assert_memory_equal(buf + 0x1c + 52, cap + SDSI_CAP_BLOB_OFFSET, blob);
}

static void test_no_root_refuses_valid_akc(void **state)
{
	struct authority_socket *f = *state;

	tsock_close(&f->ts);
	f->cfg.root_key_path = NULL;
	tsock_open(&f->ts, &f->cfg);
	expect_auth_failure(f, SDSI_CMD_PROVISION_AKC, f->akc, f->akc_len);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV), 0);
}

static void test_bad_root_key_file_named(void **state)
{
	struct authority_socket *f = *state;

	f->cfg.root_key_path = "/nonexistent/root.pub";
	tsock_expect_refused(&f->cfg, -ENOENT, "/nonexistent/root.pub");
}

/* Flip one bit of every byte in turn; a power cycle clears each count. */
static void flip_every_byte(struct authority_socket *f, uint64_t cmd, uint8_t *blob,
			    size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		blob[i] ^= (uint8_t)(1u << (i % 8));
		expect_auth_failure(f, cmd, blob, len);
		blob[i] ^= (uint8_t)(1u << (i % 8));
		assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	}
	assert_int_equal(provision(f, cmd, blob, len), 0);
}

static void test_akc_every_byte_covered(void **state)
{
	struct authority_socket *f = *state;

	flip_every_byte(f, SDSI_CMD_PROVISION_AKC, f->akc, f->akc_len);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_KEY_PROV),
			 SDSI_KEY_PROVISIONED);
}

static void test_cap_every_byte_covered(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX];
	size_t len = cap_for(f, 0x99, 3, cap);

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	flip_every_byte(f, SDSI_CMD_PROVISION_CAP, cap, len);
	assert_int_equal(f->ts.m->nv.num_licenses, 1);
}

static void test_cap_before_akc(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX];
	size_t len = cap_for(f, 1, 1, cap);

	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
	assert_int_equal(f->ts.m->nv.num_licenses, 0);
}

static void test_cap_for_another_ppin(void **state)
{
	struct authority_socket *f = *state;
	const struct test_license lic = {
		.type = SDSI_BLOB_TYPE_METERED, .id = 5, .ppin = PPIN + 1,
		.revision = 1, .codes = "CC02",
	};
	uint8_t cap[BLOB_MAX];
	size_t len = authority_cap(f->auth.licensor, &lic, cap, sizeof(cap));

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
}

static void test_wrong_keys(void **state)
{
	struct authority_socket *f = *state;
	const struct test_license lic = {
		.type = SDSI_BLOB_TYPE_ONE_TIME, .id = 5, .ppin = PPIN,
		.revision = 1, .codes = "QAT4",
	};
	uint8_t blob[BLOB_MAX];
	EVP_PKEY *other;
	size_t len;

	assert_int_equal(sdsi_lic_key_generate(&other, NULL), 0);
	/* An AKC signed by another root. */
	len = authority_akc(other, f->auth.licensor, 1, blob, sizeof(blob));
	expect_auth_failure(f, SDSI_CMD_PROVISION_AKC, blob, len);
	/* The authority's own AKC goes through. */
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	/* A CAP signed by a key the AKC did not certify. */
	len = authority_cap(other, &lic, blob, sizeof(blob));
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, blob, len);
	/* An AKC sent as a CAP and the reverse: foreign to each other. */
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, f->akc, f->akc_len);
	len = authority_cap(f->auth.licensor, &lic, blob, sizeof(blob));
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	expect_auth_failure(f, SDSI_CMD_PROVISION_AKC, blob, len);
	/* Something that is not our format at all. */
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, "INTEL-CAP-BLOB--", 16);
	EVP_PKEY_free(other);
}

static void test_threshold_then_power_cycle(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX];
	size_t len = cap_for(f, 0x10, 1, cap);
	unsigned int i;

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	cap[len - 1] ^= 0x80;
	for (i = 0; i < SDSI_MODEL_DEFAULT_CAP_THRESH; i++)
		expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
	cap[len - 1] ^= 0x80;
	/* At the threshold even a good CAP is refused, without counting. */
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), -EIO);
	assert_int_equal(cap_failures(&f->ts), SDSI_MODEL_DEFAULT_CAP_THRESH);
	assert_int_equal(f->ts.m->nv.num_licenses, 0);
	/* AKCs are counted apart and still evaluated. */
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	assert_int_equal(cap_failures(&f->ts), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_AUTH_ERR), 0);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
}

static void test_updates_run_out(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX];
	size_t len;
	unsigned int i;

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	for (i = 1; i < SDSI_MODEL_DEFAULT_UPDATES; i++) {
		len = cap_for(f, 0x100 + i, 1, cap);
		assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len),
				 0);
	}
	assert_int_equal(updates_available(&f->ts), 0);
	len = cap_for(f, 0x200, 1, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), -EIO);
	assert_int_equal(cap_failures(&f->ts), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_AUTH_ERR), 0);
	assert_int_equal(f->ts.m->nv.num_licenses, SDSI_MODEL_DEFAULT_UPDATES - 1);
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
}

static void test_akc_replaced_not_rolled_back(void **state)
{
	struct authority_socket *f = *state;
	uint8_t akc[BLOB_MAX], cap[BLOB_MAX], buf[SDSI_READ_MSG_MAX];
	uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE], image[SDSI_LICENSE_KEY_IMAGE_SIZE];
	EVP_PKEY *licensor2;
	size_t len, cap_len = cap_for(f, 0x42, 1, cap);

	assert_int_equal(sdsi_lic_key_generate(&licensor2, NULL), 0);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	/* The same AKC again is harmless. */
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	len = authority_akc(f->auth.root, licensor2, 2, akc, sizeof(akc));
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, akc, len), 0);
	state_cert(f, buf);
	assert_int_equal(sdsi_le32(buf + 0x18), 2);
	assert_int_equal(sdsi_lic_pubkey_to_raw(licensor2, raw, NULL), 0);
	assert_int_equal(sdsi_lic_key_image(raw, image), 0);
	assert_memory_equal(buf + 0x1c, image, sizeof(image));
	/* CAPs of the replaced licensor no longer authenticate. */
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, cap_len);
	/* Revision 1 after 2 is a rollback. */
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	expect_auth_failure(f, SDSI_CMD_PROVISION_AKC, f->akc, f->akc_len);
	state_cert(f, buf);
	assert_int_equal(sdsi_le32(buf + 0x18), 2);
	EVP_PKEY_free(licensor2);
}

static void test_license_revisions(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX], buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	len = cap_for(f, 0xabc, 5, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	/* A replay (fresh signature, same revision) and a rollback. */
	len = cap_for(f, 0xabc, 5, cap);
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
	len = cap_for(f, 0xabc, 4, cap);
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
	/* A higher revision is a new entry; the old one loses its valid bit. */
	len = cap_for(f, 0xabc, 6, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	state_cert(f, buf);
	assert_int_equal(sdsi_le32(buf + 0x14), 2);
	assert_int_equal(sdsi_le32(buf + 0x18) & SDSI_BLOB_VALID, 0);
	assert_int_equal(sdsi_le32(buf + 0x1c) & SDSI_BLOB_VALID,
			 SDSI_BLOB_VALID);
	/* Revision 5 is still below the highest stored, 6. */
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	len = cap_for(f, 0xabc, 5, cap);
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
}

static void test_wear_bits_through_the_mailbox(void **state)
{
	struct authority_socket *f = *state;
	uint8_t cap[BLOB_MAX];
	size_t len;

	tsock_close(&f->ts);
	f->cfg.nvram_endurance = 4;
	f->cfg.updates_threshold = 7;
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_AKC, f->akc,
				   f->akc_len), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_NVRAM_LIMITS), 0);
	len = cap_for(f, 1, 1, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_NVRAM_LIMITS),
			 SDSI_NVRAM_50_PCT);
	/* Failures write nothing and wear nothing. */
	expect_auth_failure(f, SDSI_CMD_PROVISION_CAP, cap, len);
	len = cap_for(f, 2, 1, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_NVRAM_LIMITS),
			 SDSI_NVRAM_50_PCT | SDSI_NVRAM_75_PCT);
	len = cap_for(f, 3, 1, cap);
	assert_int_equal(provision(f, SDSI_CMD_PROVISION_CAP, cap, len), 0);
	assert_int_equal(reg_read(&f->ts, SDSI_REG_NVRAM_LIMITS),
			 SDSI_NVRAM_50_PCT | SDSI_NVRAM_75_PCT |
			 SDSI_NVRAM_90_PCT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, authority_socket_setup, \
						 authority_socket_teardown)
		T(test_akc_installs_licensor_key),
		T(test_cap_appends_license),
		T(test_no_root_refuses_valid_akc),
		T(test_bad_root_key_file_named),
		T(test_akc_every_byte_covered),
		T(test_cap_every_byte_covered),
		T(test_cap_before_akc),
		T(test_cap_for_another_ppin),
		T(test_wrong_keys),
		T(test_threshold_then_power_cycle),
		T(test_updates_run_out),
		T(test_akc_replaced_not_rolled_back),
		T(test_license_revisions),
		T(test_wear_bits_through_the_mailbox),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
