/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The licensing library: the project's AKC and CAP formats (docs/formats.md;
 * their layout is include/sdsi/license_blob.h), a stand-in for Intel's
 * private ones that keeps every published property.  Every name it exports
 * starts with sdsi_lic_ (SDSI_LIC_ for constants), so it never meets
 * libsdsi's sdsi_ names.  Byte codecs with strict
 * bounds checks, ECDSA P-384/SHA-384 signing and verification through
 * OpenSSL's EVP interface, PEM key files and the License Key Image.
 *
 * Return values: 0 on success, a negative errno otherwise:
 *   -EINVAL     malformed or foreign bytes, or a field outside its range
 *               (err->offset names the byte, err->reason says why)
 *   -EOVERFLOW  more bundles than fit in 1016 bytes
 *   -ENOSPC     the output buffer is too small
 *   -EBADMSG    well-formed, but the signature does not verify with the key
 *   -ENOMEM     out of memory (OpenSSL included)
 *   other       the errno of a failed file operation (key files, output)
 * err may be NULL everywhere it appears.
 */
#ifndef SDSI_LICENSING_LIC_H
#define SDSI_LICENSING_LIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

#include <sdsi/blob_kind.h>
#include <sdsi/license_blob.h>
#include <sdsi/license_type.h>

/* Marks an error that is not about one byte (a key file, a buffer size). */
#define SDSI_LIC_NO_OFFSET		((size_t)-1)

struct sdsi_lic_error {
	size_t offset;
	char reason[256];
};


struct sdsi_lic_akc {
	uint32_t key_revision;
	uint8_t licensor_key[SDSI_LICENSE_PUBKEY_SIZE];
	uint8_t signature[SDSI_LICENSE_SIG_SIZE];
};

struct sdsi_lic_bundle {
	uint32_t code;		/* SDSI_FOURCC order; 4 printable non-space chars */
	/* Signed, ignored by firmware; we issue zeros and keep what we decode. */
	uint8_t reserved[SDSI_BUNDLE_RESERVED_SIZE];
};

/* The licence blob of docs/interface.md §3.1, as the state certificate keeps it. */
struct sdsi_lic_blob {
	uint32_t type;		/* SDSI_BLOB_TYPE_ONE_TIME or _METERED */
	uint64_t id;
	uint64_t ppin;
	uint64_t previous_ppin;	/* 0: not transferred */
	uint32_t revision;
	uint32_t bundle_count;	/* 1 .. SDSI_CAP_MAX_BUNDLES */
	struct sdsi_lic_bundle bundles[SDSI_CAP_MAX_BUNDLES];
};

struct sdsi_lic_cap {
	struct sdsi_lic_blob license;
	uint8_t signature[SDSI_LICENSE_SIG_SIZE];
};

/*
 * Kind: an AKC by its magic and format version; a CAP when
 * sdsi_lic_cap_read() reads it; anything else is foreign.
 */
enum sdsi_payload_kind sdsi_lic_blob_kind(const void *buf, size_t len);
const char *sdsi_lic_kind_name(enum sdsi_payload_kind kind);

/* Four-character codes: "CC02" <-> SDSI_FOURCC('C','C','0','2'). */
bool sdsi_lic_code_valid(uint32_t code);
int sdsi_lic_code_parse(const char *text, uint32_t *code);	/* -EINVAL */
void sdsi_lic_code_format(uint32_t code, char text[5]);	/* '?' if not printable */
const char *sdsi_lic_type_name(uint32_t type);	/* "one-time", "metered", NULL */

/*
 * Codecs.  Decoders accept exactly one canonical encoding: the right magic,
 * version and total size, a known licence type, 1..27 bundles whose codes are
 * printable, and not one byte more or less.  Encoders refuse what the decoders
 * would refuse, so nothing this library writes is rejected by it.
 */
int sdsi_lic_akc_encode(const struct sdsi_lic_akc *akc, void *buf, size_t size,
		    size_t *len);
int sdsi_lic_akc_decode(const void *buf, size_t len, struct sdsi_lic_akc *akc,
		    struct sdsi_lic_error *err);
int sdsi_lic_cap_encode(const struct sdsi_lic_cap *cap, void *buf, size_t size,
		    size_t *len, struct sdsi_lic_error *err);
int sdsi_lic_cap_decode(const void *buf, size_t len, struct sdsi_lic_cap *cap,
		    struct sdsi_lic_error *err);
/*
 * Any CAP, Intel's or ours, read by the published licence-blob layout from
 * byte 0 (docs/formats.md section 3): at most 1016 bytes, a known licence
 * type, 1 or more bundles, all inside the bytes with at least
 * SDSI_CAP_SIG_MIN bytes of signature after them.  Bundle codes and the
 * signature are not judged.  -EINVAL with the reason and the offset
 * otherwise (the bytes are then foreign).  *sig_len (may be NULL): the bytes
 * after the blob.  sdsi_lic_cap_decode() is this plus the rules of our own
 * format: printable codes and a signature of exactly 96 bytes.
 */
int sdsi_lic_cap_read(const void *buf, size_t len, struct sdsi_lic_blob *lic,
		      size_t *sig_len, struct sdsi_lic_error *err);
/*
 * The mailbox carries whole qwords (docs/interface.md §2.5): a CAP of ours,
 * 132 + 32·N bytes, arrives with 4 zero bytes after its signature.  The
 * length of the CAP in len bytes received: the one its bundle count gives
 * when only zeros follow it up to the next qword, else len.
 */
size_t sdsi_lic_cap_unpadded_len(const void *buf, size_t len);
/* The bare licence blob (no header, no signature): what NVRAM stores. */
int sdsi_lic_blob_encode(const struct sdsi_lic_blob *lic, void *buf,
			     size_t size, size_t *len,
			     struct sdsi_lic_error *err);
/*
 * test seam: the inverse of sdsi_lic_blob_encode, for the codec's unit tests
 * and fuzz/fuzz_license.c to check a round trip; the model and libsdsi read
 * a licence with sdsi_lic_cap_read (docs/testing.md, "Test seams").
 */
int sdsi_lic_blob_decode(const void *buf, size_t len,
			     struct sdsi_lic_blob *lic,
			     struct sdsi_lic_error *err);

/*
 * Signing fills ->signature over the encoding of every other field.  The key
 * must be a P-384 private key (-EINVAL otherwise).
 */
int sdsi_lic_akc_sign(struct sdsi_lic_akc *akc, EVP_PKEY *root_key,
		  struct sdsi_lic_error *err);
int sdsi_lic_cap_sign(struct sdsi_lic_cap *cap, EVP_PKEY *licensor_key,
		  struct sdsi_lic_error *err);

/*
 * Verify the bytes as received: decode strictly, then check the signature over
 * every byte before it with the trusted public key.  out (may be NULL) is
 * filled only when the result is 0.
 */
int sdsi_lic_akc_verify(const void *buf, size_t len, EVP_PKEY *root_pub,
		    struct sdsi_lic_akc *out, struct sdsi_lic_error *err);
int sdsi_lic_cap_verify(const void *buf, size_t len, EVP_PKEY *licensor_pub,
		    struct sdsi_lic_cap *out, struct sdsi_lic_error *err);

/* Keys: P-384 only.  The caller frees with EVP_PKEY_free(). */
int sdsi_lic_key_generate(EVP_PKEY **key, struct sdsi_lic_error *err);
bool sdsi_lic_key_is_p384(EVP_PKEY *key);
int sdsi_lic_pubkey_to_raw(EVP_PKEY *key,
			       uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
			       struct sdsi_lic_error *err);
/* Refuses a point that is not on the curve. */
int sdsi_lic_pubkey_from_raw(const uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
				 EVP_PKEY **key,
				 struct sdsi_lic_error *err);
/* License Key Image: SHA-384 of the 96-byte X || Y encoding. */
int sdsi_lic_key_image(const uint8_t raw[SDSI_LICENSE_PUBKEY_SIZE],
			   uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE]);

/*
 * PEM key files (PKCS#8 private, SubjectPublicKeyInfo public).  Loading opens
 * the file as paths/sdsi_path.h does (walked from "/", no link followed,
 * every directory and the file itself owned by root or the caller and closed
 * to others' writes: -ELOOP, -EPERM), and names the file in err->reason when
 * it is missing or unreadable (the open's errno),
 * not a regular file (-EISDIR, -ENXIO for a FIFO, socket or device: refused
 * unread, opened O_NONBLOCK, so a FIFO never blocks), 16 KiB or more (-EFBIG), not
 * PEM or not a P-384 key (-EBADMSG).  Saving never replaces an existing file (-EEXIST) and writes
 * private keys with mode 0600, public keys with 0644.
 */
int sdsi_lic_key_load_private(const char *path, EVP_PKEY **key,
				  struct sdsi_lic_error *err);
int sdsi_lic_key_load_public(const char *path, EVP_PKEY **key,
				 struct sdsi_lic_error *err);
int sdsi_lic_key_save_private(const char *path, EVP_PKEY *key,
				  struct sdsi_lic_error *err);
/*
 * The same, for name in dirfd, a directory opened and checked once
 * (paths/sdsi_path.h); path names the file in messages.  Loading opens the
 * file without following a link and refuses one another user owns or may
 * write (-EPERM, -ELOOP), as the path forms above do for every component
 * from "/" down; _fd reads a key from a descriptor already so opened.
 */
int sdsi_lic_key_load_private_at(int dirfd, const char *name, const char *path,
				 EVP_PKEY **key, struct sdsi_lic_error *err);
int sdsi_lic_key_load_public_at(int dirfd, const char *name, const char *path,
				EVP_PKEY **key, struct sdsi_lic_error *err);
int sdsi_lic_key_load_public_fd(int fd, const char *path, EVP_PKEY **key,
				struct sdsi_lic_error *err);
int sdsi_lic_key_load_private_fd(int fd, const char *path, EVP_PKEY **key,
				 struct sdsi_lic_error *err);
int sdsi_lic_key_save_private_at(int dirfd, const char *name, const char *path, EVP_PKEY *key,
				 struct sdsi_lic_error *err);
int sdsi_lic_key_save_public_at(int dirfd, const char *name, const char *path, EVP_PKEY *key,
				struct sdsi_lic_error *err);
int sdsi_lic_key_save_public(const char *path, EVP_PKEY *key,
				 struct sdsi_lic_error *err);

/*
 * The key guard (license_keyguard.c): whether bytes hold a key or a
 * certificate, which an output written over them must not replace
 * (include/sdsi/output_target.h), in any form OpenSSL reads: a PEM block
 * ("-----BEGIN " in the first MiB: private or public key, encrypted or
 * not, certificate, request), or, for at most 1 MiB read whole, DER that
 * OpenSSL's decoders read as a private or public key of any algorithm
 * (PKCS#8, SEC1, PKCS#1, Ed25519, SubjectPublicKeyInfo, MSBLOB, PVK), an
 * encrypted PKCS#8 key (EncryptedPrivateKeyInfo), a PKCS#12 bundle or an
 * X.509 certificate.  No passphrase is ever asked for.
 * sdsi_lic_fd_holds_key reads the file behind fd from offset 0 (pread:
 * the offset is kept); a file it cannot read into memory is judged to
 * hold one.  sdsi_lic_file_holds_key opens path first: a file that cannot
 * be opened is not judged a key (the write then fails, or succeeds, on
 * its own terms).
 */
bool sdsi_lic_bytes_hold_key(const void *data, size_t len);
bool sdsi_lic_fd_holds_key(int fd);
bool sdsi_lic_file_holds_key(const char *path);

/*
 * Whether the len bytes at buf, all of them, are a DER key OpenSSL reads
 * (at most 16 KiB): "private key" or "public key", else NULL.
 */
const char *sdsi_lic_der_key_kind(const void *buf, size_t len);

/*
 * Write a whole file crash-safely: a temporary file in the same directory,
 * fsync, then rename over path (or, with exclusive, link it into place so an
 * existing file is never replaced: -EEXIST), then fsync the directory.
 */
int sdsi_lic_write_file(const char *path, const void *data, size_t len,
			    unsigned int mode, bool exclusive,
			    struct sdsi_lic_error *err);

/*
 * A step of sdsi_lic_write_file, shared with the model's crash-safe NVRAM
 * file (which writes through util_write_all, util/util_io.h, as it does):
 * fsync the directory that holds path, so a rename into it is durable.
 * 0 or -errno.
 */
int sdsi_lic_sync_parent_dir(const char *path);

/*
 * Attestation X.509 (attest_x509.c): an attestation root (a self-signed
 * P-384 CA certificate with a new key) and a device certificate it issues
 * for a part's key; PEM certificate files, saved never over an existing
 * file (-EEXIST), loaded from a regular file only (-EBADMSG: not PEM).
 * The caller frees with X509_free() and EVP_PKEY_free(); PEM text with free().
 */
int sdsi_lic_attest_root_make(const char *cn, EVP_PKEY **key, X509 **cert,
			      struct sdsi_lic_error *err);
int sdsi_lic_attest_issue(EVP_PKEY *root_key, X509 *root, EVP_PKEY *leaf_key,
			  const char *cn, X509 **out, struct sdsi_lic_error *err);
int sdsi_lic_cert_to_pem(X509 *cert, char **pem, size_t *len,
			 struct sdsi_lic_error *err);
int sdsi_lic_cert_save(const char *path, X509 *cert, struct sdsi_lic_error *err);
int sdsi_lic_cert_load(const char *path, X509 **cert, struct sdsi_lic_error *err);
/*
 * The same, saving name in dirfd, a directory opened and checked once
 * (paths/sdsi_path.h), never replacing a file (-EEXIST); loading from a
 * descriptor already so opened and checked (fd stays the caller's).  path
 * names the file in messages.
 */
int sdsi_lic_cert_save_at(int dirfd, const char *name, const char *path, X509 *cert,
			  struct sdsi_lic_error *err);
int sdsi_lic_cert_load_fd(int fd, const char *path, X509 **cert, struct sdsi_lic_error *err);

#endif /* SDSI_LICENSING_LIC_H */
