/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A licence authority for the model tests: a root and a licensor key pair
 * generated per test, the root public key in a temporary directory for the
 * model's config, and AKCs and CAPs signed with the licensing library.
 */
#ifndef SDSI_TESTS_UNIT_MODEL_TEST_AUTHORITY_H
#define SDSI_TESTS_UNIT_MODEL_TEST_AUTHORITY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

#include "linux_mmio.h"
#include "licensing/sdsi_lic.h"

struct test_authority {
	char dir[64];		/* holds root.pub; also usable as a state dir */
	char root_pub[96];
	EVP_PKEY *root;
	EVP_PKEY *licensor;
};

/* Generate both keys and write dir/root.pub (asserts success). */
void authority_init(struct test_authority *a);
/* Remove every file in dir, then dir; free the keys. */
void authority_fini(struct test_authority *a);

/*
 * The cmocka fixture of the tests that provision one socket through the
 * mailbox: an authority, a V2 socket that trusts its root key, and the AKC
 * (key revision 1) that installs the licensor's key.  setup opens the socket
 * with volatile NVRAM; setup_persistent keeps its NVRAM file in auth.dir.
 * teardown closes the socket if it is open and removes the authority.
 */
struct authority_socket {
	struct test_authority auth;
	struct tsock ts;
	struct sdsi_model_config cfg;
	uint8_t akc[SDSI_LICENSE_BLOB_MAX];
	size_t akc_len;
};

int authority_socket_setup(void **state);
int authority_socket_setup_persistent(void **state);
int authority_socket_teardown(void **state);

/* An AKC for licensor signed by root; returns its length (208). */
size_t authority_akc(EVP_PKEY *root, EVP_PKEY *licensor, uint32_t key_rev,
		     uint8_t *buf, size_t size);

struct test_license {
	uint32_t type;		/* SDSI_BLOB_TYPE_* */
	uint64_t id;
	uint64_t ppin;
	uint32_t revision;
	const char *codes;	/* "CC02,DSA1" */
};

/* A CAP signed by licensor; returns its length. */
size_t authority_cap(EVP_PKEY *licensor, const struct test_license *lic,
		     uint8_t *buf, size_t size);

#endif /* SDSI_TESTS_UNIT_MODEL_TEST_AUTHORITY_H */
