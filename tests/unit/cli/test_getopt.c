// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one option-parsing loop of the four programs (cli/cli_getopt.c): a
 * table of exactly CLI_GETOPT_MAX entries, every one with a short letter and
 * a value, is parsed; one more is refused, never handed to getopt
 * unterminated; and each error has its one wording.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli_getopt.h"

#define LETTERS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg"

static struct cli_option table[CLI_GETOPT_MAX + 1];
static char names[CLI_GETOPT_MAX + 1][8];

/* count options "--oA".."--og", each with its letter and a value. */
static struct cli_getopt_spec full_table(size_t count)
{
	for (size_t i = 0; i < count; i++) {
		snprintf(names[i], sizeof(names[i]), "o%c", LETTERS[i]);
		table[i] = (struct cli_option){ LETTERS[i], LETTERS[i], names[i], "V",
					       CLI_ARG_NONE, NULL, "" };
	}
	return (struct cli_getopt_spec){ table, count, false, false };
}

/* cli_getopt over a NULL-terminated argv; the last answer and message. */
static int parse(const struct cli_getopt_spec *spec, char **argv, char *msg, size_t len)
{
	int argc = 0, c;

	while (argv[argc])
		argc++;
	optind = 0;
	msg[0] = '\0';
	while ((c = cli_getopt(spec, argc, argv, msg, len)) != -1)
		if (c == CLI_GETOPT_ERROR)
			return c;
	return -1;
}

static void test_exactly_max_fits(void **state)
{
	struct cli_getopt_spec spec = full_table(CLI_GETOPT_MAX);
	char *argv[] = { "prog", "-A", "1", "--of=2", "-f", "3", NULL };
	char msg[128];

	(void)state;
	assert_int_equal(LETTERS[CLI_GETOPT_MAX - 1], 'f');
	spec.stop_at_operand = true;	/* the longest short string: "+:" first */
	optind = 0;
	assert_int_equal(cli_getopt(&spec, 6, argv, msg, sizeof(msg)), 'A');
	assert_string_equal(optarg, "1");
	assert_int_equal(cli_getopt(&spec, 6, argv, msg, sizeof(msg)), 'f');
	assert_string_equal(optarg, "2");
	assert_int_equal(cli_getopt(&spec, 6, argv, msg, sizeof(msg)), 'f');
	assert_string_equal(optarg, "3");
	assert_int_equal(cli_getopt(&spec, 6, argv, msg, sizeof(msg)), -1);
}

static void test_one_too_many_refused(void **state)
{
	const struct cli_getopt_spec spec = full_table(CLI_GETOPT_MAX + 1);
	char *argv[] = { "prog", "-A", "1", NULL };
	char msg[128];

	(void)state;
	/* Long form only: the short string has room, getopt's table none. */
	table[CLI_GETOPT_MAX].short_name = 0;
	table[CLI_GETOPT_MAX].id = 256;
	assert_int_equal(parse(&spec, argv, msg, sizeof(msg)), CLI_GETOPT_ERROR);
	assert_string_equal(msg, "option table of 33 entries: more than 32");
}

static const struct cli_option small[] = {
	{ 'q', 'q', "quiet", NULL, CLI_ARG_NONE, NULL, "" },
	{ 'd', 'd', "devno", "N", CLI_ARG_NONE, NULL, "" },
	{ 256, 0, "all", NULL, CLI_ARG_NONE, NULL, "" },
};

static void expect(bool long_only, char **argv, const char *wording)
{
	const struct cli_getopt_spec spec = { small, 3, false, long_only };
	char msg[128];

	assert_int_equal(parse(&spec, argv, msg, sizeof(msg)), CLI_GETOPT_ERROR);
	assert_string_equal(msg, wording);
}

static void test_one_wording_per_error(void **state)
{
	(void)state;
	expect(false, (char *[]){ "p", "--bogus", NULL }, "unknown option '--bogus'");
	expect(true, (char *[]){ "p", "-bogus", NULL }, "unknown option '-bogus'");
	expect(false, (char *[]){ "p", "-x", NULL }, "unknown option '-x'");
	/* In a group, the letter, not the argument before it. */
	expect(false, (char *[]){ "p", "--all", "-xq", NULL }, "unknown option '-x'");
	expect(false, (char *[]){ "p", "-d", NULL }, "option '-d' needs a value");
	expect(false, (char *[]){ "p", "--devno", NULL }, "option '--devno' needs a value");
	expect(true, (char *[]){ "p", "-devno", NULL }, "option '-devno' needs a value");
	expect(false, (char *[]){ "p", "--all=1", NULL }, "option '--all' takes no value");
	expect(false, (char *[]){ "p", "--quiet=yes", NULL }, "option '--quiet' takes no value");
}

static void test_bad_value_wording(void **state)
{
	char msg[128];

	(void)state;
	cli_getopt_bad_value(msg, sizeof(msg), "--retry", "21", "a count from 0 to 20");
	assert_string_equal(msg, "--retry: '21' is not a count from 0 to 20");
}

static void test_stop_at_operand(void **state)
{
	const struct cli_getopt_spec spec = { small, 3, true, false };
	char *argv[] = { "p", "-q", "CMD", "--all", NULL };
	char msg[128];

	(void)state;
	optind = 0;
	assert_int_equal(cli_getopt(&spec, 4, argv, msg, sizeof(msg)), 'q');
	assert_int_equal(cli_getopt(&spec, 4, argv, msg, sizeof(msg)), -1);
	assert_int_equal(optind, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exactly_max_fits),
		cmocka_unit_test(test_one_too_many_refused),
		cmocka_unit_test(test_one_wording_per_error),
		cmocka_unit_test(test_bad_value_wording),
		cmocka_unit_test(test_stop_at_operand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
