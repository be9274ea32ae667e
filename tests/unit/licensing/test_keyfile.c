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

#include "licensing/sdsi_lic.h"

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
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL, *loaded = NULL;

	assert_int_equal(sdsi_lic_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_lic_key_save_private(in_dir("a.key"), key, &err), 0);
	assert_int_equal(sdsi_lic_key_save_public(in_dir("a.pub"), key, &err), 0);
	assert_int_equal(file_mode("a.key"), 0600);
	assert_int_equal(file_mode("a.pub"), 0644);

	assert_int_equal(sdsi_lic_key_load_private(in_dir("a.key"), &loaded, &err), 0);
	assert_true(EVP_PKEY_eq(key, loaded) == 1);
	EVP_PKEY_free(loaded);
	assert_int_equal(sdsi_lic_key_load_public(in_dir("a.pub"), &loaded, &err), 0);
	assert_int_equal(sdsi_lic_pubkey_to_raw(key, raw, NULL), 0);
	assert_int_equal(sdsi_lic_pubkey_to_raw(loaded, back, NULL), 0);
	assert_memory_equal(raw, back, sizeof(raw));
	EVP_PKEY_free(loaded);
	EVP_PKEY_free(key);
	assert_no_temporary_files();
}

static void test_existing_key_is_never_replaced(void **state)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL;
	char text[64] = { 0 };
	FILE *f;

	write_text("taken.key", "precious\n");
	assert_int_equal(sdsi_lic_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_lic_key_save_private(in_dir("taken.key"), key, &err), -EEXIST);
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
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL, *p256;

	assert_int_equal(sdsi_lic_key_load_private(in_dir("missing.key"), &key, &err), -ENOENT);
	assert_non_null(strstr(err.reason, "missing.key"));
	assert_null(key);

	write_text("garbage.key", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n");
	assert_int_equal(sdsi_lic_key_load_private(in_dir("garbage.key"), &key, &err), -EBADMSG);
	assert_non_null(strstr(err.reason, "garbage.key"));
	assert_non_null(strstr(err.reason, "not a PEM private key"));
	assert_int_equal(sdsi_lic_key_load_public(in_dir("garbage.key"), &key, &err), -EBADMSG);

	/* A public key where a private one is expected. */
	assert_int_equal(sdsi_lic_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_lic_key_save_public(in_dir("only.pub"), key, NULL), 0);
	EVP_PKEY_free(key);
	key = NULL;
	assert_int_equal(sdsi_lic_key_load_private(in_dir("only.pub"), &key, &err), -EBADMSG);
	assert_null(key);

	/* A valid PEM key of the wrong curve, written through the same writer. */
	p256 = EVP_EC_gen("P-256");
	assert_non_null(p256);
	assert_int_equal(sdsi_lic_key_save_public(in_dir("p256.pub"), p256, &err), -EINVAL);
	EVP_PKEY_free(p256);
	write_text("p256.pub",
		   "-----BEGIN PUBLIC KEY-----\n"
		   "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE3W+AsgzjAaD6qtMb7HzPrO7g7Z9B\n"
		   "LjMuxD6Q1rBnhJeOxSoSom5rGUEZIWnakhEq/oC3THNtozOQv0OKLL5gKA==\n"
		   "-----END PUBLIC KEY-----\n");
	assert_int_equal(sdsi_lic_key_load_public(in_dir("p256.pub"), &key, &err), -EBADMSG);
	assert_non_null(strstr(err.reason, "P-384"));
	assert_non_null(strstr(err.reason, "p256.pub"));
}

/* A key file that is not a regular file is refused at once, a FIFO included. */
static void test_key_file_not_regular(void **state)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL;

	assert_int_equal(mkfifo(in_dir("fifo.pub"), 0600), 0);
	assert_int_equal(sdsi_lic_key_load_public(in_dir("fifo.pub"), &key, &err), -ENXIO);
	assert_non_null(strstr(err.reason, "fifo.pub: not a regular file: it is a FIFO"));
	assert_null(key);
	unlink(in_dir("fifo.pub"));

	assert_int_equal(mkdir(in_dir("dir.key"), 0700), 0);
	assert_int_equal(sdsi_lic_key_load_private(in_dir("dir.key"), &key, &err), -EISDIR);
	assert_non_null(strstr(err.reason, "dir.key: not a regular file: it is a directory"));
	rmdir(in_dir("dir.key"));

	assert_int_equal(sdsi_lic_key_load_public("/dev/null", &key, &err), -ENXIO);
	assert_non_null(strstr(err.reason, "/dev/null: not a regular file: it is a character device"));
}

/* A key file of 16383 bytes is read (and parsed); one of 16384 is refused unparsed. */
static void test_key_file_size_bound(void **state)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key = NULL;
	char *text = malloc(16385);
	size_t len;
	FILE *f;

	assert_non_null(text);
	assert_int_equal(sdsi_lic_key_generate(&key, NULL), 0);
	assert_int_equal(sdsi_lic_key_save_public(in_dir("big.pub"), key, NULL), 0);
	EVP_PKEY_free(key);
	key = NULL;
	f = fopen(in_dir("big.pub"), "r");
	assert_non_null(f);
	len = fread(text, 1, 16384, f);
	fclose(f);
	assert_true(len > 0 && len < 1024);
	/* PEM ignores what follows the END line: pad with newlines. */
	memset(text + len, '\n', 16384 - len);

	unlink(in_dir("big.pub"));
	text[16383] = '\0';
	write_text("big.pub", text);
	assert_int_equal(sdsi_lic_key_load_public(in_dir("big.pub"), &key, &err), 0);
	EVP_PKEY_free(key);
	key = NULL;

	unlink(in_dir("big.pub"));
	text[16383] = '\n';
	text[16384] = '\0';
	write_text("big.pub", text);
	assert_int_equal(sdsi_lic_key_load_public(in_dir("big.pub"), &key, &err), -EFBIG);
	assert_non_null(strstr(err.reason, "big.pub: 16384 bytes or more, not a key file"));
	assert_null(key);
	free(text);
}

static void test_write_file_replaces_or_refuses(void **state)
{
	struct sdsi_lic_error err = { 0 };
	char text[16] = { 0 };
	FILE *f;

	assert_int_equal(sdsi_lic_write_file(in_dir("out.bin"), "one", 3, 0644, false, &err), 0);
	assert_int_equal(sdsi_lic_write_file(in_dir("out.bin"), "two", 3, 0640, false, &err), 0);
	assert_int_equal(file_mode("out.bin"), 0640);
	f = fopen(in_dir("out.bin"), "r");
	assert_non_null(f);
	assert_int_equal(fread(text, 1, sizeof(text), f), 3);
	fclose(f);
	assert_string_equal(text, "two");
	assert_int_equal(sdsi_lic_write_file(in_dir("out.bin"), "x", 1, 0644, true, &err), -EEXIST);
	assert_int_equal(sdsi_lic_write_file(in_dir("no/such/dir/out.bin"), "x", 1, 0644, false, &err), -ENOENT);
	assert_non_null(strstr(err.reason, "no/such/dir/out.bin"));
	assert_no_temporary_files();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_load_round_trip),
		cmocka_unit_test(test_existing_key_is_never_replaced),
		cmocka_unit_test(test_bad_key_files_are_named),
		cmocka_unit_test(test_key_file_not_regular),
		cmocka_unit_test(test_key_file_size_bound),
		cmocka_unit_test(test_write_file_replaces_or_refuses),
	};

	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
