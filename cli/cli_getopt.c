// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one option-parsing loop (cli_getopt.h).  getopt itself stays silent
 * (opterr 0, ':' first): every error is worded here, once.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"

/*
 * getopt_long's table and short-option string for an option table; false
 * if they do not fit in the room given, so that getopt never reads an
 * unterminated table.
 */
static bool build_tables(const struct cli_getopt_spec *spec, struct option *longopts,
			 size_t longcap, char *shortopts, size_t shortcap)
{
	size_t s = 0;

	if (spec->count + 1 > longcap)
		return false;
	if (spec->stop_at_operand)
		shortopts[s++] = '+';
	shortopts[s++] = ':';
	for (size_t i = 0; i < spec->count; i++) {
		const struct cli_option *o = &spec->opts[i];

		longopts[i] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL, o->id };
		if (!o->short_name)
			continue;
		if (s + 3 > shortcap)
			return false;
		shortopts[s++] = o->short_name;
		if (o->arg)
			shortopts[s++] = ':';
	}
	longopts[spec->count] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[s] = '\0';
	return true;
}

void cli_getopt_unknown(char *msg, size_t msglen, const char *option)
{
	snprintf(msg, msglen, "unknown option '%s'", option);
}

void cli_getopt_needs_value(char *msg, size_t msglen, const char *option)
{
	snprintf(msg, msglen, "option '%s' needs a value", option);
}

void cli_getopt_bad_value(char *msg, size_t msglen, const char *option,
			 const char *value, const char *expected)
{
	snprintf(msg, msglen, "%s: '%s' is not %s", option, value, expected);
}

/* The short option letter getopt stopped at, if it is one of the table's. */
static const struct cli_option *short_option(const struct cli_getopt_spec *spec, int c)
{
	for (size_t i = 0; i < spec->count; i++)
		if (spec->opts[i].short_name && spec->opts[i].short_name == c)
			return &spec->opts[i];
	return NULL;
}

/*
 * getopt's '?': an option the table does not have, or a value given to one
 * that takes none ("--help=x": optopt is then that option's id).  A short
 * letter is named alone, since optind may not have moved past its group.
 */
static void refused(const struct cli_getopt_spec *spec, char **argv, char *msg,
		    size_t msglen)
{
	char letter[3] = { '-', (char)optopt, '\0' };

	if (optopt && cli_option_by_id(spec->opts, spec->count, optopt) &&
	    strchr(argv[optind - 1], '=')) {
		snprintf(msg, msglen, "option '%.*s' takes no value",
			 (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
		return;
	}
	if (optopt > 0 && optopt < 256 && !short_option(spec, optopt))
		cli_getopt_unknown(msg, msglen, letter);
	else
		cli_getopt_unknown(msg, msglen, argv[optind - 1]);
}

int cli_getopt(const struct cli_getopt_spec *spec, int argc, char **argv,
	      char *msg, size_t msglen)
{
	struct option longopts[CLI_GETOPT_MAX + 1];
	char shortopts[2 + 2 * CLI_GETOPT_MAX + 1];
	int c;

	if (!build_tables(spec, longopts, CLI_GETOPT_MAX + 1, shortopts, sizeof(shortopts))) {
		snprintf(msg, msglen, "option table of %zu entries: more than %d",
			 spec->count, CLI_GETOPT_MAX);
		return CLI_GETOPT_ERROR;
	}
	opterr = 0;
	optopt = 0;
	c = spec->long_only ? getopt_long_only(argc, argv, shortopts, longopts, NULL)
			    : getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == ':') {
		cli_getopt_needs_value(msg, msglen, argv[optind - 1]);
		return CLI_GETOPT_ERROR;
	}
	if (c == '?') {
		refused(spec, argv, msg, msglen);
		return CLI_GETOPT_ERROR;
	}
	return c;
}
