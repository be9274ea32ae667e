// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The owner's trust anchors: the PEM certificates of one file, or of every
 * regular file in one directory (not its subdirectories), into an
 * X509_STORE that holds nothing else.  The path is opened once without
 * following a link and judged by its descriptor; a directory's entries
 * are opened relative to it, so no name is looked up twice.  Bounded: a
 * file is read up to ANCHOR_FILE_MAX bytes, a directory up to
 * ANCHOR_DIR_MAX entries.  An entry that is no regular file (a link, a
 * FIFO) or holds no PEM certificate is passed over: a directory may hold
 * a README; the path holding no certificate at all is the error.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>

#include "attest_internal.h"

#define ANCHOR_FILE_MAX	(1u << 20)
#define ANCHOR_DIR_MAX	1024u

/* The whole of fd (a regular file) into a malloc'ed buffer: 0, or -errno. */
static int read_all(int fd, uint8_t **out, size_t *len)
{
	size_t cap = 4096, used = 0;
	uint8_t *buf = malloc(cap), *grown;
	ssize_t got;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (used == cap) {
			if (cap >= ANCHOR_FILE_MAX) {
				free(buf);
				return -EFBIG;
			}
			grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
			cap *= 2;
		}
		got = read(fd, buf + used, cap - used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			got = -errno;
			free(buf);
			return (int)got;
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	*out = buf;
	*len = used;
	return 0;
}

/* The PEM certificates of fd into store: how many, or -errno. */
static int add_file(X509_STORE *store, int fd)
{
	uint8_t *bytes = NULL;
	size_t len = 0;
	BIO *bio;
	X509 *cert;
	int ret, count = 0;

	ret = read_all(fd, &bytes, &len);
	if (ret)
		return ret;
	bio = BIO_new_mem_buf(bytes, (int)len);
	if (!bio) {
		free(bytes);
		return -ENOMEM;
	}
	while ((cert = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		/* the same anchor twice is no error */
		if (X509_STORE_add_cert(store, cert) == 1)
			count++;
		X509_free(cert);
	}
	ERR_clear_error();
	BIO_free(bio);
	free(bytes);
	return count;
}

static int add_dir(X509_STORE *store, int dirfd, const char *path, struct sdsi_error *err)
{
	int fd, count = 0, ret, seen = 0;
	struct dirent *ent;
	struct stat st;
	DIR *dir;

	fd = dup(dirfd);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		ret = errno;
		if (fd >= 0)
			close(fd);
		return sdsi_fail(err, ret, SDSI_ERR_INTERNAL, -1, "%s: %s", path, strerror(ret));
	}
	while ((ent = readdir(dir))) {
		if (ent->d_name[0] == '.')
			continue;
		if (++seen > (int)ANCHOR_DIR_MAX) {
			closedir(dir);
			return sdsi_fail(err, E2BIG, SDSI_ERR_USAGE, -1,
					 "%s: more than %u entries: not a directory of anchors",
					 path, ANCHOR_DIR_MAX);
		}
		fd = openat(dirfd, ent->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			ret = add_file(store, fd);
			if (ret > 0)
				count += ret;
			else if (ret == -ENOMEM) {
				close(fd);
				closedir(dir);
				return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "%s: %s/%s: out of memory",
						 path, path, ent->d_name);
			}
		}
		close(fd);
	}
	closedir(dir);
	return count;
}

int attest_load_anchors(const char *path, X509_STORE **out, struct sdsi_error *err)
{
	X509_STORE *store;
	struct stat st;
	int fd, ret;

	*out = NULL;
	if (!path || !*path)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1,
				 "attestation needs a trust anchor file or directory");
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = errno;
		return sdsi_fail(err, ret, SDSI_ERR_USAGE, -1, "trust anchors %s: %s%s", path,
				 strerror(ret), ret == ELOOP ? " (a symbolic link is not followed)" : "");
	}
	store = X509_STORE_new();
	if (!store) {
		close(fd);
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	}
	if (fstat(fd, &st) < 0) {
		ret = sdsi_fail(err, errno, SDSI_ERR_USAGE, -1, "trust anchors %s: %s", path,
				strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		ret = add_file(store, fd);
		if (ret < 0)
			ret = sdsi_fail(err, -ret, -ret == ENOMEM ? SDSI_ERR_INTERNAL : SDSI_ERR_USAGE,
					-1, "trust anchors %s: %s", path, strerror(-ret));
	} else if (S_ISDIR(st.st_mode)) {
		ret = add_dir(store, fd, path, err);
	} else {
		ret = sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1,
				"trust anchors %s: neither a regular file nor a directory", path);
	}
	close(fd);
	if (ret == 0)
		ret = sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1,
				"trust anchors %s: no PEM certificate in it", path);
	if (ret < 0) {
		X509_STORE_free(store);
		return ret;
	}
	*out = store;
	return 0;
}
