/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sdsi-authority: the licensor's side of On Demand licensing in the project's
 * stand-in format (docs/formats.md).  One file per subcommand; this header
 * holds what they share: exit statuses, the option tables that drive both
 * getopt and --help, and small parsing and file helpers.
 */
#ifndef SDSI_TOOLS_AUTHORITY_H
#define SDSI_TOOLS_AUTHORITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "licensing/sdsi_lic.h"

/*
 * Exit statuses: the table of every sdsi program (docs/exit-codes.md).  A key
 * or input file that cannot be opened is 2, one that does not decode 8, an
 * output that cannot be written 7, existing keys 5, a bad signature 6.
 */
#include "sdsi/exit_status.h"
#include "cli/cli_option.h"
#include "util/util_hex.h"
#include "util/util_array.h"

/* Key files of an authority directory. */
#define AUTH_ROOT_KEY		"root.key"
#define AUTH_ROOT_PUB		"root.pub"
#define AUTH_LICENSOR_KEY	"licensor.key"
#define AUTH_LICENSOR_PUB	"licensor.pub"
/* The attestation root: what an owner trusts, and the key that issues parts' identities. */
#define AUTH_ATTEST_ROOT_CERT	"attestation-root.pem"
#define AUTH_ATTEST_ROOT_KEY	"attestation-root.key"

/* Largest file inspect reads; anything bigger is reported as oversized. */
#define AUTH_INPUT_MAX		(64u * 1024u)

/* Every command's last option: auth_getopt answers it with the command's help. */
#define AUTH_HELP_OPTION \
	{ 'h', 'h', "help", NULL, CLI_ARG_NONE, NULL, "show this help and exit" }

struct auth_command {
	const char *name;
	const char *synopsis;
	const char *summary;
	/* The front end's description (cli_option.h), AUTH_HELP_OPTION last. */
	const struct cli_option *options;
	size_t count;
	int (*run)(const struct auth_command *cmd, int argc, char **argv);
};

#define AUTH_OPTIONS(table)	.options = (table), .count = UTIL_ARRAY_SIZE(table)

extern const struct auth_command auth_cmd_init;
extern const struct auth_command auth_cmd_akc;
extern const struct auth_command auth_cmd_cap;
extern const struct auth_command auth_cmd_inspect;

/*
 * getopt_long over cmd->options (-h/--help prints the command's help and
 * exits 0).  Returns the option id, -1 at the end, or '?' after
 * printing a usage error.
 */
int auth_getopt(const struct auth_command *cmd, int argc, char **argv);
/* "--OPTION: 'VALUE' is not EXPECTED", the usage error of a bad value. */
int auth_bad_value(const struct auth_command *cmd, const char *option, const char *value,
		   const char *expected);
void auth_print_help(const struct auth_command *cmd);
/* --dump-bash-completion and --dump-options, from the commands' tables. */
void auth_print_completion(const struct auth_command *const *cmds, size_t count);
void auth_print_option_list(const struct auth_command *const *cmds, size_t count);
/* The options before a command (--help, --version), for the main help. */
void auth_print_top_options(void);
/* Print "sdsi-authority CMD: message" and the hint to use --help; return 2. */
int auth_usage_error(const struct auth_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print "sdsi-authority: message" on stderr. */
void auth_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whole-string parsers: 0 on success, -EINVAL otherwise. */
int auth_parse_hex64(const char *text, uint64_t *value);
int auth_parse_u32(const char *text, uint32_t *value);

/*
 * The exit status for a failure to load a key file (its -errno): a link
 * or a path another user could change (-ELOOP, -EPERM) is a refusal (5).
 */
int auth_key_exit(int rc);
/*
 * DIR opened once (paths/sdsi_path.h): every component from "/" owned by
 * root or the caller and closed to others' writes, no link followed, and
 * DIR itself writable by no one else even with the sticky bit.  Its key
 * files are then opened relative to the descriptor.  The descriptor, or
 * -status after printing why.
 */
int auth_open_dir(const char *dir);

/*
 * fd (DIR, opened) if DIR is closed to others' writes as sdsi_path.h
 * wants a directory of keys; otherwise the reason printed, fd closed and
 * -SDSI_EXIT_REFUSED.
 */
int auth_dir_closed(int fd, const char *dir);
/* dir/name into buf; exits with a message when the path does not fit. */
const char *auth_key_path(char *buf, size_t size, const char *dir,
			  const char *name);
/*
 * The authority's key NAME, in DIR opened as dirfd (never a link, judged
 * by its descriptor: sdsi_lic.h's *_at loaders), named DIR/NAME in err.
 */
int auth_load_private(int dirfd, const char *dir, const char *name, EVP_PKEY **key,
		      struct sdsi_lic_error *err);
int auth_load_public(int dirfd, const char *dir, const char *name, EVP_PKEY **key,
		     struct sdsi_lic_error *err);
/*
 * Write a blob crash-safely to path (paths/sdsi_path.h's output: its
 * directory walked and checked, a temporary file there, renamed over the
 * name), with mode 0644 or the existing file's.  path must be missing or
 * a regular file (7 otherwise; a symbolic link is neither followed nor
 * replaced: 5), neither one of the key files of the authority whose
 * directory is dirfd nor any file holding a key or certificate in any form
 * OpenSSL reads (5: the blob would destroy it).  Prints the failure; 0, 5
 * or 7 (1 without memory).
 */
int auth_write_output(int dirfd, const char *path, const void *data, size_t len);
/*
 * The License Key Image as intel_sdsi -s shows it (docs/schema/common.json
 * "key_image"), util_hex_key_image(): one order in both tools, text and
 * JSON alike.
 */
#define AUTH_KEY_IMAGE_HEX UTIL_KEY_IMAGE_HEX_SIZE(SDSI_LICENSE_KEY_IMAGE_SIZE)

#endif /* SDSI_TOOLS_AUTHORITY_H */
