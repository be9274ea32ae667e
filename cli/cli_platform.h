/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options sdsi-emu and sdsi-shmem share: what the emulated platform
 * looks like.  Each program puts CLI_PLATFORM_OPTIONS in its option table
 * and hands the ids it does not know itself to cli_platform_option(), so
 * the two accept the same spellings with the same limits and messages.
 */
#ifndef SDSI_CLI_PLATFORM_H
#define SDSI_CLI_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/sdsi_model.h"
#include "cli_option.h"
#include "cli_value.h"

enum cli_platform_option_id {
	CLI_OPT_SOCKETS = 512, CLI_OPT_GUID, CLI_OPT_STATE, CLI_OPT_STATE_DIR,
	CLI_OPT_FEATURES, CLI_OPT_PPIN, CLI_OPT_IBLOCK, CLI_OPT_AKC_THRESHOLD,
	CLI_OPT_CAP_THRESHOLD, CLI_OPT_UPDATES, CLI_OPT_NVRAM_ENDURANCE,
	CLI_OPT_RDY_LATENCY, CLI_OPT_AUTHORITY, CLI_OPT_ROOT_KEY,
	CLI_OPT_PLATFORM_END,
};

/* The entries, for a program's own table: { CLI_PLATFORM_OPTION_ENTRIES, ... }. */
#define CLI_PLATFORM_OPTION_ENTRIES \
	{ CLI_OPT_SOCKETS, 0, "sockets", "N", CLI_ARG_NONE, NULL, \
	  "number of sockets, 1..16 (default 1); socket N has socket ID N and appears as intel_vsec.sdsi.N" }, \
	{ CLI_OPT_GUID, 0, "guid", "v1|v2", CLI_ARG_WORDS, "v1 v2 0x006dd191 0xf210d9ef", \
	  "register layout: v1 (0x006dd191) or v2 (0xf210d9ef, the default); the hex values are accepted too" }, \
	{ CLI_OPT_STATE, 0, "state", "DIR", CLI_ARG_DIR, NULL, \
	  "NVRAM directory, socketN.nvram in it for socket N" }, \
	{ CLI_OPT_STATE_DIR, 0, "state-dir", "DIR", CLI_ARG_DIR, NULL, \
	  "the same as --state" }, \
	{ CLI_OPT_FEATURES, 0, "features", "LIST", CLI_ARG_WORDS, \
	  "none on-demand attestation metering on-demand,attestation,metering", \
	  "enabled features: a comma list of on-demand, attestation, metering; or none; or a hex value using only bits 3, 12 and 26.  Default: all three with v2, on-demand alone with v1 (an SPR-like part)" }, \
	{ CLI_OPT_PPIN, 0, "ppin", "HEX[,HEX...]", CLI_ARG_NONE, NULL, \
	  "PPIN of socket 0, 1, ... (non-zero; it must match the one in an existing NVRAM file; sockets without one keep the PPIN in NVRAM or get a generated one)" }, \
	{ CLI_OPT_IBLOCK, 0, "iblock", NULL, CLI_ARG_NONE, NULL, \
	  "set the BIOS in-band lock (control bit 32)" }, \
	{ CLI_OPT_AKC_THRESHOLD, 0, "akc-threshold", "N", CLI_ARG_NONE, NULL, \
	  "AKC failure threshold, 1..7 (default 3)" }, \
	{ CLI_OPT_CAP_THRESHOLD, 0, "cap-threshold", "N", CLI_ARG_NONE, NULL, \
	  "CAP failure threshold, 1..7 (default 3)" }, \
	{ CLI_OPT_UPDATES, 0, "updates", "N", CLI_ARG_NONE, NULL, \
	  "updates per power cycle, 1..7 (default 4)" }, \
	{ CLI_OPT_NVRAM_ENDURANCE, 0, "nvram-endurance", "N", CLI_ARG_NONE, NULL, \
	  "provisioning writes the NVRAM is rated for, 1..4294967295 (default 1000); NVRAM_UPDATE_LIMITS reports 50, 75 and 90% of them made, and writes beyond still succeed.  The count is kept in NVRAM, N is not: give the same N at every start" }, \
	{ CLI_OPT_RDY_LATENCY, 0, "rdy-latency-us", "N", CLI_ARG_NONE, NULL, \
	  "latency before RDY on every mailbox transaction, in microseconds, 0..4294967295 (a permanent rdy-latency fault; default 0)" }, \
	{ CLI_OPT_AUTHORITY, 0, "authority", "DIR", CLI_ARG_DIR, NULL, \
	  "trust DIR/root.pub, as written by 'sdsi-authority init DIR', as every socket's fused root key: AKCs signed with DIR/root.key then authenticate; DIR/attestation-root.pem and its key, when there, issue each new part's attestation identity" }, \
	{ CLI_OPT_ROOT_KEY, 0, "root-key", "FILE", CLI_ARG_FILE, NULL, \
	  "the same with the PEM P-384 public key FILE.  With neither, no AKC or CAP ever authenticates" },

extern const struct cli_option cli_platform_options[];
extern const size_t cli_platform_option_count;

struct cli_platform {
	unsigned int sockets;
	uint32_t guid;
	const char *state_dir;		/* NULL: the program's default */
	uint64_t features;
	bool features_given;
	uint64_t ppin[CLI_MAX_SOCKETS];	/* 0: from NVRAM or generated */
	unsigned int nppins;
	bool iblock;
	uint8_t akc_threshold;		/* 0: the model's default */
	uint8_t cap_threshold;
	uint8_t updates;
	uint32_t nvram_endurance;	/* 0: the model's default */
	uint32_t rdy_latency_us;	/* 0: no latency fault */
	const char *authority_dir;	/* --authority: DIR/root.pub is the root */
	const char *root_key;		/* --root-key FILE */
	/*
	 * The root either names, loaded by cli_platform_finish from a
	 * descriptor opened once (NULL: none); every socket's model takes it
	 * (cli_platform_model_config), so the name is never looked up again.
	 */
	EVP_PKEY *root_pkey;
	/*
	 * With --authority: DIR/attestation-root.pem and its key, loaded from
	 * DIR's descriptor by cli_platform_finish, which issue a part's
	 * attestation identity the first time it starts; NULL when the
	 * authority has none (made before attestation).
	 */
	X509 *attest_root;
	EVP_PKEY *attest_root_key;
};

/* One socket, v2, every default. */
void cli_platform_init(struct cli_platform *p);

/*
 * Take one platform option (id from cli_platform_options).  0, or
 * SDSI_EXIT_USAGE after "PROGRAM: --opt: reason" on stderr.
 */
int cli_platform_option(const char *program, int id, const char *arg,
		       struct cli_platform *p);

/* Once every option is in: defaults that depend on others, conflicts. */
int cli_platform_finish(const char *program, struct cli_platform *p);

/* The root key file the options name, "" for none; -ENAMETOOLONG. */
int cli_platform_root_key(const struct cli_platform *p, char *path, size_t len);

/*
 * Socket n's model configuration, with the root key and the attestation
 * root loaded (state_dir and clock unset).
 */
void cli_platform_model_config(const struct cli_platform *p, unsigned int n,
			      struct sdsi_model_config *cfg);

/* What the options ask of a new model beyond its config (--rdy-latency-us). */
int cli_platform_model_setup(const struct cli_platform *p, struct sdsi_model *m,
			    unsigned int n, char *err, size_t errlen);

/*
 * Socket n's model, made the one way both daemons make it: its config
 * (cli_platform_model_config) with the program's own parts (its NVRAM
 * directory, its clock, NULL for CLOCK_MONOTONIC, and the root key file it
 * resolved, NULL or "" for none), then its setup (cli_platform_model_setup).
 * *m is set as soon as the model exists, also when the setup then fails:
 * the caller destroys it as any other.  0 or -errno with err; a failure
 * with *m still NULL is the model's own, whose message names no socket.
 */
int cli_platform_model_create(const struct cli_platform *p, unsigned int n,
			     const char *state_dir, const char *root_key_path,
			     sdsi_model_clock_fn clock, void *clock_ctx,
			     struct sdsi_model **m, char *err, size_t errlen);

/* "PROGRAM: reason", the hint, SDSI_EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int cli_usage_error(const char *program, const char *fmt, ...);

#endif /* SDSI_CLI_PLATFORM_H */
