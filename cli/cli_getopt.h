/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one option-parsing loop of every program (sdsi-emu, sdsi-shmem,
 * intel_sdsi, sdsi-authority): getopt_long over an option table
 * (cli_option.h), with one wording for each error, so that the four
 * programs cannot say the same thing four ways.
 */
#ifndef SDSI_CLI_GETOPT_H
#define SDSI_CLI_GETOPT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_option.h"

/*
 * The most entries an option table may hold: getopt's tables are built on
 * the stack for this many.  A program checks its tables against it when it
 * is compiled (CLI_GETOPT_FITS); cli_getopt() refuses a table that does not
 * fit instead of handing getopt an unterminated one.
 */
#define CLI_GETOPT_MAX	32

#define CLI_GETOPT_FITS(table) \
	_Static_assert(sizeof(table) / sizeof((table)[0]) <= CLI_GETOPT_MAX, \
		       #table " has more entries than CLI_GETOPT_MAX")

/* cli_getopt()'s answer when the command line (or the table) is wrong. */
#define CLI_GETOPT_ERROR	(-2)

struct cli_getopt_spec {
	const struct cli_option *opts;
	size_t count;
	bool stop_at_operand;	/* stop at the first operand (getopt's '+') */
	bool long_only;		/* "-name" as "--name" (getopt_long_only) */
};

/*
 * The next option of argv: its id (the value in optarg), -1 when the
 * options end (optind at the first operand), or CLI_GETOPT_ERROR with the
 * reason in msg, worded as cli_getopt_unknown() and the others below.  The
 * caller resets optind (to 1, or 0 for a fresh scan) before a new argv.
 */
int cli_getopt(const struct cli_getopt_spec *spec, int argc, char **argv,
	      char *msg, size_t msglen);

/* The wordings, for the programs that parse an option by hand. */
void cli_getopt_unknown(char *msg, size_t msglen, const char *option);
void cli_getopt_needs_value(char *msg, size_t msglen, const char *option);
void cli_getopt_bad_value(char *msg, size_t msglen, const char *option,
			 const char *value, const char *expected);

#endif /* SDSI_CLI_GETOPT_H */
