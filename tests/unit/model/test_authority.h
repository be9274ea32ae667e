/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A licence authority for the model tests: a root and a licensor key pair
 * generated per test, the root public key in a temporary directory for the
 * model's config, and AKCs and CAPs signed with the licensing library.
 */
#ifndef TEST_AUTHORITY_H
#define TEST_AUTHORITY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

#include "linux_mmio.h"
#include "sdsi_lic.h"

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
 * For fixtures that pair an authority with one socket: authority_init, then
 * a V2 tsock config that trusts the authority's root key (not yet opened);
 * and the reverse, closing the socket if it is open.
 */
void authority_socket_config(struct test_authority *a, struct tsock *ts,
			     struct sdsi_model_config *cfg);
void authority_socket_fini(struct test_authority *a, struct tsock *ts);

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

#endif /* TEST_AUTHORITY_H */
