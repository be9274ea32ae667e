// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * X.509 for attestation (docs/interface.md, "Attestation"): the attestation
 * root an authority creates (a self-signed P-384 CA certificate), the
 * device certificate it issues to each part at manufacture, and the PEM
 * files they live in.  Certificates are v3, signed ECDSA with SHA-384,
 * serials 16 random bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "sdsi/input_file.h"
#include "license_internal.h"

/* Validity: from a day ago (clocks differ) for 30 years (ours). */
#define VALID_BEFORE_S	(24L * 3600L)
#define VALID_DAYS	(30 * 365)

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return 0;
	ok = X509_add_ext(cert, ext, -1);
	X509_EXTENSION_free(ext);
	return ok;
}

static int set_serial(X509 *cert)
{
	unsigned char bytes[16];
	BIGNUM *bn;
	int ok;

	if (RAND_bytes(bytes, sizeof(bytes)) != 1)
		return 0;
	bytes[0] &= 0x7f;	/* positive */
	bytes[0] |= 0x40;	/* and 16 bytes long */
	bn = BN_bin2bn(bytes, sizeof(bytes), NULL);
	ok = bn && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) != NULL;
	BN_free(bn);
	return ok;
}

/* A certificate for key with subject cn, issued by issuer (NULL: itself). */
static X509 *make_cert(EVP_PKEY *key, const char *cn, X509 *issuer,
		       EVP_PKEY *issuer_key, bool ca)
{
	X509 *cert = X509_new();
	X509_NAME *name;
	int ok;

	if (!cert)
		return NULL;
	name = X509_get_subject_name(cert);
	ok = X509_set_version(cert, X509_VERSION_3) && set_serial(cert) &&
	     X509_gmtime_adj(X509_getm_notBefore(cert), -VALID_BEFORE_S) &&
	     X509_time_adj_ex(X509_getm_notAfter(cert), VALID_DAYS, 0, NULL) &&
	     X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
					(const unsigned char *)"sdsi", -1, -1, 0) &&
	     X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
					(const unsigned char *)cn, -1, -1, 0) &&
	     X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name) &&
	     X509_set_pubkey(cert, key);
	if (ok && ca)
		ok = add_ext(cert, cert, NID_basic_constraints, "critical,CA:TRUE") &&
		     add_ext(cert, cert, NID_key_usage, "critical,keyCertSign,cRLSign") &&
		     add_ext(cert, cert, NID_subject_key_identifier, "hash");
	else if (ok)
		ok = add_ext(cert, issuer, NID_basic_constraints, "critical,CA:FALSE") &&
		     add_ext(cert, issuer, NID_key_usage, "critical,digitalSignature") &&
		     add_ext(cert, issuer, NID_subject_key_identifier, "hash") &&
		     add_ext(cert, issuer, NID_authority_key_identifier, "keyid:always");
	if (ok)
		ok = X509_sign(cert, issuer_key ? issuer_key : key, EVP_sha384()) > 0;
	if (!ok) {
		X509_free(cert);
		return NULL;
	}
	return cert;
}

int sdsi_lic_attest_root_make(const char *cn, EVP_PKEY **key, X509 **cert,
			      struct sdsi_lic_error *err)
{
	int rc;

	*cert = NULL;
	rc = sdsi_lic_key_generate(key, err);
	if (rc)
		return rc;
	*cert = make_cert(*key, cn, NULL, NULL, true);
	if (!*cert) {
		EVP_PKEY_free(*key);
		*key = NULL;
		return sdsi_lic_fail_openssl(err, -ENOMEM, "attestation root certificate");
	}
	return 0;
}

int sdsi_lic_attest_issue(EVP_PKEY *root_key, X509 *root, EVP_PKEY *leaf_key,
			  const char *cn, X509 **out, struct sdsi_lic_error *err)
{
	*out = make_cert(leaf_key, cn, root, root_key, false);
	if (!*out)
		return sdsi_lic_fail_openssl(err, -ENOMEM, "device certificate");
	return 0;
}

int sdsi_lic_cert_to_pem(X509 *cert, char **pem, size_t *len,
			 struct sdsi_lic_error *err)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *data;
	long n;

	*pem = NULL;
	if (!bio || PEM_write_bio_X509(bio, cert) != 1) {
		BIO_free(bio);
		return sdsi_lic_fail_openssl(err, -ENOMEM, "certificate");
	}
	n = BIO_get_mem_data(bio, &data);
	*pem = n > 0 ? malloc((size_t)n) : NULL;
	if (*pem) {
		memcpy(*pem, data, (size_t)n);
		*len = (size_t)n;
	}
	BIO_free(bio);
	return *pem ? 0 : sdsi_lic_fail(err, -ENOMEM, SDSI_LIC_NO_OFFSET, "out of memory");
}

/* By path when name is NULL, else name at dirfd (never replacing a file either way). */
static int save_cert(int dirfd, const char *name, const char *path, X509 *cert,
		     struct sdsi_lic_error *err)
{
	char *pem;
	size_t len;
	int rc;

	rc = sdsi_lic_cert_to_pem(cert, &pem, &len, err);
	if (rc)
		return rc;
	if (name)
		rc = sdsi_lic_write_new_at(dirfd, name, path, "certificate file", pem, len,
					   0644, err);
	else
		rc = sdsi_lic_write_file(path, pem, len, 0644, true, err);
	free(pem);
	return rc;
}

int sdsi_lic_cert_save(const char *path, X509 *cert, struct sdsi_lic_error *err)
{
	return save_cert(-1, NULL, path, cert, err);
}

int sdsi_lic_cert_save_at(int dirfd, const char *name, const char *path, X509 *cert,
			  struct sdsi_lic_error *err)
{
	return save_cert(dirfd, name, path, cert, err);
}

/* The PEM certificate behind fd (closed here), named path in messages. */
static int load_cert_fd(int fd, const char *path, X509 **cert, struct sdsi_lic_error *err)
{
	BIO *bio = BIO_new_fd(fd, BIO_CLOSE);

	if (!bio) {
		close(fd);
		return sdsi_lic_fail_openssl(err, -ENOMEM, path);
	}
	*cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	ERR_clear_error();
	if (!*cert)
		return sdsi_lic_fail(err, -EBADMSG, SDSI_LIC_NO_OFFSET,
				     "%s: not a PEM certificate", path);
	return 0;
}

int sdsi_lic_cert_load(const char *path, X509 **cert, struct sdsi_lic_error *err)
{
	const char *kind = NULL;
	int fd = sdsi_open_regular(path, &kind);

	*cert = NULL;
	if (fd < 0)
		return sdsi_lic_fail(err, fd, SDSI_LIC_NO_OFFSET, "%s: %s", path,
				     kind ? kind : strerror(-fd));
	return load_cert_fd(fd, path, cert, err);
}

int sdsi_lic_cert_load_fd(int fd, const char *path, X509 **cert, struct sdsi_lic_error *err)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	*cert = NULL;
	if (dup_fd < 0)
		return sdsi_lic_fail(err, -errno, SDSI_LIC_NO_OFFSET, "%s: %s", path,
				     strerror(errno));
	return load_cert_fd(dup_fd, path, cert, err);
}
