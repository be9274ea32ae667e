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

static struct authority_socket *authority_socket_new(void)
{
	struct authority_socket *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	authority_init(&f->auth);
	tsock_config(&f->ts, &f->cfg, SDSI_GUID_V2);
	f->cfg.root_key_path = f->auth.root_pub;
	f->akc_len = authority_akc(f->auth.root, f->auth.licensor, 1, f->akc,
				   sizeof(f->akc));
	return f;
}

int authority_socket_setup(void **state)
{
	struct authority_socket *f = authority_socket_new();

	tsock_open(&f->ts, &f->cfg);
	*state = f;
	return 0;
}

int authority_socket_setup_persistent(void **state)
{
	struct authority_socket *f = authority_socket_new();

	/* The authority's directory doubles as the NVRAM directory. */
	f->cfg.state_dir = f->auth.dir;
	tsock_open(&f->ts, &f->cfg);
	*state = f;
	return 0;
}

int authority_socket_teardown(void **state)
{
	struct authority_socket *f = *state;

	if (f->ts.m)
		tsock_close(&f->ts);
	authority_fini(&f->auth);
	free(f);
	return 0;
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
