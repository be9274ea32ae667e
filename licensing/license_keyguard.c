// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The key guard: whether a file an output would replace holds a key (or a
 * certificate), in any form OpenSSL reads, so that no AKC, CAP or report
 * is ever written over one.  Encrypted keys count: they are the ones most
 * worth keeping, and a guard that needs the passphrase to see them would
 * miss exactly those.  The guard never asks for a passphrase.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "sdsi/input_file.h"
#include "license_internal.h"
#include "util/util_array.h"

/*
 * What is read of a file to judge it: a PEM block is looked for in this
 * much, and a DER structure must fit in it whole (a PKCS#12 bundle with a
 * certificate chain is a few KiB; nothing OpenSSL reads as a key comes
 * near this).
 */
#define GUARD_READ_MAX	(1024u * 1024u)

/* Where needle first occurs in the n bytes at hay (NULs included), or NULL. */
static const unsigned char *find_bytes(const unsigned char *hay, size_t n, const char *needle)
{
	size_t len = strlen(needle);

	for (size_t i = 0; i + len <= n; i++)
		if (!memcmp(hay + i, needle, len))
			return hay + i;
	return NULL;
}

/* Never a prompt: an encrypted key is recognised by its structure, not opened. */
static int no_passphrase(char *pass, size_t size, size_t *len, const OSSL_PARAM params[],
			 void *arg)
{
	return 0;
}

/*
 * Whether the whole of buf is one DER structure of kind T: d2i_T parses it
 * and consumes every byte (so a blob that merely starts like one is not).
 */
#define WHOLE_DER(T, buf, len) ({					\
	const unsigned char *p_ = (buf);				\
	T *v_ = d2i_##T(NULL, &p_, (long)(len));			\
	bool whole_ = v_ && p_ == (buf) + (len);			\
	T##_free(v_);							\
	whole_;								\
})

/*
 * Keys through OpenSSL's decoders (DER: PKCS#8, SEC1, PKCS#1, Ed25519 and
 * the like, SubjectPublicKeyInfo; Microsoft's MSBLOB and PVK), for any
 * algorithm OpenSSL knows.
 */
static bool decodes_as_key(const unsigned char *buf, size_t len)
{
	static const int selections[] = { EVP_PKEY_KEYPAIR, EVP_PKEY_PUBLIC_KEY };
	bool found = false;

	for (size_t i = 0; !found && i < UTIL_ARRAY_SIZE(selections); i++) {
		const unsigned char *p = buf;
		size_t left = len;
		EVP_PKEY *key = NULL;
		OSSL_DECODER_CTX *ctx = OSSL_DECODER_CTX_new_for_pkey(&key, NULL, NULL, NULL,
								    selections[i], NULL, NULL);

		if (!ctx)
			continue;
		OSSL_DECODER_CTX_set_passphrase_cb(ctx, no_passphrase, NULL);
		found = OSSL_DECODER_from_data(ctx, &p, &left) == 1 && key != NULL;
		EVP_PKEY_free(key);
		OSSL_DECODER_CTX_free(ctx);
	}
	return found;
}

bool sdsi_lic_bytes_hold_key(const void *data, size_t len)
{
	const unsigned char *buf = data;
	bool found;

	if (!len)
		return false;
	/* PEM: a private or public key (encrypted or not), a certificate, a CSR. */
	if (find_bytes(buf, len > GUARD_READ_MAX ? GUARD_READ_MAX : len, "-----BEGIN "))
		return true;
	if (len > GUARD_READ_MAX)
		return false;
	found = buf[0] != 0x30 ? decodes_as_key(buf, len) :	/* not a DER SEQUENCE */ WHOLE_DER(X509_SIG, buf, len) ||	/* encrypted PKCS#8 */
		WHOLE_DER(PKCS12, buf, len) ||
		WHOLE_DER(X509, buf, len) ||		/* a certificate */
		decodes_as_key(buf, len);
	ERR_clear_error();	/* a failed parse is an answer, not an error */
	return found;
}

bool sdsi_lic_fd_holds_key(int fd)
{
	/* One byte more than is judged: whether the file is larger. */
	unsigned char *buf = malloc(GUARD_READ_MAX + 1);
	size_t used = 0;
	bool found;
	ssize_t n;

	if (!buf)
		return true;	/* cannot judge: keep the file */
	while (used < GUARD_READ_MAX + 1 &&
	       (n = pread(fd, buf + used, GUARD_READ_MAX + 1 - used, (off_t)used)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		used += (size_t)n;
	}
	found = sdsi_lic_bytes_hold_key(buf, used);
	OPENSSL_cleanse(buf, used);
	free(buf);
	return found;
}

bool sdsi_lic_file_holds_key(const char *path)
{
	const char *kind;
	int fd = sdsi_open_regular(path, &kind);
	bool found;

	if (fd < 0)
		return false;
	found = sdsi_lic_fd_holds_key(fd);
	close(fd);
	return found;
}

/* A DER key is small: 16 KiB, the key files' own bound (license_keyfile.c). */
#define DER_KEY_MAX	16384u

const char *sdsi_lic_der_key_kind(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	const char *kind = "private key";
	EVP_PKEY *key;

	if (!len || len > DER_KEY_MAX)
		return NULL;
	key = d2i_AutoPrivateKey(NULL, &p, (long)len);
	if (!key) {
		p = buf;
		key = d2i_PUBKEY(NULL, &p, (long)len);
		kind = "public key";
	}
	ERR_clear_error();	/* a failed parse is an answer, not an error */
	EVP_PKEY_free(key);
	return key ? kind : NULL;
}
