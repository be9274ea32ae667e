/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware model: one On Demand socket as the silicon presents it.
 *
 * Everything the driver sees goes through sdsi_model_read64() and
 * sdsi_model_write64() at byte offsets of the MMIO region, with the trap
 * semantics of the real mailbox (docs/interface.md §2).  The model has
 * no threads: time-dependent behaviour (latency before RDY, ownership delay,
 * metering) is evaluated against the clock at each access.  Every entry point
 * takes the model's own lock, so a FUSE thread and a control-socket thread may
 * call it at once.
 */
#ifndef SDSI_MODEL_H
#define SDSI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdsi/hw.h>

#include <openssl/types.h>

struct sdsi_model;

/* Returns monotonic nanoseconds; NULL in the config means CLOCK_MONOTONIC. */
typedef uint64_t (*sdsi_model_clock_fn)(void *ctx);

struct sdsi_model_config {
	uint32_t guid;			/* SDSI_GUID_V1 or SDSI_GUID_V2 */
	unsigned int socket_index;	/* N of intel_vsec.sdsi.N; names the NVRAM file */
	uint8_t socket_id;		/* bits 3:0 of the Socket ID register */
	uint64_t ppin;			/* 0: taken from NVRAM, or generated and stored */
	uint64_t features;		/* ENABLED_FEATURES; only bits 3, 12, 26 kept */
	bool iblock;			/* control bit 32: BIOS in-band lock */
	uint8_t akc_fail_threshold;	/* 3-bit; 0 selects the default */
	uint8_t cap_fail_threshold;	/* 3-bit; 0 selects the default */
	uint8_t updates_threshold;	/* 3-bit; 0 selects the default */
	uint64_t capid1;		/* PCU_CR3_CAPID1_CFG value */
	const char *state_dir;		/* NVRAM directory; NULL: volatile NVRAM */
	sdsi_model_clock_fn clock;
	void *clock_ctx;
	uint32_t nvram_endurance;	/* provisioning writes; 0 selects the default */
	/*
	 * The fused root of trust: a PEM P-384 public key (an authority's
	 * root.pub) that AKCs must be signed with.  NULL: no root, so no AKC
	 * and therefore no CAP ever authenticates.  Opened as
	 * paths/sdsi_path.h opens a key (no link followed, every directory
	 * and the file owned by root or the caller, closed to others' writes).
	 */
	const char *root_key_path;
	/*
	 * The same root, already loaded from a descriptor opened once (the
	 * daemons' --authority and --root-key: cli_platform_finish); the model
	 * takes a reference.  When set, root_key_path is not looked at: a name
	 * looked up again could lead elsewhere by then.
	 */
	EVP_PKEY *root_key;
	/*
	 * The attestation root (an authority's attestation-root.pem and
	 * attestation-root.key) that issues the part's device certificate at
	 * manufacture, the first time the part starts with one; after that
	 * the identity is the part's own (socket<N>.identity beside the
	 * NVRAM file).  NULL: a part not yet made keeps an empty slot 0.
	 * The paths serve tests and tools that name files they made; the
	 * daemons pass the two below instead.
	 */
	const char *attest_root_cert_path;
	const char *attest_root_key_path;
	/*
	 * The same root, already loaded from DIR's descriptor opened once
	 * (--authority: cli_platform_finish), so its files are never looked up
	 * by name again; the model takes a reference while it makes the part.
	 * When both are set, the paths above are not looked at.
	 */
	X509 *attest_root_cert;
	EVP_PKEY *attest_root_key;
};

/* Documented defaults (docs/model.md). */
#define SDSI_MODEL_DEFAULT_FEATURES	SDSI_FEATURES_SETTABLE	/* OD | attestation | metering */
#define SDSI_MODEL_DEFAULT_AKC_THRESH	3
#define SDSI_MODEL_DEFAULT_CAP_THRESH	3
#define SDSI_MODEL_DEFAULT_UPDATES	4
#define SDSI_MODEL_DEFAULT_ENDURANCE	1000u	/* NVRAM writes before wear-out */
/* V2 control qword 1, bits 15:0: minutes between latched meter copies (ours). */
#define SDSI_MODEL_METER_PERIOD		480u

/* Fault injection (the "fault" commands of sdsi-emu ctl). */
enum sdsi_fault_kind {
	SDSI_FAULT_OOB_OWNER,		/* out-of-band agent owns the mailbox: EBUSY */
	SDSI_FAULT_NO_RDY,		/* command taken, RDY never set: ETIMEDOUT */
	SDSI_FAULT_STATUS_TIMEOUT,	/* firmware status 0x80: ETIMEDOUT */
	SDSI_FAULT_STATUS_FAILURE,	/* firmware status 0x90: EIO */
	SDSI_FAULT_BAD_PACKET_SIZE,	/* read packet over 1024 bytes: EPROTO */
	SDSI_FAULT_NO_EOM,		/* last packet lacks EOM: EPROTO */
	SDSI_FAULT_TOO_MANY_PACKETS,	/* message spans 5 packets: EPROTO */
	SDSI_FAULT_RDY_LATENCY,		/* param = microseconds before RDY */
	SDSI_FAULT_OWNER_DELAY,		/* param = microseconds before ownership (leaky bucket) */
	SDSI_FAULT_ATTEST_SIGNATURE,	/* one bit of an SPDM signature flipped */
	SDSI_FAULT_ATTEST_CHAIN,	/* slot 0 holds a chain from another root */
	SDSI_FAULT_ATTEST_MEASUREMENT,	/* measurement 1 of a different certificate */
	SDSI_FAULT_ATTEST_BUSY,		/* SPDM ERROR Busy, whatever was asked */
	SDSI_FAULT_MSG_SIZE,		/* param = bytes added to an answer's MSG_SIZE */
	SDSI_FAULT_KIND_COUNT
};

/*
 * Arm a fault.  count = number of mailbox transactions it applies to (0 = until
 * cleared); param is used by the latency kinds.  Returns 0 or -EINVAL.
 */
int sdsi_model_fault_set(struct sdsi_model *m, enum sdsi_fault_kind kind,
			 uint32_t param, unsigned int count);
void sdsi_model_fault_clear(struct sdsi_model *m, enum sdsi_fault_kind kind);

/* A fault as armed now: remaining transactions (0 = until cleared), param. */
struct sdsi_fault_state {
	bool armed;
	uint32_t param;
	unsigned int remaining;
};

/* Returns 0, or -EINVAL for an unknown kind. */
int sdsi_model_fault_get(struct sdsi_model *m, enum sdsi_fault_kind kind,
			 struct sdsi_fault_state *state);
void sdsi_model_fault_clear_all(struct sdsi_model *m);
/* Names used on the command line: "oob-owner", "no-rdy", "status-timeout", ... */
const char *sdsi_fault_name(enum sdsi_fault_kind kind);
int sdsi_fault_from_name(const char *name, enum sdsi_fault_kind *kind);

/*
 * Create a socket.  With a state_dir, loads "socket<N>.nvram" from it, or
 * creates it; a corrupt, truncated, foreign or newer-version file is refused
 * (-EPROTO truncated or corrupt, -EINVAL foreign, -EPROTONOSUPPORT newer, or
 * the -errno of a failed read) with a message in err naming the file and the
 * reason, and is never overwritten.  A root_key_path that cannot be loaded as
 * a P-384 public key is refused with its -errno (-EINVAL not a P-384 PEM key)
 * and a message naming the file.  Creating is powering on; destroying is
 * switching off: the meters are saved to NVRAM (a failure is reported on
 * stderr).
 */
int sdsi_model_create(const struct sdsi_model_config *cfg, struct sdsi_model **out,
		      char *err, size_t errlen);
void sdsi_model_destroy(struct sdsi_model *m);

/* MMIO trap interface; offsets are 8-byte aligned bytes from the region start. */
uint64_t sdsi_model_read64(struct sdsi_model *m, uint32_t offset);
void sdsi_model_write64(struct sdsi_model *m, uint32_t offset, uint64_t value);

/* Size of the MMIO region in bytes (control + 1024 + register file). */
uint32_t sdsi_model_mmio_size(const struct sdsi_model *m);
uint32_t sdsi_model_guid(const struct sdsi_model *m);

/*
 * The discovery table as Linux reads it (three dwords, then one of padding):
 * access type 3 (LOCAL), type 3, size in dwords, GUID, and an offset such that
 * the MMIO region starts mmio_gap bytes after the end of the 16-byte table.
 */
void sdsi_model_discovery(const struct sdsi_model *m, uint32_t mmio_gap,
			  uint32_t table[4]);
/*
 * The same with access type 2 (BARID): the MMIO region starts bar_offset
 * bytes (a multiple of 8) into PCI BAR tbir (0-5) of the device's parent.
 */
void sdsi_model_discovery_barid(const struct sdsi_model *m, uint32_t tbir,
				uint32_t bar_offset, uint32_t table[4]);

/*
 * Cold power cycle: mailbox, failure counts, updates available and auth error
 * bits reset; NVRAM (key, licences, wear) kept; licences provisioned since
 * the last one take effect (and superseded ones stop); the meters keep
 * counting and are saved to NVRAM.  Returns 0 or the -errno of that NVRAM
 * write (the power cycle happens anyway; the meters stay right in memory).
 */
int sdsi_model_power_cycle(struct sdsi_model *m);

/*
 * The mailbox protocol as the model checks it (docs/protocol-rules.md): an
 * MMIO access that Intel's protocol does not allow is still served as
 * before, and recorded against the first rule of this list it breaks.
 */
enum sdsi_rule {
	SDSI_RULE_UNALIGNED,		/* access not on a qword boundary */
	SDSI_RULE_READ_ONLY,		/* write to control qword 1 or the registers */
	SDSI_RULE_FIRMWARE_BITS,	/* control write sets OWNER, RDY, STATUS or IBLOCK */
	SDSI_RULE_CPL_TWICE,		/* CPL after the CPL that released the mailbox */
	SDSI_RULE_CPL_UNOWNED,		/* CPL while nobody owns the mailbox */
	SDSI_RULE_CPL_NO_COMMAND,	/* CPL while owned, before any command */
	SDSI_RULE_CPL_NOT_ALONE,	/* CPL together with other bits */
	SDSI_RULE_RUN_UNOWNED,		/* RUN_BUSY while nobody owns the mailbox */
	SDSI_RULE_RUN_ACTIVE,		/* RUN_BUSY while a command is under way */
	SDSI_RULE_CTRL_NO_ACTION,	/* control write with neither RUN_BUSY nor CPL */
	SDSI_RULE_COMMAND_FRAME,	/* command without both SOM and EOM */
	SDSI_RULE_PACKET_SIZE,		/* PACKET_SIZE not a read's 8 or a write's 8..1024 qwords */
	SDSI_RULE_MSG_SIZE,		/* MSG_SIZE neither 0 nor the PACKET_SIZE */
	SDSI_RULE_MBOX_WRITE_UNOWNED,	/* mailbox write past qword 0 while unowned */
	SDSI_RULE_MBOX_WRITE_BUSY,	/* mailbox write while a command is under way */
	SDSI_RULE_MBOX_READ_NOT_READY,	/* mailbox read with no packet presented */
	SDSI_RULE_MBOX_READ_PAST_PACKET, /* mailbox read beyond PACKET_SIZE */
	SDSI_RULE_WRITE_NO_COMMAND,	/* write whose last qword is no write command */
	SDSI_RULE_ATTEST_FRAME,		/* 0x1012 length qword or MSG_SIZE disagrees */
	SDSI_RULE_CPL_SKIPS_PACKET,	/* CPL past a packet whose RDY was never read */
	SDSI_RULE_MBOX_READ_AFTER_LAST,	/* mailbox read after the last packet's CPL */
	SDSI_RULE_COUNT
};

/* Violations a socket keeps (the latest); the count goes on past them. */
#define SDSI_MODEL_VIOLATIONS_KEPT	8u

struct sdsi_violation {
	uint64_t seq;			/* 1 for the socket's first violation */
	uint64_t time_ns;		/* model time of the access */
	uint32_t offset;		/* byte offset in the MMIO region */
	uint64_t value;			/* written, or returned to the read */
	bool write;
	enum sdsi_rule rule;
};

/* Short stable name ("cpl-twice") and one-line statement of a rule. */
const char *sdsi_rule_id(enum sdsi_rule rule);
const char *sdsi_rule_text(enum sdsi_rule rule);
/* Violations since the model was created (power cycles do not reset it). */
uint64_t sdsi_model_violation_count(struct sdsi_model *m);
/* Copy up to max of the kept violations, oldest first; returns how many. */
unsigned int sdsi_model_violations(struct sdsi_model *m,
				   struct sdsi_violation *out, unsigned int max);
/*
 * A read by an agent that mirrors the region (sdsi-shmem's port copying a
 * packet into the window), not by the driver: the same value as
 * sdsi_model_read64, never checked against the protocol.
 */
uint64_t sdsi_model_peek64(struct sdsi_model *m, uint32_t offset);

/*
 * SPDM ERRORs that answered a requester's misuse of the attestation service
 * (out of order, malformed, unsupported, wrong version) since the model
 * was created: counted apart from protocol violations, which are the
 * mailbox's.  Busy under the attest-busy fault is not counted, nor is
 * Unspecified, the responder's own failure.
 */
uint64_t sdsi_model_spdm_errors(struct sdsi_model *m);

/* BIOS settings that tests change at run time. */
void sdsi_model_set_features(struct sdsi_model *m, uint64_t features);
void sdsi_model_set_iblock(struct sdsi_model *m, bool locked);

#endif /* SDSI_MODEL_H */
