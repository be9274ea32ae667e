// SPDX-License-Identifier: GPL-2.0-only
/* The licensing library's side of blob_maker.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "blob_maker.h"
#include "licensing/sdsi_lic.h"

static EVP_PKEY *root, *licensors[2];

int maker_setup(void)
{
	if (sdsi_lic_key_generate(&root, NULL) ||
	    sdsi_lic_key_generate(&licensors[0], NULL) ||
	    sdsi_lic_key_generate(&licensors[1], NULL))
		return -1;
	return 0;
}

void maker_teardown(void)
{
	EVP_PKEY_free(root);
	EVP_PKEY_free(licensors[0]);
	EVP_PKEY_free(licensors[1]);
}

size_t maker_akc(unsigned int licensor, uint32_t key_revision, uint8_t *buf, size_t size,
		 uint8_t image[48])
{
	struct sdsi_lic_akc akc;
	size_t len = 0;

	memset(&akc, 0, sizeof(akc));
	akc.key_revision = key_revision;
	assert_int_equal(sdsi_lic_pubkey_to_raw(licensors[licensor], akc.licensor_key, NULL), 0);
	assert_int_equal(sdsi_lic_akc_sign(&akc, root, NULL), 0);
	assert_int_equal(sdsi_lic_akc_encode(&akc, buf, size, &len), 0);
	assert_int_equal(sdsi_lic_key_image(akc.licensor_key, image), 0);
	return len;
}

size_t maker_cap(uint32_t type, uint64_t id, uint64_t ppin, uint32_t revision,
		 uint32_t features, uint8_t *buf, size_t size)
{
	struct sdsi_lic_cap cap;
	size_t len = 0;

	memset(&cap, 0, sizeof(cap));
	cap.license.type = type;
	cap.license.id = id;
	cap.license.ppin = ppin;
	cap.license.revision = revision;
	cap.license.bundle_count = features;
	for (uint32_t k = 0; k < features; k++)
		cap.license.bundles[k].code = SDSI_FOURCC('F', 'T', '0' + k / 10, '0' + k % 10);
	assert_int_equal(sdsi_lic_cap_sign(&cap, licensors[0], NULL), 0);
	assert_int_equal(sdsi_lic_cap_encode(&cap, buf, size, &len, NULL), 0);
	return len;
}
