// SPDX-License-Identifier: GPL-2.0-only
/*
 * The part's attestation identity: a P-384 key of its own and slot 0's
 * certificate chain (the attestation root's certificate, then the device
 * certificate the root issued for that key), made at manufacture, which is
 * the first start of a part whose model has an attestation root.  It is kept
 * beside the NVRAM file as socket<N>.identity (the key, the device
 * certificate and the root certificate, PEM, mode 0600, written once and
 * crash-safely: a temporary file linked into place), so it survives restarts
 * and power cycles; with volatile NVRAM it lives as long as the model.
 * Every part generates its own key: two parts never share one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "model_priv.h"
#include "licensing/sdsi_lic.h"

void identity_free(struct model_identity *id)
{
	EVP_PKEY_free(id->key);
	free(id->chain);
	memset(id, 0, sizeof(*id));
}

/* Slot 0's chain in SPDM form: Length, reserved, RootHash, root, leaf. */
static int build_chain(struct model_identity *id, EVP_PKEY *key, X509 *root,
		       X509 *leaf)
{
	unsigned char *root_der = NULL, *leaf_der = NULL;
	int root_len = i2d_X509(root, &root_der);
	int leaf_len = i2d_X509(leaf, &leaf_der);
	uint32_t total;
	int ret = -EINVAL;

	if (root_len <= 0 || leaf_len <= 0)
		goto out;
	total = SDSI_SPDM_CHAIN_OFF_CERTS + (uint32_t)root_len + (uint32_t)leaf_len;
	if (total > SDSI_SPDM_CHAIN_MAX)
		goto out;
	id->chain = calloc(1, total);
	if (!id->chain) {
		ret = -ENOMEM;
		goto out;
	}
	id->chain[0] = (uint8_t)total;
	id->chain[1] = (uint8_t)(total >> 8);
	EVP_Digest(root_der, (size_t)root_len, id->chain + SDSI_SPDM_CHAIN_OFF_ROOT_HASH,
		   NULL, EVP_sha384(), NULL);
	memcpy(id->chain + SDSI_SPDM_CHAIN_OFF_CERTS, root_der, (size_t)root_len);
	memcpy(id->chain + SDSI_SPDM_CHAIN_OFF_CERTS + root_len, leaf_der,
	       (size_t)leaf_len);
	id->chain_len = total;
	EVP_Digest(id->chain, total, id->digest, NULL, EVP_sha384(), NULL);
	EVP_PKEY_up_ref(key);
	id->key = key;
	ret = 0;
out:
	OPENSSL_free(root_der);
	OPENSSL_free(leaf_der);
	return ret;
}

/* A new key, and its device certificate from root. */
static int manufacture(struct model_identity *id, EVP_PKEY *root_key,
		       X509 *root, uint64_t ppin, X509 **leaf_out,
		       EVP_PKEY **key_out, char *err, size_t errlen)
{
	struct sdsi_lic_error lerr;
	char cn[64];
	int ret;

	snprintf(cn, sizeof(cn), "sdsi part %016llx", (unsigned long long)ppin);
	ret = sdsi_lic_key_generate(key_out, &lerr);
	if (!ret)
		ret = sdsi_lic_attest_issue(root_key, root, *key_out, cn, leaf_out,
					    &lerr);
	if (!ret)
		ret = build_chain(id, *key_out, root, *leaf_out);
	if (ret)
		snprintf(err, errlen, "attestation identity: %s",
			 ret == -EINVAL ? "certificate chain too long" : lerr.reason);
	return ret;
}

static int store(const char *path, EVP_PKEY *key, X509 *leaf, X509 *root,
		 char *err, size_t errlen)
{
	struct sdsi_lic_error lerr;
	BIO *bio = BIO_new(BIO_s_mem());
	char *data;
	long len;
	int ret = -ENOMEM;

	if (bio && PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1 &&
	    PEM_write_bio_X509(bio, leaf) == 1 && PEM_write_bio_X509(bio, root) == 1) {
		len = BIO_get_mem_data(bio, &data);
		ret = sdsi_lic_write_file(path, data, (size_t)len, 0600, true, &lerr);
		if (ret)
			snprintf(err, errlen, "identity file %s", lerr.reason);
		OPENSSL_cleanse(data, (size_t)len);
	} else {
		snprintf(err, errlen, "identity file %s: out of memory", path);
	}
	BIO_free(bio);
	return ret;
}

/*
 * Open the identity file for reading: no symbolic link followed (-ELOOP),
 * nothing but a regular file taken, judged by the descriptor (a FIFO is
 * never waited on: O_NONBLOCK).  -ENOENT, silently, when it is missing.
 */
static int open_identity(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);

	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0) {
		fd = -errno;
		snprintf(err, errlen, "identity file %s refused: %s", path,
			 fd == -ELOOP ? "a symbolic link" : strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "identity file %s refused: not a regular file",
			 path);
		return -EINVAL;
	}
	return fd;
}

/* Read the file's key and certificates; -ENOENT, silently, when it is missing. */
static int load(struct model_identity *id, const char *path, char *err,
		size_t errlen)
{
	EVP_PKEY *key = NULL;
	X509 *leaf = NULL, *root = NULL;
	BIO *bio;
	int fd, ret = -EPROTO;

	fd = open_identity(path, err, errlen);
	if (fd < 0)
		return fd;
	bio = BIO_new_fd(fd, BIO_CLOSE);
	if (!bio) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
	if (key)
		leaf = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (leaf)
		root = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (!root || !sdsi_lic_key_is_p384(key) ||
	    EVP_PKEY_eq(X509_get0_pubkey(leaf), key) != 1)
		snprintf(err, errlen, "identity file %s refused: not a P-384 key, "
			 "its device certificate and a root certificate (PEM)", path);
	else
		ret = build_chain(id, key, root, leaf);
	if (ret && ret != -EPROTO)
		snprintf(err, errlen, "identity file %s: cannot use its chain", path);
	EVP_PKEY_free(key);
	X509_free(leaf);
	X509_free(root);
	BIO_free(bio);
	return ret;
}

int identity_load(struct sdsi_model *m, const struct sdsi_model_config *cfg,
		  char *err, size_t errlen)
{
	struct sdsi_lic_error lerr;
	EVP_PKEY *root_key = NULL, *key = NULL;
	X509 *root = NULL, *leaf = NULL;
	int ret;

	if (cfg->state_dir &&
	    asprintf(&m->identity_path, "%s/socket%u.identity", cfg->state_dir,
		     cfg->socket_index) < 0) {
		m->identity_path = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (m->identity_path) {
		ret = load(&m->identity, m->identity_path, err, errlen);
		if (ret != -ENOENT)
			return ret;
	}
	/* Not made yet: made now, when there is a root to issue it. */
	if (cfg->attest_root_cert && cfg->attest_root_key) {
		/* Loaded once by the caller: a reference, never the name again. */
		if (X509_up_ref(cfg->attest_root_cert) != 1) {
			snprintf(err, errlen, "attestation root: out of memory");
			return -ENOMEM;
		}
		root = cfg->attest_root_cert;
		if (EVP_PKEY_up_ref(cfg->attest_root_key) != 1) {
			snprintf(err, errlen, "attestation root: out of memory");
			ret = -ENOMEM;
			goto out;
		}
		root_key = cfg->attest_root_key;
		ret = 0;
	} else if (cfg->attest_root_cert_path && cfg->attest_root_key_path) {
		ret = sdsi_lic_cert_load(cfg->attest_root_cert_path, &root, &lerr);
		if (!ret)
			ret = sdsi_lic_key_load_private(cfg->attest_root_key_path,
							&root_key, &lerr);
	} else {
		return 0;
	}
	if (!ret && X509_check_private_key(root, root_key) != 1) {
		if (cfg->attest_root_cert && cfg->attest_root_key)
			snprintf(lerr.reason, sizeof(lerr.reason),
				 "its key is not the key of its certificate");
		else
			snprintf(lerr.reason, sizeof(lerr.reason),
				 "%s is not the key of %s", cfg->attest_root_key_path,
				 cfg->attest_root_cert_path);
		ret = -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "attestation root: %s", lerr.reason);
		goto out;
	}
	ret = manufacture(&m->identity, root_key, root, m->nv.ppin, &leaf, &key,
			  err, errlen);
	if (!ret && m->identity_path)
		ret = store(m->identity_path, key, leaf, root, err, errlen);
	if (ret)
		identity_free(&m->identity);
out:
	EVP_PKEY_free(key);
	EVP_PKEY_free(root_key);
	X509_free(leaf);
	X509_free(root);
	return ret;
}

/*
 * Under attest-chain, a chain from a root nobody trusts: made once per
 * model, with its own key, so only the chain's root gives it away.
 */
static void make_foreign(struct sdsi_model *m)
{
	struct sdsi_lic_error lerr;
	EVP_PKEY *root_key = NULL, *key = NULL;
	X509 *root = NULL, *leaf = NULL;
	char err[256];

	if (!sdsi_lic_attest_root_make("sdsi foreign attestation root", &root_key,
				       &root, &lerr))
		manufacture(&m->foreign, root_key, root, m->nv.ppin, &leaf, &key,
			    err, sizeof(err));
	EVP_PKEY_free(key);
	EVP_PKEY_free(root_key);
	X509_free(leaf);
	X509_free(root);
}

const struct model_identity *identity_current(struct sdsi_model *m)
{
	sdsi_assert_held(&m->lock);
	if (!m->identity.key || !fault_armed(m, SDSI_FAULT_ATTEST_CHAIN))
		return &m->identity;
	if (!m->foreign.key)
		make_foreign(m);
	if (!m->foreign.key)
		return &m->identity;
	fault_take(m, SDSI_FAULT_ATTEST_CHAIN, NULL);
	return &m->foreign;
}
