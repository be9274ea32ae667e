/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A requester for the model's SPDM responder tests: one socket with an
 * attestation identity made from a root in a scratch directory, exchanges
 * through the mailbox as Intel's driver frames them (linux_mmio.h), and the
 * requester's own transcripts (M1, L1) as plain bytes, verified with
 * OpenSSL against the leaf of the chain the part serves.
 */
#ifndef SDSI_TESTS_UNIT_MODEL_SPDM_REQUESTER_H
#define SDSI_TESTS_UNIT_MODEL_SPDM_REQUESTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

#include "linux_mmio.h"

struct fixture {
	char dir[64];
	char root_cert[128];
	char root_key[128];
	struct tsock ts;
	struct sdsi_model_config cfg;
	/* The requester's transcripts: M1 (A + B + C) and L1. */
	uint8_t m1[16384];
	size_t m1_len, a_len;
	uint8_t l1[8192];
	size_t l1_len;
};

extern const uint8_t spdm_get_version[4], spdm_get_caps[4], spdm_get_digests[4];

/* cmocka fixtures: *state becomes a struct fixture. */
int spdm_setup(void **state);
int spdm_teardown(void **state);
/* One exchange the mailbox completes; returns the response length. */
size_t xchg(struct fixture *f, const void *req, size_t len, uint8_t *rsp);
/* The same, entering M1. */
size_t xchg_m1(struct fixture *f, const void *req, size_t len, uint8_t *rsp);
void add(uint8_t *t, size_t *tlen, size_t max, const void *p, size_t n);
/* The request gets ERROR code, counted in spdm_errors. */
void expect_error(struct fixture *f, const void *req, size_t len, uint8_t code);
void nego_request(uint8_t req[32]);
/* GET_VERSION, GET_CAPABILITIES, NEGOTIATE_ALGORITHMS, each answer checked. */
void vca(struct fixture *f);
/* VCA, then DIGESTS: slot 0's digest. */
void chain_digest(struct fixture *f, uint8_t out[48]);
/* Slot 0's chain in portions of at most step bytes; returns its length. */
size_t read_chain(struct fixture *f, uint8_t *chain, size_t max, unsigned int step);
/* The public key of the chain's last certificate. */
EVP_PKEY *leaf_key(const uint8_t *chain, size_t len);
/* ECDSA P-384 over SHA-384 of msg, raw r || s. */
bool verifies(EVP_PKEY *key, const uint8_t *msg, size_t len, const uint8_t *sig);
void sha384(const void *p, size_t n, uint8_t out[48]);
/* CHALLENGE with summary type summary; whether CHALLENGE_AUTH verifies. */
bool challenge(struct fixture *f, EVP_PKEY *key, const uint8_t *chain,
	       size_t chain_len, uint8_t summary);
/* SHA-384 of the state certificate a read returns now. */
void state_digest(struct fixture *f, uint8_t out[48]);
/* GET_MEASUREMENTS of what; signed: *ok says whether it verifies over L1. */
size_t measurements(struct fixture *f, EVP_PKEY *key, uint8_t what,
		    bool sign, uint8_t *rsp, bool *ok);

#endif /* SDSI_TESTS_UNIT_MODEL_SPDM_REQUESTER_H */
