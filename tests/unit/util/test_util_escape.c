// SPDX-License-Identifier: GPL-2.0-only
/*
 * util_escape.h: control characters and backslashes in text, never cut
 * mid-escape; bytes that are not UTF-8 in JSON as \udcNN, valid UTF-8 kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/util_escape.h"

/* What f (a temporary file) holds. */
static char *contents(FILE *f)
{
	long n;
	char *text;

	fflush(f);
	n = ftell(f);
	assert_true(n >= 0);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	rewind(f);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	return text;
}

static void test_text_name(void **state)
{
	char buf[64], *text;
	FILE *f = tmpfile();

	assert_string_equal(util_text_name(buf, sizeof(buf), "plain name"), "plain name");
	assert_string_equal(util_text_name(buf, sizeof(buf), "a\nb\x1b[31m\x7f\\c"),
			    "a\\x0ab\\x1b[31m\\x7f\\\\c");
	/* UTF-8 passes as it is: the terminal shows it. */
	assert_string_equal(util_text_name(buf, sizeof(buf), "caf\xc3\xa9"), "caf\xc3\xa9");
	/* "ab" and a 4-byte escape do not fit 5 bytes: cut before the escape. */
	assert_string_equal(util_text_name(buf, 6, "ab\ncd"), "ab");
	assert_string_equal(util_text_name(buf, 6, "abcdefgh"), "abcde");
	assert_string_equal(util_text_name(buf, 1, "abc"), "");
	/* The same escapes, unbounded, to a stream. */
	assert_non_null(f);
	util_fputs_text_name("x\ty\\", f);
	text = contents(f);
	assert_string_equal(text, "x\\x09y\\\\");
	free(text);
	fclose(f);
}

static void test_json_document(void **state)
{
	FILE *f = tmpfile();
	json_object *obj = json_object_new_object();
	int saved = dup(STDOUT_FILENO);
	char *text;

	assert_non_null(f);
	assert_true(saved >= 0);
	json_object_object_add(obj, "bad", json_object_new_string("a\xff" "b"));
	json_object_object_add(obj, "good", json_object_new_string("caf\xc3\xa9/x"));
	fflush(stdout);
	assert_true(dup2(fileno(f), STDOUT_FILENO) >= 0);
	util_json_print_document(obj);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	fseek(f, 0, SEEK_END);
	text = contents(f);
	assert_non_null(strstr(text, "\"bad\": \"a\\udcffb\""));
	assert_non_null(strstr(text, "\"good\": \"caf\xc3\xa9/x\""));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);
	json_object_put(obj);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_name),
		cmocka_unit_test(test_json_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
