// SPDX-License-Identifier: GPL-2.0-only
/* Argument parsers, key paths and output files of sdsi-authority. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sdsi/output_target.h"
#include "authority.h"

int auth_parse_hex64(const char *text, uint64_t *value)
{
	const char *digits = text;
	size_t n;

	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		digits += 2;
	n = strlen(digits);
	if (n == 0 || n > 16 || strspn(digits, "0123456789abcdefABCDEF") != n)
		return -EINVAL;
	*value = strtoull(digits, NULL, 16);
	return 0;
}

int auth_parse_u32(const char *text, uint32_t *value)
{
	unsigned long long v;
	int base = 10;
	char *end;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		base = 16;
	}
	/* strtoull accepts a sign and leading blanks; a number here has neither. */
	if (!isxdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, base);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*value = (uint32_t)v;
	return 0;
}

const char *auth_key_path(char *buf, size_t size, const char *dir,
			  const char *name)
{
	if (snprintf(buf, size, "%s/%s", dir, name) >= (int)size) {
		auth_error("%s: directory path too long", dir);
		exit(SDSI_EXIT_USAGE);
	}
	return buf;
}

int auth_key_exit(int rc)
{
	return sdsi_exit_for_input_errno(rc);
}

/* Whether path names one of the authority's key files (the same inode). */
static const char *authority_key_at(const char *dir, const char *path)
{
	static const char *const names[] = {
		AUTH_ROOT_KEY, AUTH_ROOT_PUB, AUTH_LICENSOR_KEY, AUTH_LICENSOR_PUB,
		AUTH_ATTEST_ROOT_KEY, AUTH_ATTEST_ROOT_CERT,
	};
	struct stat out, key;
	char key_path[4096];

	if (stat(path, &out) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (snprintf(key_path, sizeof(key_path), "%s/%s", dir, names[i]) <
		    (int)sizeof(key_path) && stat(key_path, &key) == 0 &&
		    key.st_dev == out.st_dev && key.st_ino == out.st_ino)
			return names[i];
	return NULL;
}

int auth_write_output(const char *dir, const char *path, const void *data, size_t len)
{
	struct sdsi_lic_error err = { 0 };
	const char *kind, *key;
	int rc = sdsi_output_target_check(path, &kind);

	if (rc) {
		if (kind)
			auth_error("-o %s: not a regular file: it is %s; refusing to replace it",
				   path, kind);
		else
			auth_error("-o %s: %s", path, strerror(-rc));
		return SDSI_EXIT_IO;
	}
	key = authority_key_at(dir, path);
	if (key || sdsi_lic_file_holds_key(path)) {
		auth_error("-o %s: %s%s; refusing to replace it", path,
			   key ? "is the authority's key file " : "holds a key (PEM or DER)",
			   key ? key : "");
		return SDSI_EXIT_REFUSED;
	}
	rc = sdsi_lic_write_file(path, data, len, 0644, false, &err);
	if (rc) {
		auth_error("%s", err.reason);
		return rc == -ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
	}
	return SDSI_EXIT_OK;
}

void auth_hex(char *out, const uint8_t *bytes, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * len] = '\0';
}

void auth_key_image_hex(char out[AUTH_KEY_IMAGE_HEX], const uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE])
{
	uint8_t reversed[SDSI_LICENSE_KEY_IMAGE_SIZE];
	size_t i;

	for (i = 0; i < SDSI_LICENSE_KEY_IMAGE_SIZE; i++)
		reversed[i] = image[SDSI_LICENSE_KEY_IMAGE_SIZE - 1 - i];
	out[0] = '0';
	out[1] = 'x';
	auth_hex(out + 2, reversed, sizeof(reversed));
}
