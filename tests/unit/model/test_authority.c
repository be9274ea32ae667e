// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "scratch_dir.h"
#include "test_authority.h"

void authority_init(struct test_authority *a)
{
	memset(a, 0, sizeof(*a));
	strcpy(a->dir, "/tmp/sdsi-model-auth-XXXXXX");
	assert_non_null(mkdtemp(a->dir));
	snprintf(a->root_pub, sizeof(a->root_pub), "%s/root.pub", a->dir);
	assert_int_equal(sdsi_lic_key_generate(&a->root, NULL), 0);
	assert_int_equal(sdsi_lic_key_generate(&a->licensor, NULL), 0);
	assert_int_equal(sdsi_lic_key_save_public(a->root_pub, a->root,
						  NULL), 0);
}

void authority_fini(struct test_authority *a)
{
	scratch_dir_remove(a->dir);
	EVP_PKEY_free(a->root);
	EVP_PKEY_free(a->licensor);
}

void authority_socket_config(struct test_authority *a, struct tsock *ts,
			     struct sdsi_model_config *cfg)
{
	authority_init(a);
	tsock_config(ts, cfg, SDSI_GUID_V2);
	cfg->root_key_path = a->root_pub;
}

void authority_socket_fini(struct test_authority *a, struct tsock *ts)
{
	if (ts->m)
		tsock_close(ts);
	authority_fini(a);
}

size_t authority_akc(EVP_PKEY *root, EVP_PKEY *licensor, uint32_t key_rev,
		     uint8_t *buf, size_t size)
{
	struct sdsi_lic_akc akc = { .key_revision = key_rev };
	size_t len;

	assert_int_equal(sdsi_lic_pubkey_to_raw(licensor, akc.licensor_key,
						NULL), 0);
	assert_int_equal(sdsi_lic_akc_sign(&akc, root, NULL), 0);
	assert_int_equal(sdsi_lic_akc_encode(&akc, buf, size, &len), 0);
	return len;
}

size_t authority_cap(EVP_PKEY *licensor, const struct test_license *lic,
		     uint8_t *buf, size_t size)
{
	struct sdsi_lic_cap cap;
	const char *p = lic->codes;
	char code[5];
	size_t len;

	memset(&cap, 0, sizeof(cap));
	cap.license.type = lic->type;
	cap.license.id = lic->id;
	cap.license.ppin = lic->ppin;
	cap.license.revision = lic->revision;
	for (;;) {
		assert_true(cap.license.bundle_count < SDSI_CAP_MAX_BUNDLES);
		memcpy(code, p, 4);
		code[4] = '\0';
		assert_int_equal(sdsi_lic_code_parse(code,
			&cap.license.bundles[cap.license.bundle_count++].code), 0);
		if (p[4] != ',')
			break;
		p += 5;
	}
	assert_int_equal(sdsi_lic_cap_sign(&cap, licensor, NULL), 0);
	assert_int_equal(sdsi_lic_cap_encode(&cap, buf, size, &len, NULL), 0);
	return len;
}
