/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options sdsi-emu and sdsi-shmem share: what the emulated platform
 * looks like.  Each program puts FE_PLATFORM_OPTIONS in its option table
 * and hands the ids it does not know itself to fe_platform_option(), so
 * the two accept the same spellings with the same limits and messages.
 */
#ifndef SDSI_FE_PLATFORM_H
#define SDSI_FE_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "sdsi_model.h"
#include "fe_option.h"
#include "fe_value.h"

enum fe_platform_option_id {
	FE_OPT_SOCKETS = 512, FE_OPT_GUID, FE_OPT_STATE, FE_OPT_STATE_DIR,
	FE_OPT_FEATURES, FE_OPT_PPIN, FE_OPT_IBLOCK, FE_OPT_AKC_THRESHOLD,
	FE_OPT_CAP_THRESHOLD, FE_OPT_UPDATES, FE_OPT_NVRAM_ENDURANCE,
	FE_OPT_RDY_LATENCY, FE_OPT_AUTHORITY, FE_OPT_ROOT_KEY,
	FE_OPT_PLATFORM_END,
};

/* The entries, for a program's own table: { FE_PLATFORM_OPTION_ENTRIES, ... }. */
#define FE_PLATFORM_OPTION_ENTRIES \
	{ FE_OPT_SOCKETS, 0, "sockets", "N", FE_ARG_NONE, NULL, \
	  "number of sockets, 1..16 (default 1); socket N has socket ID N and appears as intel_vsec.sdsi.N" }, \
	{ FE_OPT_GUID, 0, "guid", "v1|v2", FE_ARG_WORDS, "v1 v2 0x006dd191 0xf210d9ef", \
	  "register layout: v1 (0x006dd191) or v2 (0xf210d9ef, the default); the hex values are accepted too" }, \
	{ FE_OPT_STATE, 0, "state", "DIR", FE_ARG_DIR, NULL, \
	  "NVRAM directory, socketN.nvram in it for socket N" }, \
	{ FE_OPT_STATE_DIR, 0, "state-dir", "DIR", FE_ARG_DIR, NULL, \
	  "the same as --state" }, \
	{ FE_OPT_FEATURES, 0, "features", "LIST", FE_ARG_WORDS, \
	  "none on-demand attestation metering on-demand,attestation,metering", \
	  "enabled features: a comma list of on-demand, attestation, metering; or none; or a hex value using only bits 3, 12 and 26.  Default: all three with v2, on-demand alone with v1 (an SPR-like part)" }, \
	{ FE_OPT_PPIN, 0, "ppin", "HEX[,HEX...]", FE_ARG_NONE, NULL, \
	  "PPIN of socket 0, 1, ... (non-zero; it must match the one in an existing NVRAM file; sockets without one keep the PPIN in NVRAM or get a generated one)" }, \
	{ FE_OPT_IBLOCK, 0, "iblock", NULL, FE_ARG_NONE, NULL, \
	  "set the BIOS in-band lock (control bit 32)" }, \
	{ FE_OPT_AKC_THRESHOLD, 0, "akc-threshold", "N", FE_ARG_NONE, NULL, \
	  "AKC failure threshold, 1..7 (default 3)" }, \
	{ FE_OPT_CAP_THRESHOLD, 0, "cap-threshold", "N", FE_ARG_NONE, NULL, \
	  "CAP failure threshold, 1..7 (default 3)" }, \
	{ FE_OPT_UPDATES, 0, "updates", "N", FE_ARG_NONE, NULL, \
	  "updates per power cycle, 1..7 (default 4)" }, \
	{ FE_OPT_NVRAM_ENDURANCE, 0, "nvram-endurance", "N", FE_ARG_NONE, NULL, \
	  "provisioning writes the NVRAM is rated for, 1..4294967295 (default 1000); NVRAM_UPDATE_LIMITS reports 50, 75 and 90% of them made, and writes beyond still succeed.  The count is kept in NVRAM, N is not: give the same N at every start" }, \
	{ FE_OPT_RDY_LATENCY, 0, "rdy-latency-us", "N", FE_ARG_NONE, NULL, \
	  "latency before RDY on every mailbox transaction, in microseconds, 0..4294967295 (a permanent rdy-latency fault; default 0)" }, \
	{ FE_OPT_AUTHORITY, 0, "authority", "DIR", FE_ARG_DIR, NULL, \
	  "trust DIR/root.pub, as written by 'sdsi-authority init DIR', as every socket's fused root key: AKCs signed with DIR/root.key then authenticate" }, \
	{ FE_OPT_ROOT_KEY, 0, "root-key", "FILE", FE_ARG_FILE, NULL, \
	  "the same with the PEM P-384 public key FILE.  With neither, no AKC or CAP ever authenticates" },

extern const struct fe_option fe_platform_options[];
extern const size_t fe_platform_option_count;

struct fe_platform {
	unsigned int sockets;
	uint32_t guid;
	const char *state_dir;		/* NULL: the program's default */
	uint64_t features;
	bool features_given;
	uint64_t ppin[FE_MAX_SOCKETS];	/* 0: from NVRAM or generated */
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
	 * The root either names, loaded by fe_platform_finish from a
	 * descriptor opened once (NULL: none); every socket's model takes it
	 * (fe_platform_model_config), so the name is never looked up again.
	 */
	EVP_PKEY *root_pkey;
};

/* One socket, v2, every default. */
void fe_platform_init(struct fe_platform *p);

/*
 * Take one platform option (id from fe_platform_options).  0, or
 * SDSI_EXIT_USAGE after "PROGRAM: --opt: reason" on stderr.
 */
int fe_platform_option(const char *program, int id, const char *arg,
		       struct fe_platform *p);

/* Once every option is in: defaults that depend on others, conflicts. */
int fe_platform_finish(const char *program, struct fe_platform *p);

/* The root key file the options name, "" for none; -ENAMETOOLONG. */
int fe_platform_root_key(const struct fe_platform *p, char *path, size_t len);

/* Socket n's model configuration, with the root key loaded (state_dir and clock unset). */
void fe_platform_model_config(const struct fe_platform *p, unsigned int n,
			      struct sdsi_model_config *cfg);

/* What the options ask of a new model beyond its config (--rdy-latency-us). */
int fe_platform_model_setup(const struct fe_platform *p, struct sdsi_model *m,
			    unsigned int n, char *err, size_t errlen);

/*
 * Socket n's model, made the one way both daemons make it: its config
 * (fe_platform_model_config) with the program's own parts (its NVRAM
 * directory, its clock, NULL for CLOCK_MONOTONIC, and the root key file it
 * resolved, NULL or "" for none), then its setup (fe_platform_model_setup).
 * *m is set as soon as the model exists, also when the setup then fails:
 * the caller destroys it as any other.  0 or -errno with err; a failure
 * with *m still NULL is the model's own, whose message names no socket.
 */
int fe_platform_model_create(const struct fe_platform *p, unsigned int n,
			     const char *state_dir, const char *root_key_path,
			     sdsi_model_clock_fn clock, void *clock_ctx,
			     struct sdsi_model **m, char *err, size_t errlen);

/* "PROGRAM: reason", the hint, SDSI_EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int fe_usage_error(const char *program, const char *fmt, ...);

#endif /* SDSI_FE_PLATFORM_H */
