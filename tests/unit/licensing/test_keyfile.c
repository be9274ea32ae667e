// SPDX-License-Identifier: GPL-2.0-only
/*
 * PEM key files and crash-safe writes: modes, refusal to overwrite, and an
 * error naming the file for every way a key file can be wrong.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "sdsi_license.h"

static char dir[] = "/tmp/sdsi-license-keyfile-XXXXXX";

static int dir_setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int dir_teardown(void **state)
{
	struct dirent *entry;
	char path[512];
	DIR *d = opendir(dir);

	while (d && (entry = readdir(d))) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	return rmdir(dir);
}

static const char *in_dir(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_text(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(name), "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static unsigned int file_mode(const char *name)
{
	struct stat st;

	assert_int_equal(stat(in_dir(name), &st), 0);
	return st.st_mode & 07777;
}

static void assert_no_temporary_files(void)
{
	struct dirent *entry;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((entry = readdir(d)))
		if (strstr(entry->d_name, ".tmp-"))
			fail_msg("temporary file left behind: %s", entry->d_name);
	closedir(d);
}

static void test_save_and_load_round_trip(void **state)
{
	uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE], back[SDSI_LICENSE_PUBKEY_SIZE];
	struct sdsi_license_error err = { 0 };
	EVP_PKEY *key = NULL, *loaded = NULL;

	assert_int_equal(sdsi_license_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_license_key_save_private(in_dir("a.key"), key, &err), 0);
	assert_int_equal(sdsi_license_key_save_public(in_dir("a.pub"), key, &err), 0);
	assert_int_equal(file_mode("a.key"), 0600);
	assert_int_equal(file_mode("a.pub"), 0644);

	assert_int_equal(sdsi_license_key_load_private(in_dir("a.key"), &loaded, &err), 0);
	assert_true(EVP_PKEY_eq(key, loaded) == 1);
	EVP_PKEY_free(loaded);
	assert_int_equal(sdsi_license_key_load_public(in_dir("a.pub"), &loaded, &err), 0);
	assert_int_equal(sdsi_license_pubkey_to_raw(key, raw, NULL), 0);
	assert_int_equal(sdsi_license_pubkey_to_raw(loaded, back, NULL), 0);
	assert_memory_equal(raw, back, sizeof(raw));
	EVP_PKEY_free(loaded);
	EVP_PKEY_free(key);
	assert_no_temporary_files();
}

static void test_existing_key_is_never_replaced(void **state)
{
	struct sdsi_license_error err = { 0 };
	EVP_PKEY *key = NULL;
	char text[64] = { 0 };
	FILE *f;

	write_text("taken.key", "precious\n");
	assert_int_equal(sdsi_license_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_license_key_save_private(in_dir("taken.key"), key, &err), -EEXIST);
	assert_non_null(strstr(err.reason, "taken.key"));
	EVP_PKEY_free(key);
	f = fopen(in_dir("taken.key"), "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "precious\n");
	assert_no_temporary_files();
}

static void test_bad_key_files_are_named(void **state)
{
	struct sdsi_license_error err = { 0 };
	EVP_PKEY *key = NULL, *p256;

	assert_int_equal(sdsi_license_key_load_private(in_dir("missing.key"), &key, &err), -ENOENT);
	assert_non_null(strstr(err.reason, "missing.key"));
	assert_null(key);

	write_text("garbage.key", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n");
	assert_int_equal(sdsi_license_key_load_private(in_dir("garbage.key"), &key, &err), -EINVAL);
	assert_non_null(strstr(err.reason, "garbage.key"));
	assert_non_null(strstr(err.reason, "not a PEM private key"));
	assert_int_equal(sdsi_license_key_load_public(in_dir("garbage.key"), &key, &err), -EINVAL);

	/* A public key where a private one is expected. */
	assert_int_equal(sdsi_license_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_license_key_save_public(in_dir("only.pub"), key, NULL), 0);
	EVP_PKEY_free(key);
	key = NULL;
	assert_int_equal(sdsi_license_key_load_private(in_dir("only.pub"), &key, &err), -EINVAL);
	assert_null(key);

	/* A valid PEM key of the wrong curve, written through the same writer. */
	p256 = EVP_EC_gen("P-256");
	assert_non_null(p256);
	assert_int_equal(sdsi_license_key_save_public(in_dir("p256.pub"), p256, &err), -EINVAL);
	EVP_PKEY_free(p256);
	write_text("p256.pub",
		   "-----BEGIN PUBLIC KEY-----\n"
		   "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE3W+AsgzjAaD6qtMb7HzPrO7g7Z9B\n"
		   "LjMuxD6Q1rBnhJeOxSoSom5rGUEZIWnakhEq/oC3THNtozOQv0OKLL5gKA==\n"
		   "-----END PUBLIC KEY-----\n");
	assert_int_equal(sdsi_license_key_load_public(in_dir("p256.pub"), &key, &err), -EINVAL);
	assert_non_null(strstr(err.reason, "P-384"));
	assert_non_null(strstr(err.reason, "p256.pub"));
}

static void test_write_file_replaces_or_refuses(void **state)
{
	struct sdsi_license_error err = { 0 };
	char text[16] = { 0 };
	FILE *f;

	assert_int_equal(sdsi_license_write_file(in_dir("out.bin"), "one", 3, 0644, false, &err), 0);
	assert_int_equal(sdsi_license_write_file(in_dir("out.bin"), "two", 3, 0640, false, &err), 0);
	assert_int_equal(file_mode("out.bin"), 0640);
	f = fopen(in_dir("out.bin"), "r");
	assert_non_null(f);
	assert_int_equal(fread(text, 1, sizeof(text), f), 3);
	fclose(f);
	assert_string_equal(text, "two");
	assert_int_equal(sdsi_license_write_file(in_dir("out.bin"), "x", 1, 0644, true, &err), -EEXIST);
	assert_int_equal(sdsi_license_write_file(in_dir("no/such/dir/out.bin"), "x", 1, 0644, false, &err), -ENOENT);
	assert_non_null(strstr(err.reason, "no/such/dir/out.bin"));
	assert_no_temporary_files();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_load_round_trip),
		cmocka_unit_test(test_existing_key_is_never_replaced),
		cmocka_unit_test(test_bad_key_files_are_named),
		cmocka_unit_test(test_write_file_replaces_or_refuses),
	};

	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
