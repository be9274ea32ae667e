// SPDX-License-Identifier: GPL-2.0-only
/*
 * `inspect FILE [--dir DIR] [--json]`: decode an AKC or CAP and, with DIR,
 * verify its signature against that authority's public keys.  The exit
 * status is the verdict: 0 well-formed (and valid when verified), 1 not.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "sdsi/input_file.h"
#include "authority.h"
#include "inspect.h"

enum { OPT_DIR = 256, OPT_JSON };

static const struct cli_option inspect_options[] = {
	{ OPT_DIR, 0, "dir", "DIR", CLI_ARG_DIR, NULL, "verify the signature with DIR/root.pub (AKC) or DIR/licensor.pub (CAP)" },
	{ OPT_JSON, 0, "json", NULL, CLI_ARG_NONE, NULL, "print one JSON object on stdout, errors included" },
	AUTH_HELP_OPTION,
};

/* The whole file into buf (AUTH_INPUT_MAX + 1 bytes); a FIFO is refused, not waited on. */
static int read_input(struct inspect_report *rep, uint8_t *buf)
{
	const char *kind;
	size_t n = 0;
	ssize_t got = 1;
	int fd;

	fd = sdsi_open_regular(rep->file, &kind);
	if (fd < 0) {
		rep->failure_errno = -fd;
		if (kind)
			snprintf(rep->failure, sizeof(rep->failure),
				 "%s: not a regular file: it is %s", rep->file, kind);
		else
			snprintf(rep->failure, sizeof(rep->failure), "%s: %s", rep->file,
				 strerror(-fd));
		return sdsi_exit_for_input_errno(fd);
	}
	while (n <= AUTH_INPUT_MAX && got != 0) {
		got = read(fd, buf + n, AUTH_INPUT_MAX + 1 - n);
		if (got < 0 && errno != EINTR)
			break;
		if (got > 0)
			n += (size_t)got;
	}
	if (got < 0) {
		rep->failure_errno = errno;
		snprintf(rep->failure, sizeof(rep->failure), "%s: read: %s", rep->file,
			 strerror(errno));
	}
	close(fd);
	rep->size = n;
	if (got < 0)
		return SDSI_EXIT_IO;
	if (n > AUTH_INPUT_MAX) {
		rep->failure_errno = EFBIG;
		snprintf(rep->failure, sizeof(rep->failure),
			 "%s: larger than 64 KiB, not an AKC or CAP (at most 1016 bytes)",
			 rep->file);
		return SDSI_EXIT_MALFORMED;
	}
	return SDSI_EXIT_OK;
}

static bool has_akc_magic(const uint8_t *buf, size_t len)
{
	return len >= 4 &&
	       ((uint32_t)buf[0] | (uint32_t)buf[1] << 8 |
		(uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24) == SDSI_AKC_MAGIC;
}

static void decode(struct inspect_report *rep, const uint8_t *buf)
{
	rep->kind = sdsi_lic_blob_kind(buf, rep->size);
	switch (rep->kind) {
	case SDSI_PAYLOAD_AKC:
		rep->decoded = !sdsi_lic_akc_decode(buf, rep->size, &rep->akc,
						    &rep->decode_err);
		break;
	case SDSI_PAYLOAD_CAP:
		rep->decoded = !sdsi_lic_cap_decode(buf, rep->size, &rep->cap,
						    &rep->decode_err);
		break;
	case SDSI_PAYLOAD_FOREIGN:
		/* Ask the decoder of the magic it resembles, for a precise reason. */
		if (has_akc_magic(buf, rep->size))
			sdsi_lic_akc_decode(buf, rep->size, &rep->akc, &rep->decode_err);
		else
			sdsi_lic_cap_decode(buf, rep->size, &rep->cap, &rep->decode_err);
		break;
	}
}

static int verify(struct inspect_report *rep, const uint8_t *buf,
		  const char *dir)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL;
	int rc;

	auth_key_path(rep->key_path, sizeof(rep->key_path), dir,
		      rep->kind == SDSI_PAYLOAD_AKC ? AUTH_ROOT_PUB : AUTH_LICENSOR_PUB);
	rc = sdsi_lic_key_load_public(rep->key_path, &key, &err);
	if (rc) {
		rep->failure_errno = rc < 0 ? -rc : EINVAL;
		snprintf(rep->failure, sizeof(rep->failure), "%s", err.reason);
		return auth_key_exit(rc);
	}
	if (rep->kind == SDSI_PAYLOAD_AKC)
		rc = sdsi_lic_akc_verify(buf, rep->size, key, NULL, &rep->verify_err);
	else
		rc = sdsi_lic_cap_verify(buf, rep->size, key, NULL, &rep->verify_err);
	EVP_PKEY_free(key);
	rep->verified = true;
	rep->valid = rc == 0;
	if (rc && rc != -EBADMSG && rc != -EINVAL) {
		rep->failure_errno = -rc;
		snprintf(rep->failure, sizeof(rep->failure), "%s", rep->verify_err.reason);
		return rc == -ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
	}
	return SDSI_EXIT_OK;
}

/* --json applies to usage errors too, found before the options are parsed. */
static bool json_requested(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

static int run_inspect(const struct auth_command *cmd, int argc, char **argv)
{
	const bool json_usage = json_requested(argc, argv);
	struct inspect_report *rep;
	const char *dir = NULL;
	bool json = false;
	char msg[64];
	uint8_t *buf;
	int c, rc;

	while ((c = auth_getopt(cmd, argc, argv)) != -1) {
		if (c == OPT_DIR)
			dir = optarg;
		else if (c == OPT_JSON)
			json = true;
		else {
			if (json_usage)
				inspect_print_usage_json("invalid option; see 'sdsi-authority inspect --help'");
			return SDSI_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		snprintf(msg, sizeof(msg), "expected one file, got %d arguments", argc - optind);
		if (json)
			inspect_print_usage_json(msg);
		return auth_usage_error(cmd, "%s", msg);
	}
	rep = calloc(1, sizeof(*rep));
	buf = malloc(AUTH_INPUT_MAX + 1);
	if (!rep || !buf) {
		free(rep);
		free(buf);
		auth_error("out of memory");
		return SDSI_EXIT_INTERNAL;
	}
	rep->file = argv[optind];
	rc = read_input(rep, buf);
	if (!rc) {
		decode(rep, buf);
		if (rep->decoded && dir)
			rc = verify(rep, buf, dir);
	}
	/* Malformed or foreign: input that does not decode; a bad signature: rejected. */
	if (!rc)
		rc = !rep->decoded ? SDSI_EXIT_MALFORMED :
		     rep->verified && !rep->valid ? SDSI_EXIT_REJECTED : SDSI_EXIT_OK;
	if (json)
		inspect_print_json(rep);
	else
		inspect_print_text(rep);
	free(buf);
	free(rep);
	return rc;
}

const struct auth_command auth_cmd_inspect = {
	.name = "inspect",
	.synopsis = "FILE [--dir DIR] [--json]",
	.summary = "Decode an AKC or CAP; with --dir, also verify its signature.\n"
		   "Exit status 0: well-formed (and valid, when verified); 8: malformed\n"
		   "or foreign (not this project's format); 6: a signature that does not\n"
		   "verify; 2: the file or the key file is missing, unreadable or not a\n"
		   "regular file (/usr/share/doc/sdsi-authority/exit-codes.md).",
	AUTH_OPTIONS(inspect_options),
	.run = run_inspect,
};
