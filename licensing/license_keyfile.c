// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PEM key files and crash-safe file writes.  Key files are read whole into
 * memory first so that every failure (missing, unreadable, too large, not
 * PEM, wrong curve) is reported with the file's name and one reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "sdsi/input_file.h"
#include "sdsi/output_target.h"
#include "license_internal.h"
#include "paths/sdsi_path.h"
#include "util/util_io.h"

/* A P-384 PEM key is under 400 bytes; anything this large is not one. */
#define KEY_FILE_MAX	16384u

/*
 * The whole key file behind fd (opened and checked by sdsi_path.h), at
 * most KEY_FILE_MAX - 1 bytes.
 */
static int read_key_fd(int fd, const char *path, unsigned char *buf, size_t *len,
		       struct sdsi_lic_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	int rc = sdsi_path_read_fd(fd, buf, KEY_FILE_MAX - 1, len, "key file", path, msg,
				   sizeof(msg));

	if (rc == -EFBIG)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
				     "%s: %u bytes or more, not a key file", path, KEY_FILE_MAX);
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET, "%s", msg);
	return 0;
}

/* Encrypted keys are not supported: never prompt on a terminal. */
static int no_passphrase(char *buf, int size, int rwflag, void *user)
{
	return 0;
}

static int load_key_fd(int fd, const char *path, bool private_key, EVP_PKEY **key,
		       struct sdsi_lic_error *err)
{
	unsigned char *text;
	size_t len = 0;
	BIO *bio;
	int rc;

	*key = NULL;
	text = malloc(KEY_FILE_MAX);
	if (!text)
		return sdsi_lic_fail(err, -ENOMEM, SDSI_LIC_NO_OFFSET,
				     "%s: out of memory", path);
	rc = read_key_fd(fd, path, text, &len, err);
	if (rc)
		goto out;
	bio = BIO_new_mem_buf(text, (int)len);
	if (!bio) {
		rc = sdsi_lic_fail_openssl(err, -ENOMEM, path);
		goto out;
	}
	*key = private_key ?
	       PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL) :
	       PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, NULL);
	BIO_free(bio);
	ERR_clear_error();
	if (!*key) {
		rc = sdsi_lic_fail(err, -EBADMSG, SDSI_LIC_NO_OFFSET,
				   "%s: not a PEM %s key (corrupt, encrypted or of another kind)",
				   path, private_key ? "private" : "public");
		goto out;
	}
	if (!sdsi_lic_key_is_p384(*key)) {
		EVP_PKEY_free(*key);
		*key = NULL;
		rc = sdsi_lic_fail(err, -EBADMSG, SDSI_LIC_NO_OFFSET,
				   "%s: not an ECDSA P-384 key", path);
	}
out:
	OPENSSL_cleanse(text, KEY_FILE_MAX);
	free(text);
	return rc;
}

/* The -errno of a refused open, its message in err: the path named, the reason. */
static int open_failed(int fd, const char *msg, struct sdsi_lic_error *err)
{
	return sdsi_lic_fail(err, fd, SDSI_LIC_NO_OFFSET, "%s", msg);
}

static int load_key_at(int dirfd, const char *name, const char *path, bool private_key,
		       EVP_PKEY **key, struct sdsi_lic_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	int fd, rc;

	*key = NULL;
	fd = dirfd < 0 ? sdsi_path_open_file(path, "key file", SDSI_PATH_OWNED, NULL, msg,
					     sizeof(msg)) :
	     sdsi_path_openat_file(dirfd, name, path, "key file", SDSI_PATH_OWNED, NULL, msg,
				   sizeof(msg));
	if (fd < 0)
		return open_failed(fd, msg, err);
	rc = load_key_fd(fd, path, private_key, key, err);
	close(fd);
	return rc;
}

int sdsi_lic_key_load_private(const char *path, EVP_PKEY **key,
				  struct sdsi_lic_error *err)
{
	return load_key_at(-1, NULL, path, true, key, err);
}

int sdsi_lic_key_load_public(const char *path, EVP_PKEY **key,
				 struct sdsi_lic_error *err)
{
	return load_key_at(-1, NULL, path, false, key, err);
}

int sdsi_lic_key_load_private_at(int dirfd, const char *name, const char *path,
				 EVP_PKEY **key, struct sdsi_lic_error *err)
{
	return load_key_at(dirfd, name, path, true, key, err);
}

int sdsi_lic_key_load_public_at(int dirfd, const char *name, const char *path,
				EVP_PKEY **key, struct sdsi_lic_error *err)
{
	return load_key_at(dirfd, name, path, false, key, err);
}

int sdsi_lic_key_load_public_fd(int fd, const char *path, EVP_PKEY **key,
				struct sdsi_lic_error *err)
{
	*key = NULL;
	return load_key_fd(fd, path, false, key, err);
}

int sdsi_lic_key_load_private_fd(int fd, const char *path, EVP_PKEY **key,
				 struct sdsi_lic_error *err)
{
	*key = NULL;
	return load_key_fd(fd, path, true, key, err);
}

int sdsi_lic_write_new_at(int dirfd, const char *name, const char *path, const char *what,
			  const void *data, size_t len, mode_t mode, struct sdsi_lic_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	struct sdsi_path_output out;
	int rc = sdsi_path_output_openat(&out, dirfd, name, path, what,
					 SDSI_PATH_NOREPLACE, msg, sizeof(msg));

	if (!rc)
		rc = sdsi_path_output_commit(&out, data, len, mode, msg, sizeof(msg));
	sdsi_path_output_close(&out);
	return rc ? sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET, "%s", msg) : 0;
}

static int save_key(int dirfd, const char *name, const char *path, EVP_PKEY *key,
		    bool private_key, struct sdsi_lic_error *err)
{
	BIO *bio;
	char *data;
	long len;
	int ok, rc;

	if (!sdsi_lic_key_is_p384(key))
		return sdsi_lic_fail(err, -EINVAL, SDSI_LIC_NO_OFFSET,
				     "%s: refusing to save a key that is not P-384",
				     path);
	bio = BIO_new(BIO_s_mem());
	if (!bio)
		return sdsi_lic_fail_openssl(err, -ENOMEM, path);
	ok = private_key ?
	     PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) :
	     PEM_write_bio_PUBKEY(bio, key);
	len = BIO_get_mem_data(bio, &data);
	if (ok != 1 || len <= 0)
		rc = sdsi_lic_fail_openssl(err, -EINVAL, path);
	else if (dirfd >= 0)
		rc = sdsi_lic_write_new_at(dirfd, name, path, "key file", data, (size_t)len,
					   private_key ? 0600 : 0644, err);
	else
		rc = sdsi_lic_write_file(path, data, (size_t)len,
					 private_key ? 0600 : 0644, true,
					 err);
	if (len > 0)
		OPENSSL_cleanse(data, (size_t)len);
	BIO_free(bio);
	return rc;
}

int sdsi_lic_key_save_private(const char *path, EVP_PKEY *key,
				  struct sdsi_lic_error *err)
{
	return save_key(-1, NULL, path, key, true, err);
}

int sdsi_lic_key_save_public(const char *path, EVP_PKEY *key,
				 struct sdsi_lic_error *err)
{
	return save_key(-1, NULL, path, key, false, err);
}

int sdsi_lic_key_save_private_at(int dirfd, const char *name, const char *path, EVP_PKEY *key,
				 struct sdsi_lic_error *err)
{
	return save_key(dirfd, name, path, key, true, err);
}

int sdsi_lic_key_save_public_at(int dirfd, const char *name, const char *path, EVP_PKEY *key,
				struct sdsi_lic_error *err)
{
	return save_key(dirfd, name, path, key, false, err);
}

int sdsi_lic_sync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	if (!slash) {
		strcpy(dir, ".");
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		if ((size_t)(slash - path) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int sdsi_lic_write_file(const char *path, const void *data, size_t len,
			unsigned int mode, bool exclusive,
			    struct sdsi_lic_error *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char tmp[PATH_MAX];
	const char *step;
	int fd, rc;

	/* A base name of NAME_MAX bytes is valid: its temporary name is cut to fit. */
	if (snprintf(tmp, sizeof(tmp), "%.*s%.*s.tmp-XXXXXX", (int)(base - path), path,
		     sdsi_temp_base_len(base, strlen(".tmp-XXXXXX")), base) >= (int)sizeof(tmp))
		return sdsi_lic_fail(err, -ENAMETOOLONG, SDSI_LIC_NO_OFFSET,
				     "%s: path too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return sdsi_lic_fail(err, -errno, SDSI_LIC_NO_OFFSET,
				     "%s: cannot create a temporary file: %s",
				     path, strerror(errno));
	rc = util_write_sync_close(fd, data, len, (mode_t)mode, &step);
	if (!rc) {
		step = exclusive ? "create" : "rename";
		if (exclusive)
			rc = link(tmp, path) < 0 ? -errno : 0;
		else
			rc = rename(tmp, path) < 0 ? -errno : 0;
	}
	/* After link() the temporary name is an extra link; after rename() it is gone. */
	if (rc || exclusive)
		unlink(tmp);
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
				     "%s: %s failed: %s", path, step,
				     strerror(-rc));
	rc = sdsi_lic_sync_parent_dir(path);
	if (rc)
		return sdsi_lic_fail(err, rc, SDSI_LIC_NO_OFFSET,
				     "%s: fsync of the directory failed: %s",
				     path, strerror(-rc));
	return 0;
}
