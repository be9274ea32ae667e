/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The attestation session and verdict of libsdsi.h, shared by attest_*.c;
 * not installed.  The transport hook (struct sdsi_attest_io) is the test
 * seam docs/testing.md lists: the unit tests and the fuzzer play the device
 * through sdsi_attest_open_with(), which the library does not export.
 */
#ifndef SDSI_LIB_ATTEST_INTERNAL_H
#define SDSI_LIB_ATTEST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "sdsi/spdm.h"
#include "sdsi_internal.h"

/*
 * The checks of a verdict, in the flow's order, with their contract names:
 * the one table (docs/library.md repeats the names for callers).
 */
#define SDSI_ATTEST_CHECKS(X) \
	X(VERSION, "version") \
	X(CAPABILITIES, "capabilities") \
	X(ALGORITHMS, "algorithms") \
	X(DIGEST, "digest") \
	X(CHAIN, "chain") \
	X(TRUST, "trust") \
	X(ROOT_HASH, "root-hash") \
	X(SLOT_DIGEST, "slot-digest") \
	X(CHALLENGE_SIGNATURE, "challenge-signature") \
	X(CHALLENGE_NONCE, "challenge-nonce") \
	X(CHALLENGE_CHAIN_HASH, "challenge-chain-hash") \
	X(MEASUREMENT_SIGNATURE, "measurement-signature") \
	X(MEASUREMENT_STATE, "measurement-state") \
	X(MEASUREMENT_METER, "measurement-meter")

#define SDSI_ATTEST_CHECK_ENUM(id, name) ATTEST_CHECK_##id,
enum attest_check { SDSI_ATTEST_CHECKS(SDSI_ATTEST_CHECK_ENUM) ATTEST_NUM_CHECKS };
#undef SDSI_ATTEST_CHECK_ENUM

/*
 * Bounds a hostile part cannot move: GET_CERTIFICATE requests for one
 * chain (a chain of 65535 bytes in portions of 256 bytes or more), and
 * measurement blocks kept (a MEASUREMENTS answer of 4088 bytes holds at
 * most 74 digest blocks).
 */
#define ATTEST_MAX_CERT_REQUESTS	256u
#define ATTEST_MAX_MEASUREMENTS		80u
#define ATTEST_DETAIL_SIZE		256u
#define ATTEST_HEX_SIZE			(2u * SDSI_SPDM_HASH_SIZE + 1u)

/* The device's side for sdsi_attest_open_with(): one exchange, and its two certificates. */
struct sdsi_attest_io {
	/* sdsi_spdm_transact()'s contract: 0 and the answer, or -errno with err. */
	int (*transact)(void *ctx, const uint8_t *req, size_t req_len, uint8_t *rsp,
			size_t rsp_cap, size_t *rsp_len, struct sdsi_error *err);
	/* sdsi_read_attr()'s contract, for SDSI_ATTR_STATE_CERT and _METER_CERT. */
	int (*read_attr)(void *ctx, enum sdsi_attr attr, uint8_t *buf, size_t *len,
			 struct sdsi_error *err);
	void *ctx;
};

struct attest_measurement {
	unsigned int index;
	uint8_t value[SDSI_SPDM_HASH_SIZE];
};

struct sdsi_attest {
	struct sdsi_attest_io io;
	char name[64];			/* the device's name, for messages */
	EVP_MD_CTX *m1;			/* A + B + C of the running connection */
	uint8_t rsp[SDSI_SPDM_RESPONSE_MAX];	/* the last answer */
	size_t rsp_len;
	uint8_t digest[SDSI_SPDM_HASH_SIZE];	/* slot 0's, from DIGESTS */
	uint8_t *chain;			/* slot 0's chain, malloc'ed, chain_len bytes */
	size_t chain_len;
	STACK_OF(X509) *certs;		/* the chain's certificates, root first */
	size_t root_len;		/* the root's DER, at SDSI_SPDM_CHAIN_OFF_CERTS */
	size_t leaf_off, leaf_len;	/* the leaf's DER in chain */
	X509 *anchor;			/* the owner's anchor the chain verified to */
	uint8_t last_auth_nonce[SDSI_SPDM_NONCE_SIZE];	/* the responder's, last CHALLENGE_AUTH */
	bool have_auth_nonce;
};

struct sdsi_attest_verdict {
	enum sdsi_attest_result result[ATTEST_NUM_CHECKS];
	char detail[ATTEST_NUM_CHECKS][ATTEST_DETAIL_SIZE];
	char summary[2 * ATTEST_DETAIL_SIZE];
	char **subjects;		/* num_certs strings, root first */
	unsigned int num_certs;
	char *anchor_subject;
	unsigned int num_meas;
	struct attest_measurement meas[ATTEST_MAX_MEASUREMENTS];
	char meas_hex[ATTEST_MAX_MEASUREMENTS][ATTEST_HEX_SIZE];
	uint8_t digest[SDSI_SPDM_HASH_SIZE];
	bool digest_read;
};

/*
 * test seam: a session on io instead of a device's /dev/isdsiN, for the
 * unit tests' SPDM responder and fuzz/fuzz_attest_answer.c; not exported
 * (libsdsi.map), reached by linking the library's objects.
 */
SDSI_HIDDEN int sdsi_attest_open_with(const struct sdsi_attest_io *io, const char *name,
				      struct sdsi_attest **att, struct sdsi_error *err);

/* ---- verdict (attest_verdict.c) ---- */
SDSI_HIDDEN struct sdsi_attest_verdict *attest_verdict_new(void);
/* Record check c; attest_fail returns 1, attest_pass 0, so steps can return them. */
SDSI_HIDDEN int attest_fail(struct sdsi_attest_verdict *v, enum attest_check c,
			    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
SDSI_HIDDEN int attest_pass(struct sdsi_attest_verdict *v, enum attest_check c,
			    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
SDSI_HIDDEN int attest_first_failed(const struct sdsi_attest_verdict *v);	/* -1: none */
SDSI_HIDDEN void attest_verdict_finish(struct sdsi_attest_verdict *v);
SDSI_HIDDEN void attest_hex(const uint8_t *bytes, size_t len, char *out);

/* ---- the flow (attest_flow.c) ---- */
enum attest_stage { ATTEST_UPTO_DIGEST, ATTEST_UPTO_CHAIN, ATTEST_UPTO_ALL };
/*
 * Run the flow up to stage, recording each check in v: 0 when it ran
 * (whatever it found), -errno with err when it could not.  store: the
 * anchors, for ATTEST_UPTO_ALL.
 */
SDSI_HIDDEN int attest_run(struct sdsi_attest *att, enum attest_stage stage,
			   X509_STORE *store, struct sdsi_attest_verdict *v,
			   struct sdsi_error *err);

/*
 * One exchange through the seam, the answer in att->rsp: 0 when it is
 * `code` of SPDM 1.0; 1 when not (an SPDM ERROR, a wrong version or code,
 * shorter than a header), the reason in why; -errno with err when it
 * could not be made, EBUSY for an SPDM ERROR Busy.
 */
SDSI_HIDDEN int attest_exchange(struct sdsi_attest *att, const uint8_t *req, size_t len,
				uint8_t code, char *why, size_t n, struct sdsi_error *err);
/* After the chain: trust, hashes, CHALLENGE, MEASUREMENTS (attest_prove.c). */
SDSI_HIDDEN int attest_prove(struct sdsi_attest *att, X509_STORE *store,
			     struct sdsi_attest_verdict *v, struct sdsi_error *err);

/* ---- strict answer parsing (attest_parse.c): 0, or -1 with the reason in why ---- */
struct attest_auth {
	const uint8_t *chain_hash, *nonce;
	size_t sig_off;			/* the signature's offset: the signed part's size */
};

struct attest_meas_answer {
	unsigned int count;
	struct attest_measurement meas[ATTEST_MAX_MEASUREMENTS];
	size_t sig_off;
};

struct attest_portion {
	size_t portion, remainder;
};

SDSI_HIDDEN int attest_parse_version(const uint8_t *rsp, size_t len, char *why, size_t n);
SDSI_HIDDEN int attest_parse_capabilities(const uint8_t *rsp, size_t len, char *why, size_t n);
SDSI_HIDDEN int attest_parse_algorithms(const uint8_t *rsp, size_t len, char *why, size_t n);
SDSI_HIDDEN int attest_parse_digests(const uint8_t *rsp, size_t len,
				     uint8_t digest[SDSI_SPDM_HASH_SIZE], char *why, size_t n);
SDSI_HIDDEN int attest_parse_certificate(const uint8_t *rsp, size_t len, size_t asked,
					 struct attest_portion *p, char *why, size_t n);
SDSI_HIDDEN int attest_parse_challenge_auth(const uint8_t *rsp, size_t len,
					    struct attest_auth *auth, char *why, size_t n);
SDSI_HIDDEN int attest_parse_measurements(const uint8_t *rsp, size_t len,
					  struct attest_meas_answer *out, char *why, size_t n);

/* ---- OpenSSL (attest_verify.c) ---- */
/* The anchors of a PEM file or a directory of them: 0, or -errno with err naming path. */
SDSI_HIDDEN int attest_load_anchors(const char *path, X509_STORE **store,
				    struct sdsi_error *err);
/* The chain's DER certificates into att->certs and the leaf's place: 0 or -1 with why. */
SDSI_HIDDEN int attest_parse_chain_certs(struct sdsi_attest *att, char *why, size_t n);
/* The leaf verified to an anchor of store; the anchor's subject into v. */
SDSI_HIDDEN int attest_check_trust(struct sdsi_attest *att, X509_STORE *store,
				   struct sdsi_attest_verdict *v, char *why, size_t n);
/* The root certificate equal to the anchor the chain verified to (att->anchor). */
SDSI_HIDDEN int attest_root_is_anchor(struct sdsi_attest *att, char *why, size_t n);
/* A certificate's subject, RFC 2253, malloc'ed; NULL out of memory. */
SDSI_HIDDEN char *attest_subject(X509 *cert);
/* An ECDSA P-384 r || s over digest, by the leaf's key: 0, or -1 with why. */
SDSI_HIDDEN int attest_check_signature(struct sdsi_attest *att,
				       const uint8_t digest[SDSI_SPDM_HASH_SIZE],
				       const uint8_t sig[SDSI_SPDM_SIG_SIZE], char *why, size_t n);
SDSI_HIDDEN void attest_sha384(const uint8_t *bytes, size_t len,
			       uint8_t out[SDSI_SPDM_HASH_SIZE]);

#endif /* SDSI_LIB_ATTEST_INTERNAL_H */
