/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the hardware model, shared by its files.  Every function
 * declared here expects the caller to hold m->lock; the public entry points
 * in model.c and faults.c take it.  Those that change the mailbox, meters,
 * faults or failure counts check it (sdsi_assert_held); the nvram_* and
 * certs_* builders are reached only through them, and unit tests call the
 * builders directly on a model no other thread can see.
 */
#ifndef SDSI_MODEL_PRIV_H
#define SDSI_MODEL_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/types.h>

#include <sdsi/hw.h>
#include <sdsi/le.h>
#include <sdsi/license_blob.h>
#include <sdsi/spdm.h>

#include "lock/sdsi_lock.h"
#include "sdsi_model.h"

/* Licences the NVRAM can list; the state certificate (4 KiB) is the real bound. */
#define MODEL_MAX_LICENSES	128u
/* Longest message the model ever presents: TOO_MANY_PACKETS pads to five. */
#define MODEL_MSG_MAX		(SDSI_MBOX_SIZE * (SDSI_MBOX_MAX_PACKETS + 1))
#define MODEL_LATCH_PERIOD_NS	(8ull * 3600ull * 1000000000ull)
#define MODEL_METER_UNIT_NS	((uint64_t)SDSI_METER_UNIT_MS_DEFAULT * 1000000ull)
/*
 * Feature codes the meter table can hold.  Every bundle is 32 bytes of a
 * state certificate of at most 4 KiB, so fewer than 128 codes can ever be
 * provisioned.
 */
#define MODEL_MAX_METERS	128u
#define MODEL_PUBKEY_SIZE	SDSI_LICENSE_PUBKEY_SIZE	/* raw X || Y */

/* Use of one metered feature code, in nanoseconds of active time. */
struct model_meter {
	uint32_t code;
	uint64_t total_ns;		/* as of model->metered_until */
	uint64_t latched_ns;		/* at the last 8-hour latch point */
};

/* What survives a power cycle (and, with a state_dir, the process). */
struct model_nvram {
	uint64_t ppin;
	bool key_provisioned;
	/* False only for a key loaded from a version 1 file (image, no key). */
	bool licensor_key_known;
	uint32_t key_rev;
	uint8_t key_image[SDSI_STATE_KEY_IMAGE_SIZE];
	uint8_t licensor_key[MODEL_PUBKEY_SIZE];
	uint32_t wear;			/* provisioning writes, for the % bits */
	uint32_t num_licenses;
	uint32_t license_words[MODEL_MAX_LICENSES];	/* dwords | VALID */
	uint8_t blobs[SDSI_READ_MSG_MAX];		/* back to back */
	uint32_t blobs_len;

	/* The meters: powered-up time and per-code use, never reset. */
	uint64_t powered_ns;		/* as of model->metered_until */
	uint64_t latched_powered_ns;	/* the last 8-hour latch point */
	uint32_t num_meters;
	struct model_meter meters[MODEL_MAX_METERS];
};

enum mbox_phase {
	MBOX_FREE,	/* no owner */
	MBOX_OWNED,	/* owned in-band, no command yet */
	MBOX_ACTIVE,	/* a command was taken; its answer is in the fields below */
};

struct model_mailbox {
	enum mbox_phase phase;
	uint64_t throttled_until;	/* ns; leaky bucket: requests ignored */
	uint64_t data[SDSI_MBOX_SIZE / 8];	/* the 1 KiB window, host order */

	/* The command in flight (phase MBOX_ACTIVE). */
	uint64_t request;		/* control value that started it */
	uint8_t status;
	uint64_t rdy_at;		/* ns */
	bool no_rdy;			/* fault: RDY never comes */
	bool advancing;			/* CPL taken, next packet not ready yet */
	/* A control read has shown RDY for the packet presented now. */
	bool rdy_seen;
	uint64_t rdy_latency_ns;

	/* The answer of a read command. */
	uint8_t message[MODEL_MSG_MAX];
	uint32_t message_len;		/* MSG_SIZE, but for msg_size_extra */
	uint32_t msg_size_extra;	/* fault: added to MSG_SIZE as reported */
	uint32_t packet;		/* index of the packet presented */
	uint32_t packet_size;		/* PACKET_SIZE as reported */
	uint64_t packet_flags;		/* SOM / EOM */
	bool packet_ends;		/* the next CPL releases the mailbox */
	bool bad_packet_size;		/* faults taken by this command */
	bool no_eom;
	/* The last CPL ended a transaction; cleared by the next grant. */
	bool released_by_cpl;
};

/* The protocol violations of the socket (protocol_rules.c). */
struct model_protocol {
	uint64_t count;
	struct sdsi_violation kept[SDSI_MODEL_VIOLATIONS_KEPT];	/* by seq - 1 */
};

/*
 * The part's attestation identity (spdm_identity.c): its P-384 key and slot
 * 0's certificate chain in SPDM form, with that chain's SHA-384.  key NULL:
 * the part was made without an attestation root and has no identity.
 */
struct model_identity {
	EVP_PKEY *key;
	uint8_t *chain;
	uint32_t chain_len;
	uint8_t digest[SDSI_SPDM_HASH_SIZE];
};

/* Where an SPDM connection stands (spdm_responder.c); reset by a power cycle. */
enum spdm_conn {
	SPDM_CONN_NONE,		/* after a reset: GET_VERSION first */
	SPDM_CONN_VERSION,	/* VERSION sent: GET_CAPABILITIES next */
	SPDM_CONN_CAPS,		/* CAPABILITIES sent: NEGOTIATE_ALGORITHMS next */
	SPDM_CONN_NEGOTIATED,	/* the rest may follow */
};

/*
 * The SPDM 1.0 transcripts, as running SHA-384 contexts: vca is A (the
 * version, capabilities and algorithms exchanges), m1 is A + B (digests and
 * certificate exchanges since then or since the last CHALLENGE_AUTH), l1
 * the measurement exchanges since L was last reset.
 */
struct model_spdm {
	enum spdm_conn conn;
	bool digests_sent;		/* GET_CERTIFICATE may follow */
	EVP_MD_CTX *vca;
	EVP_MD_CTX *m1;
	EVP_MD_CTX *l1;
	uint64_t errors;		/* ERRORs answering a requester's misuse */
};

struct model_fault {
	bool armed;
	uint32_t param;
	unsigned int remaining;		/* 0: until cleared */
};

struct sdsi_model {
	struct sdsi_lock lock;

	/* Fixed at creation. */
	uint32_t guid;
	uint32_t ctrl_size;
	uint32_t regs_size;
	unsigned int socket_index;
	uint8_t socket_id;
	uint64_t capid1;
	uint8_t akc_threshold;
	uint8_t cap_threshold;
	uint8_t updates_threshold;
	uint32_t nvram_endurance;
	char *nvram_path;		/* NULL: volatile NVRAM */
	sdsi_model_clock_fn clock;
	void *clock_ctx;
	EVP_PKEY *root_key;		/* NULL: no root of trust, nothing authenticates */

	/* BIOS settings. */
	uint64_t features;
	bool iblock;

	/* Volatile: reset by a power cycle. */
	uint8_t akc_failures;
	uint8_t cap_failures;
	uint8_t updates_available;
	bool content_auth_error;
	uint64_t metered_until;		/* ns: the meters in nv count up to here */
	/* Latched at power-on: licences and metered codes in effect. */
	bool license_active[MODEL_MAX_LICENSES];
	bool meter_active[MODEL_MAX_METERS];
	struct model_mailbox mbox;
	struct model_protocol protocol;	/* kept across power cycles */

	struct model_nvram nv;
	struct model_fault faults[SDSI_FAULT_KIND_COUNT];

	/* Attestation (bit 12): the identity, and one from a foreign root. */
	char *identity_path;		/* NULL: volatile NVRAM */
	struct model_identity identity;
	struct model_identity foreign;	/* made when attest-chain first strikes */
	struct model_spdm spdm;
};

/*
 * The model's clock, now.  Inline, not in model.c: the SPDM answers read
 * the meter certificate at the moment they answer, and calling into
 * model.c would close a call circle (model.c -> spdm_responder.c ->
 * spdm_measure.c -> model.c; scripts/check-cycles.py).
 */
static inline uint64_t model_now(const struct sdsi_model *m)
{
	return m->clock(m->clock_ctx);
}

/*
 * One of the model's counters, read under its lock: the public getters of
 * counts.  Inline, as model_now, so that a getter's file calls into no
 * other.
 */
static inline uint64_t model_counter(struct sdsi_model *m, const uint64_t *counter)
{
	uint64_t n;

	sdsi_lock_take(&m->lock);
	n = *counter;
	sdsi_lock_release(&m->lock);
	return n;
}

/* mailbox.c: the control register and the mailbox window. */
uint64_t mailbox_read_control(struct sdsi_model *m, uint64_t now);
void mailbox_write_control(struct sdsi_model *m, uint64_t value, uint64_t now);
uint64_t mailbox_read(struct sdsi_model *m, uint32_t index);
void mailbox_write(struct sdsi_model *m, uint32_t index, uint64_t value,
		   uint64_t now);
void mailbox_reset(struct sdsi_model *m);
bool mailbox_packet_ready(const struct model_mailbox *mb, uint64_t now);

/*
 * protocol_check.c: the rule (enum sdsi_rule) an access would break in the
 * mailbox's present state; SDSI_RULE_COUNT when it breaks none.
 */
enum sdsi_rule protocol_check_control(const struct model_mailbox *mb,
				      uint64_t value, uint64_t now);
enum sdsi_rule protocol_check_mbox_write(const struct model_mailbox *mb,
					 uint32_t index);
enum sdsi_rule protocol_check_mbox_read(const struct model_mailbox *mb,
					uint32_t ctrl_size, uint32_t index,
					uint64_t now);
/* protocol_rules.c: count and keep a violation (none for SDSI_RULE_COUNT). */
void protocol_record(struct sdsi_model *m, enum sdsi_rule rule,
		     uint32_t offset, uint64_t value, bool write, uint64_t now);

/* provision.c: PROVISION_AKC / PROVISION_CAP; returns the status code. */
uint8_t provision_execute(struct sdsi_model *m, uint64_t command,
			  const uint8_t *payload, size_t len);

/*
 * meter.c: the meters against model time.  power_on latches which licences
 * and metered codes are in effect; sync brings nv's counters up to now; tick
 * saves them when an 8-hour latch point has passed since the last save.
 */
void meter_power_on(struct sdsi_model *m, uint64_t now);
void meter_sync(struct sdsi_model *m, uint64_t now);
void meter_tick(struct sdsi_model *m, uint64_t now);
/* Counters in units: MMRC, then one per active code; returns the codes. */
uint32_t meter_read(const struct sdsi_model *m, uint64_t now, bool latched,
		    uint32_t *mmrc, uint32_t *codes, uint32_t *counters);

/* state_region.c: the state certificate region an NVRAM content occupies. */
uint32_t state_region_size(const struct model_nvram *nv);
bool state_region_fits(const struct model_nvram *nv);

/* certs.c: the answers of the read commands; return the length in bytes. */
uint32_t certs_state(const struct sdsi_model *m, uint8_t *out);
uint32_t certs_meter(const struct sdsi_model *m, bool current, uint64_t now,
		     uint8_t *out);

/*
 * nvram.c: changes to the provisioned content.  Each one is a provisioning
 * write: it counts towards wear and is persisted before it takes effect.  The
 * licensing code calls these once a blob has authenticated; tests call them to
 * build certificates directly.  -ENOSPC when the state certificate would no
 * longer fit 4 KiB, -EINVAL for an empty blob or a key that is not a valid
 * P-384 point's encoding length, else the -errno of the NVRAM write (state
 * unchanged).
 *
 * nvram_install_key stores the licensor key (raw X || Y) and its License Key
 * Image.  nvram_add_license appends a blob marked valid; with supersede, the
 * valid bit of every older entry with the same licence ID is cleared in the
 * same write (the tests put blobs in without it).
 */
int nvram_install_key(struct sdsi_model *m, uint32_t key_rev,
		      const uint8_t key[MODEL_PUBKEY_SIZE]);
int nvram_add_license(struct sdsi_model *m, const void *blob, size_t len,
		      bool supersede);
/* Persist the meters (not a provisioning write: no wear). */
int nvram_save_meters(struct sdsi_model *m);
uint64_t nvram_limit_bits(const struct sdsi_model *m);

/*
 * nvram_file.c: the bytes of the socket<N>.nvram file.  encode writes the
 * image of nv into buf (nvram_image_max() bytes) and returns its length;
 * decode checks every byte of one, refusing it (-EPROTO, -EINVAL,
 * -EPROTONOSUPPORT) with a message naming m's file, and fills nv.
 */
size_t nvram_image_max(void);
size_t nvram_image_encode(const struct sdsi_model *m, const struct model_nvram *nv,
			  uint8_t *buf);
int nvram_image_decode(const struct sdsi_model *m, uint64_t cfg_ppin,
		       const uint8_t *buf, size_t len, struct model_nvram *nv,
		       char *err, size_t errlen);

/* nvram_io.c: the socket<N>.nvram file on disk. */
int nvram_file_load(const struct sdsi_model *m, uint64_t cfg_ppin,
		    struct model_nvram *nv, char *err, size_t errlen);
int nvram_file_store(const struct sdsi_model *m, const struct model_nvram *nv,
		     char *err, size_t errlen);

/*
 * spdm_transport.c: ATTESTATION (0x1012) with bit 12 set.  The packet of
 * size bytes (command qword included) is checked against its frame and the
 * SPDM request in it answered; the framed response goes to out.  Returns
 * its length, or 0 for a frame the firmware refuses (status failure).
 */
uint32_t attest_execute(struct sdsi_model *m, const uint8_t *packet,
			uint32_t size, uint32_t msg_size, uint8_t *out);
/* Frame an SPDM response of len bytes (<= 4088) in out; returns the total. */
uint32_t attest_frame_response(const uint8_t *rsp, uint32_t len, uint8_t *out);

/*
 * spdm_responder.c: the SPDM 1.0 responder.  respond answers one request
 * (len bytes) into rsp (SDSI_ATTEST_RESPONSE_MAX bytes) and returns the
 * response's length; every request gets a response, an ERROR if nothing
 * else.  init/fini own the transcript contexts; reset is a power cycle's.
 */
int spdm_init(struct model_spdm *s);
void spdm_fini(struct model_spdm *s);
void spdm_reset(struct model_spdm *s);
uint32_t spdm_respond(struct sdsi_model *m, const uint8_t *req, uint32_t len,
		      uint8_t *rsp);

/*
 * spdm_auth.c: the answers that use the identity.  Each returns the
 * response's length, or an SPDM error code ORed with SPDM_FAIL.
 */
#define SPDM_FAIL	0x80000000u
uint32_t spdm_digests(struct sdsi_model *m, const uint8_t *req, uint32_t len,
		      uint8_t *rsp);
uint32_t spdm_certificate(struct sdsi_model *m, const uint8_t *req,
			  uint32_t len, uint8_t *rsp);
uint32_t spdm_challenge(struct sdsi_model *m, const uint8_t *req, uint32_t len,
			uint8_t *rsp);
/* spdm_measure.c: GET_MEASUREMENTS. */
uint32_t spdm_measurements(struct sdsi_model *m, const uint8_t *req,
			   uint32_t len, uint8_t *rsp);
/* The measurement blocks of index (1..2, or 0xFF for all) into out; returns the count. */
unsigned int spdm_measure_blocks(struct sdsi_model *m, uint8_t index,
				 uint8_t *out, uint32_t *out_len);
unsigned int spdm_measure_count(const struct sdsi_model *m);
/* The portion of a chain of chain_len bytes one CERTIFICATE serves (0: none). */
uint32_t spdm_cert_portion(uint32_t chain_len, uint32_t offset,
			   uint32_t length, uint32_t max);
/*
 * spdm_transcript.c: a transcript context restarted, or extended by a
 * message; ECDSA P-384 over SHA-384 of the transcript in ctx, raw r || s
 * (0 or -1); and that signature with one bit flipped under the
 * attest-signature fault.
 */
void spdm_hash_restart(EVP_MD_CTX *ctx);
void spdm_hash_add(EVP_MD_CTX *ctx, const uint8_t *msg, uint32_t len);
int spdm_sign(EVP_PKEY *key, EVP_MD_CTX *ctx, uint8_t sig[SDSI_SPDM_SIG_SIZE]);
int spdm_sign_transcript(struct sdsi_model *m, EVP_PKEY *key, EVP_MD_CTX *ctx,
			 uint8_t *sig);
/*
 * A signed answer's last field before its signature, the empty opaque data
 * (OpaqueLength 0) at rsp + off, then the request and the answer so far
 * into the transcript in ctx (CHALLENGE_AUTH's M1, MEASUREMENTS' L1).
 * Returns the answer's length so far, where the signature goes.
 */
uint32_t spdm_end_unsigned(EVP_MD_CTX *ctx, const uint8_t *req, uint32_t len,
			   uint8_t *rsp, uint32_t off);

/*
 * spdm_identity.c: the identity made at manufacture, kept in
 * socket<N>.identity beside the NVRAM file (or in memory with volatile
 * NVRAM).  load makes it when the file is missing and an attestation root
 * is configured; a part without either has none.
 */
int identity_load(struct sdsi_model *m, const struct sdsi_model_config *cfg,
		  char *err, size_t errlen);
void identity_free(struct model_identity *id);
/* The identity in use now: the foreign one under the attest-chain fault. */
const struct model_identity *identity_current(struct sdsi_model *m);

/* faults.c: consume one transaction of an armed fault. */
bool fault_take(struct sdsi_model *m, enum sdsi_fault_kind kind,
		uint32_t *param);
bool fault_armed(const struct sdsi_model *m, enum sdsi_fault_kind kind);

#endif /* SDSI_MODEL_PRIV_H */
