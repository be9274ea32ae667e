/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AKCs and CAPs the model harness provisions: signed once per process
 * with keys generated then, so an input names a blob by its index and stays
 * meaningful from one run to the next.
 */
#ifndef SDSI_FUZZ_BLOBS_H
#define SDSI_FUZZ_BLOBS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

#include "licensing/sdsi_lic.h"

#define FUZZ_PPIN	0x5eedf00d12345678ull
#define FUZZ_NBLOBS	10u

struct fuzz_blob {
	uint64_t command;	/* SDSI_CMD_PROVISION_AKC or _CAP */
	uint8_t bytes[SDSI_LICENSE_BLOB_MAX];
	size_t len;
};

struct fuzz_authority {
	char dir[64];
	char root_pub[96];	/* PEM of the root public key, for the model */
	EVP_PKEY *root;		/* the model's root of trust */
	EVP_PKEY *licensor[2];
	struct fuzz_blob blobs[FUZZ_NBLOBS];
};

/* Keys, root.pub in a temporary directory removed at exit, and the blobs. */
void fuzz_authority_init(struct fuzz_authority *a);

#endif /* SDSI_FUZZ_BLOBS_H */
