// SPDX-License-Identifier: GPL-2.0-only
/* Argument parsers, key paths and output files of sdsi-authority. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "authority.h"
#include "paths/sdsi_path.h"
#include "util/util_array.h"

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

int auth_load_private(int dirfd, const char *dir, const char *name, EVP_PKEY **key,
		      struct sdsi_lic_error *err)
{
	char path[4096];

	auth_key_path(path, sizeof(path), dir, name);
	return sdsi_lic_key_load_private_at(dirfd, name, path, key, err);
}

int auth_load_public(int dirfd, const char *dir, const char *name, EVP_PKEY **key,
		     struct sdsi_lic_error *err)
{
	char path[4096];

	auth_key_path(path, sizeof(path), dir, name);
	return sdsi_lic_key_load_public_at(dirfd, name, path, key, err);
}

int auth_key_exit(int rc)
{
	/* A link or a file or directory another user could change: a safety refusal. */
	if (rc == -EPERM || rc == -ELOOP)
		return SDSI_EXIT_REFUSED;
	return sdsi_exit_for_input_errno(rc);
}

int auth_open_dir(const char *dir)
{
	char err[SDSI_PATH_ERR_SIZE];
	int fd = sdsi_path_open_dir(dir, "authority directory", err, sizeof(err));

	if (fd < 0) {
		auth_error("%s", err);
		return -auth_key_exit(fd);
	}
	/*
	 * DIR itself closed to others' writes even with the sticky bit: they
	 * could add a key file that is missing.
	 */
	return auth_dir_closed(fd, dir);
}

int auth_dir_closed(int fd, const char *dir)
{
	char err[SDSI_PATH_ERR_SIZE];
	struct stat st;

	if (fstat(fd, &st) < 0 ||
	    sdsi_path_check_owner(&st, false, "authority directory", dir, dir, err, sizeof(err))) {
		auth_error("%s", err);
		close(fd);
		return -SDSI_EXIT_REFUSED;
	}
	return fd;
}

/* Which of the authority's key files the file of st is (the same inode), or NULL. */
static const char *authority_key_at(int dirfd, const struct stat *out)
{
	static const char *const names[] = {
		AUTH_ROOT_KEY, AUTH_ROOT_PUB, AUTH_LICENSOR_KEY, AUTH_LICENSOR_PUB,
		AUTH_ATTEST_ROOT_KEY, AUTH_ATTEST_ROOT_CERT,
	};
	struct stat key;

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(names); i++)
		if (fstatat(dirfd, names[i], &key, AT_SYMLINK_NOFOLLOW) == 0 &&
		    key.st_dev == out->st_dev && key.st_ino == out->st_ino)
			return names[i];
	return NULL;
}

/* The status of a failed sdsi_path_output_open or commit. */
static int output_exit(int rc)
{
	if (rc == -EPERM || rc == -ELOOP || rc == -ESTALE || rc == -EEXIST)
		return SDSI_EXIT_REFUSED;
	return rc == -ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
}

int auth_write_output(int dirfd, const char *path, const void *data, size_t len)
{
	char err[SDSI_PATH_ERR_SIZE];
	struct sdsi_path_output out;
	const char *key = NULL;
	int rc = sdsi_path_output_open(&out, path, "-o", 0, err, sizeof(err));

	if (rc) {
		/* "-o FILE: not a regular file: it is a FIFO", "... a symbolic link, not followed" */
		auth_error("%s%s", err, rc == -ELOOP || rc == -EISDIR || rc == -ENXIO ?
			   "; refusing to replace it" : "");
		return output_exit(rc);
	}
	if (out.existing_fd >= 0) {
		key = authority_key_at(dirfd, &out.existing);
		if (key || sdsi_lic_fd_holds_key(out.existing_fd)) {
			auth_error("-o %s: %s%s; refusing to replace it", path,
				   key ? "is the authority's key file " :
				   "holds a key (PEM or DER)",
				   key ? key : "");
			sdsi_path_output_close(&out);
			return SDSI_EXIT_REFUSED;
		}
	}
	rc = sdsi_path_output_commit(&out, data, len, 0644, err, sizeof(err));
	sdsi_path_output_close(&out);
	if (rc) {
		auth_error("%s", err);
		return output_exit(rc);
	}
	return SDSI_EXIT_OK;
}
