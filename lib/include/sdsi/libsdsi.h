/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsdsi: user-space access to Intel On Demand (SDSi) sockets through the
 * Linux sysfs ABI (/sys/bus/auxiliary/devices/intel_vsec.sdsi.N/), and
 * decoders for the bytes that ABI returns.  The decoders take plain buffers,
 * so they work as well on saved files as on live devices.
 *
 * Conventions: functions return 0 on success or a negative errno, and fill
 * the caller's struct sdsi_error (which may be NULL) with the positive errno,
 * the class of failure (what the tool turns into its exit status) and a
 * message naming the file or field and the reason.
 *
 * Threads: libsdsi keeps no state between calls and writes only to what the
 * caller passes, so its functions may run in several threads at once, each
 * with its own buffers and struct sdsi_error; intel_sdsi --all reads and
 * provisions each socket in a thread of its own.  (The one exception is
 * sdsi_sysfs_root(), which reads the environment: do not change
 * SDSI_SYSFS_ROOT while other threads call libsdsi.)
 */
#ifndef SDSI_LIBSDSI_H
#define SDSI_LIBSDSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdsi/hw.h>
#include <sdsi/libsdsi_version.h>
#include <sdsi/license_blob.h>
#include <sdsi/spdm_ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SDSI_DEFAULT_SYSFS_ROOT	"/sys/bus/auxiliary/devices"
#define SDSI_SYSFS_ROOT_ENV	"SDSI_SYSFS_ROOT"
#define SDSI_READ_BUF_SIZE	SDSI_READ_MSG_MAX	/* largest certificate a read returns */
#define SDSI_BLOB_MAX		SDSI_WRITE_PAYLOAD_MAX	/* one mailbox packet minus the command */
#define SDSI_PATH_SIZE		4096u	/* a device path this long or longer is refused */

/* ---- errors ------------------------------------------------------------ */

enum sdsi_error_class {
	SDSI_ERR_NONE = 0,
	SDSI_ERR_USAGE,		/* invalid argument from the caller */
	SDSI_ERR_NO_DEVICE,	/* no such device, or the attribute is absent */
	SDSI_ERR_PERMISSION,	/* EACCES, or EPERM (in-band provisioning lock) */
	SDSI_ERR_REFUSED,	/* a pre-flight check or a disabled feature */
	SDSI_ERR_REJECTED,	/* the device rejected a provisioned blob */
	SDSI_ERR_IO,		/* mailbox, I/O or protocol error */
	SDSI_ERR_MALFORMED,	/* bytes that do not decode */
	SDSI_ERR_INTERNAL,	/* out of memory and the like */
	SDSI_ERR_STATE_UNKNOWN,	/* what is provisioned could not be read: nothing written */
};

/*
 * An error: opaque, so that its message may grow without an ABI break
 * (docs/library.md).  Allocate one with sdsi_error_new() (NULL when out of
 * memory) and pass it to the functions below, any number of times: each
 * call that may fail clears or fills it.  Free it with sdsi_error_free().
 */
struct sdsi_error;

struct sdsi_error *sdsi_error_new(void);
void sdsi_error_free(struct sdsi_error *err);

int sdsi_error_errno(const struct sdsi_error *err);		/* positive; 0: no error */
enum sdsi_error_class sdsi_error_class(const struct sdsi_error *err);
long sdsi_error_offset(const struct sdsi_error *err);		/* of a malformed field, or -1 */
const char *sdsi_error_message(const struct sdsi_error *err);	/* "" when no error */

/*
 * Fill err as libsdsi does, for a caller that reports its own failures the
 * same way; returns -errnum.  The arguments may include err's own message.
 */
int sdsi_error_set(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
		   long offset, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* dst becomes a copy of src. */
void sdsi_error_copy(struct sdsi_error *dst, const struct sdsi_error *src);
/* "PREFIX: message": the context a caller knows (a device name), kept in front. */
void sdsi_error_prefix(struct sdsi_error *err, const char *prefix);

/*
 * For __attribute__((cleanup(...))) (GCC and Clang), which passes the
 * variable's address: free *p, which may be NULL.  The same exists for
 * devices (sdsi_device_closep) and pre-flight results (sdsi_preflight_freep).
 */
void sdsi_error_freep(struct sdsi_error **err);

/*
 * "EIO", "ETIMEDOUT", ...: glibc's name of any errno (the sign ignored);
 * "E" and the decimal number ("E4242") for a number without a name.  The
 * string is static or, for a number without a name, valid in the calling
 * thread until its next call.
 */
const char *sdsi_errno_name(int errnum);

/*
 * What an errno means in this ABI (docs/interface.md §9.2), for a read of an
 * attribute (provisioning == false) or a write to provision_akc/cap.
 */
const char *sdsi_errno_meaning(int errnum, bool provisioning);

/* ---- devices ----------------------------------------------------------- */

/*
 * A device: opaque, so that its path has no size in the ABI.  Opened by
 * sdsi_device_open() or listed by sdsi_device_list(); closed (freed) by
 * sdsi_device_close().  A handle holds its device directory open (one
 * descriptor): every attribute is opened relative to it, without following
 * a link (-ELOOP, class REFUSED), and must be a regular file (-EISDIR or
 * -ENXIO, class IO), so the name is never looked up again.
 */
struct sdsi_device;

unsigned int sdsi_device_devno(const struct sdsi_device *dev);	/* N of intel_vsec.sdsi.N */
const char *sdsi_device_name(const struct sdsi_device *dev);	/* "intel_vsec.sdsi.N" */
const char *sdsi_device_path(const struct sdsi_device *dev);	/* ROOT/intel_vsec.sdsi.N */
/* The guid read by open/list, and whether it could be read (else it is 0). */
uint32_t sdsi_device_guid(const struct sdsi_device *dev);
bool sdsi_device_guid_valid(const struct sdsi_device *dev);
void sdsi_device_close(struct sdsi_device *dev);
void sdsi_device_closep(struct sdsi_device **dev);	/* for cleanup: sdsi_error_freep */

/* $SDSI_SYSFS_ROOT when set and non-empty, else SDSI_DEFAULT_SYSFS_ROOT. */
const char *sdsi_sysfs_root(void);

/* A DEVNO is decimal digits only (no sign, no path), at most 9 of them. */
int sdsi_parse_devno(const char *text, unsigned int *devno, struct sdsi_error *err);

/*
 * Find intel_vsec.sdsi.DEVNO under root (NULL: sdsi_sysfs_root()) and read
 * its guid into a new handle in *dev (NULL when it fails), to be closed with
 * sdsi_device_close().  -ENODEV when the directory does not exist.  A root
 * under /sys is opened as the kernel's links lead; any other root is walked
 * from "/" without following a link, and every directory down to the
 * device's must belong to root or the caller and be closed to others'
 * writes (the sticky bit excepted): -ELOOP or -EPERM, class REFUSED, else.
 * The same holds for sdsi_device_list().
 */
int sdsi_device_open(const char *root, const char *devno, struct sdsi_device **dev,
		     struct sdsi_error *err);

/*
 * Every On Demand device under root, sorted by devno.  *devs is NULL and
 * *count 0 when there is none (not an error); a missing root directory is
 * also "no device".  Free with sdsi_device_list_free(), which closes every
 * device still in the array (a caller may close one and put NULL, or
 * another handle, in its place).
 */
int sdsi_device_list(const char *root, struct sdsi_device ***devs, size_t *count,
		     struct sdsi_error *err);
void sdsi_device_list_free(struct sdsi_device **devs, size_t count);

/* ---- reading ----------------------------------------------------------- */

enum sdsi_attr {
	SDSI_ATTR_REGISTERS,
	SDSI_ATTR_STATE_CERT,
	SDSI_ATTR_METER_CERT,
	SDSI_ATTR_METER_CURRENT,
};

const char *sdsi_attr_file(enum sdsi_attr attr);	/* "registers", ... */

/* Parse the guid attribute's "0x%x\n". */
int sdsi_read_guid(const struct sdsi_device *dev, uint32_t *guid, struct sdsi_error *err);

/*
 * One read() at offset 0 into buf (SDSI_READ_BUF_SIZE bytes), as the driver
 * requires: a certificate is produced by one mailbox transaction per read.
 */
int sdsi_read_attr(const struct sdsi_device *dev, enum sdsi_attr attr,
		   uint8_t *buf, size_t *len, struct sdsi_error *err);

/*
 * A whole regular file (a saved certificate or registers dump, a blob) into
 * buf of cap bytes.  -EFBIG (class MALFORMED) when the file holds more.  A
 * file that is missing, cannot be opened, or is not a regular file (-EISDIR
 * for a directory, -ENXIO for a FIFO, socket or device: refused before it
 * is opened, so a FIFO never blocks) is class USAGE: the caller named it.
 */
int sdsi_read_file(const char *path, uint8_t *buf, size_t cap, size_t *len,
		   struct sdsi_error *err);

/* ---- registers (docs/interface.md §2.3 and §2.7) --------------------------- */

struct sdsi_registers {
	uint32_t guid;			/* as given, or inferred from the size */
	unsigned int layout;		/* 1 (72-byte file) or 2 (80-byte file) */
	bool guid_known;		/* guid is V1 or V2 */
	size_t size;			/* bytes decoded */
	uint64_t ppin;
	bool content_auth_error;
	bool metering_auth_error;
	bool on_demand;
	bool attestation;
	bool metering;
	bool akc_provisioned;
	unsigned int akc_fail_count, akc_fail_threshold;
	unsigned int cap_fail_count, cap_fail_threshold;
	unsigned int updates_available, updates_threshold;
	bool nvram_50, nvram_75, nvram_90;
	uint64_t capid1;
	unsigned int socket_id;		/* bits 3:0 at offset 0x40 on V1 and V2 */
};

/*
 * guid 0 means "unknown" (an offline file): the layout follows the size,
 * which must be 72 (V1) or 80 (V2) bytes; any other size is -EBADMSG (class
 * MALFORMED).  An unknown non-zero GUID is decoded with the V1 layout, as the
 * early driver assumes, with guid_known false.  With a GUID (a live device),
 * any size that holds the socket ID decodes; sdsi_preflight() refuses a size
 * that is not the layout's.
 */
int sdsi_decode_registers(const uint8_t *buf, size_t len, uint32_t guid,
			  struct sdsi_registers *regs, struct sdsi_error *err);

/* ---- state certificate (docs/interface.md §3.1) --------------------------- */

#define SDSI_STATE_WARN_KEY_SIZE	(1u << 0)  /* key_size is not 12 dwords */
#define SDSI_STATE_WARN_CONTENT_TYPE	(1u << 1)  /* not 0, 0xD or 0xE */

struct sdsi_license {
	unsigned int index;
	size_t offset;			/* of the blob in the certificate */
	uint32_t size;			/* bytes: (size word & 0x7fffffff) * 4 */
	bool valid;			/* bit 31 of the size word */
	bool present;			/* size != 0: the fields below are decoded */
	uint32_t type;			/* 1 one-time, 2 metered */
	uint64_t id;
	uint64_t ppin;
	uint64_t previous_ppin;
	uint32_t revision;
	uint32_t num_features;
	const uint8_t *features;	/* num_features entries, 32 bytes apart */
};

struct sdsi_state_cert {
	uint32_t content_type;
	uint32_t region_rev_id;
	uint32_t header_size;		/* dwords, as stored */
	uint32_t total_size;		/* as stored (unit undocumented) */
	uint32_t key_size;		/* dwords, as stored */
	uint32_t num_licenses;
	bool key_present;
	uint32_t key_rev_id;
	uint8_t key_image[SDSI_STATE_KEY_IMAGE_SIZE];	/* bytes as stored */
	unsigned int warnings;		/* SDSI_STATE_WARN_* */
	struct sdsi_license *licenses;	/* num_licenses entries, malloc'ed */
};

/*
 * Decode a state certificate.  The license blobs start right after the
 * 4-byte key revision and the 48-byte key image (the upstream tool's reading;
 * see docs/intel_sdsi.md), whatever key_size says.  The certificate keeps
 * pointers into buf: buf must outlive it.  Free with sdsi_state_cert_free().
 */
int sdsi_decode_state_cert(const uint8_t *buf, size_t len, struct sdsi_state_cert *cert,
			   struct sdsi_error *err);
void sdsi_state_cert_free(struct sdsi_state_cert *cert);

/* ---- meter certificate (docs/interface.md §3.2) --------------------------- */

#define SDSI_METER_WARN_MMRC		(1u << 0)  /* MMRC word is not "MMRC" */

struct sdsi_meter_cert {
	uint32_t signature;		/* "MTDB" */
	uint32_t version;
	uint64_t ppin;
	uint32_t unit_ms;
	uint32_t bundle_length;		/* bytes of (encoding, counter) pairs */
	uint32_t mmrc_encoding;
	uint32_t mmrc_counter;
	uint32_t num_counters;
	const uint8_t *counters;	/* num_counters pairs of 8 bytes, into buf */
	unsigned int warnings;		/* SDSI_METER_WARN_* */
};

int sdsi_decode_meter_cert(const uint8_t *buf, size_t len, struct sdsi_meter_cert *cert,
			   struct sdsi_error *err);
void sdsi_meter_counter(const struct sdsi_meter_cert *cert, uint32_t i,
			uint32_t *encoding, uint32_t *count);

/* Feature encoding k of a license. */
uint32_t sdsi_license_feature(const struct sdsi_license *lic, uint32_t k);

/*
 * A four-character code as text: the little-endian u32 printed most
 * significant byte first ("MTDB"); bytes outside printable ASCII become '.'.
 */
void sdsi_fourcc(uint32_t code, char text[5]);

/* ---- AKC and CAP contents (docs/formats.md) ------------------------------- */

/*
 * An AKC of the project's format (a stand-in: Intel's is private) is
 * recognised by its magic and version; a CAP, Intel's or ours, by the
 * published licence-blob layout it starts with (a known type, a bundle count
 * that fits its size: docs/formats.md).  Anything else is foreign: libsdsi
 * passes it through with the generic checks.
 */
enum sdsi_blob_format {
	SDSI_BLOB_FORMAT_FOREIGN,
	SDSI_BLOB_FORMAT_AKC,
	SDSI_BLOB_FORMAT_CAP,
};

#define SDSI_BLOB_MAX_FEATURES	SDSI_CAP_MAX_BUNDLES	/* bundles that fit in 1016 bytes */
#define SDSI_KEY_IMAGE_SIZE	SDSI_STATE_KEY_IMAGE_SIZE	/* SHA-384 */

struct sdsi_blob_info {
	enum sdsi_blob_format format;
	size_t size;			/* bytes of the file */
	/* AKC */
	uint32_t key_revision;
	uint8_t key_image[SDSI_KEY_IMAGE_SIZE];	/* SHA-384 of the licensor key */
	/* CAP: the licence it carries (docs/interface.md §3.1) */
	uint32_t type;			/* 1 one-time, 2 metered */
	uint64_t id;
	uint64_t ppin;
	uint64_t previous_ppin;
	uint32_t revision;
	uint32_t num_features;
	uint32_t features[SDSI_BLOB_MAX_FEATURES];	/* four-character codes */
};

/* "foreign", "AKC", "CAP". */
const char *sdsi_blob_format_name(enum sdsi_blob_format format);

/*
 * Decode an AKC of the project's format or any CAP.  A foreign blob is not
 * an error: 0 with format SDSI_BLOB_FORMAT_FOREIGN.  An AKC with the magic
 * and version but malformed (truncated, a wrong size field) is -EBADMSG,
 * class MALFORMED, with the offset and the reason.  Signatures are not
 * verified: that needs the keys.
 */
int sdsi_decode_blob(const uint8_t *buf, size_t len, struct sdsi_blob_info *info,
		     struct sdsi_error *err);

/*
 * Read buf as a licence blob, the published layout every CAP has, whatever
 * its first bytes say (since 0.3): 0 when it reads; else -EBADMSG, class
 * MALFORMED, the error's offset that of the first field that does not
 * read and its message the reason alone, for the caller to name the file:
 * why a blob sdsi_decode_blob() calls foreign is no CAP.
 */
int sdsi_read_license_blob(const uint8_t *buf, size_t len, struct sdsi_error *err);

/*
 * Whether the file behind fd holds a key or a certificate, in any form
 * OpenSSL reads (since 0.3): a PEM block, or DER that reads as a private
 * or public key, an encrypted key, a PKCS#12 bundle or an X.509
 * certificate; no passphrase is asked for.  It reads from offset 0 with
 * pread (fd's offset is kept); a file it cannot read into memory is judged
 * to hold one.  For a program about to write over the file: a key is never
 * to be replaced.
 */
bool sdsi_fd_holds_key(int fd);

/* ---- provisioning ------------------------------------------------------ */

enum sdsi_blob_kind { SDSI_BLOB_AKC, SDSI_BLOB_CAP };

const char *sdsi_blob_file(enum sdsi_blob_kind kind);	/* "provision_akc" */
const char *sdsi_blob_name(enum sdsi_blob_kind kind);	/* "AKC" */

enum sdsi_check_status {
	SDSI_CHECK_PASS,
	SDSI_CHECK_FAIL,	/* refused: the first failure is the error */
	SDSI_CHECK_SKIP,	/* could not be made (foreign blob, no certificate) */
	SDSI_CHECK_WARN,	/* passed, with sdsi_preflight_warning() */
	SDSI_CHECK_UNCHANGED,	/* already provisioned: nothing to write */
};

const char *sdsi_check_status_name(enum sdsi_check_status status);	/* "pass", ... */

/*
 * What the pre-flight checks found: opaque, so that a check may be added and
 * a detail or warning grow without an ABI break.  Allocate one with
 * sdsi_preflight_new() (NULL when out of memory), pass it to sdsi_preflight()
 * or sdsi_preflight_blob() (each call starts it afresh), read it through the
 * accessors below, free it with sdsi_preflight_free().
 */
struct sdsi_preflight;

struct sdsi_preflight *sdsi_preflight_new(void);
void sdsi_preflight_free(struct sdsi_preflight *pf);
void sdsi_preflight_freep(struct sdsi_preflight **pf);	/* for cleanup: sdsi_error_freep */

/* One more failure reaches the threshold. */
bool sdsi_preflight_last_attempt(const struct sdsi_preflight *pf);
/* Set when last_attempt, and for an implausible blob sent by force; else "". */
const char *sdsi_preflight_warning(const struct sdsi_preflight *pf);
/* Filled by sdsi_preflight_blob(); format FOREIGN after sdsi_preflight(). */
const struct sdsi_blob_info *sdsi_preflight_blob_info(const struct sdsi_preflight *pf);
/* Already provisioned: nothing needs writing. */
bool sdsi_preflight_unchanged(const struct sdsi_preflight *pf);
/* Unchanged, but SDSI_PREFLIGHT_FORCE asks to write anyway. */
bool sdsi_preflight_forced(const struct sdsi_preflight *pf);

/*
 * The checks made, in order: check i (below the count) has a name, a status
 * and a detail; past the count, the name and detail are NULL.  Names are
 * stable (scripts read them): "layout", "size", "format", "on_demand",
 * "updates", "failures", "akc_present", "ppin", "key_revision",
 * "already_provisioned".
 */
unsigned int sdsi_preflight_num_checks(const struct sdsi_preflight *pf);
const char *sdsi_preflight_check_name(const struct sdsi_preflight *pf, unsigned int i);
enum sdsi_check_status sdsi_preflight_check_status(const struct sdsi_preflight *pf,
						   unsigned int i);
const char *sdsi_preflight_check_detail(const struct sdsi_preflight *pf, unsigned int i);

/*
 * The generic checks, which need only the registers and the blob's size, in
 * order: known GUID with a registers file of the exact size; blob not empty
 * and at most 1016 bytes; On Demand enabled; updates available; the failure
 * count below its threshold; for a CAP, an AKC already provisioned.  Every
 * check runs and is recorded in pf; the first refusal is the error
 * (class REFUSED, the reason in the message).
 */
int sdsi_preflight(const struct sdsi_registers *regs, enum sdsi_blob_kind kind,
		   size_t blob_len, struct sdsi_preflight *pf, struct sdsi_error *err);

/*
 * Write even what is unchanged, a foreign blob that does not look like one
 * (sdsi_foreign_plausible()), or without the state certificate.
 */
#define SDSI_PREFLIGHT_FORCE	(1u << 0)

/*
 * Spend an attempt only on purpose (issue 19): state NULL where the
 * comparison needs it is an unknown state, and a foreign blob must be
 * plausible.  Without it, the checks of libsdsi 0.1.0, where both pass with
 * a "skip", so that its callers see no new refusal (docs/library.md).
 */
#define SDSI_PREFLIGHT_STRICT	(1u << 1)

/*
 * The least a foreign blob must be before it is sent (docs/intel_sdsi.md,
 * "What a foreign blob must at least be"): SDSI_FOREIGN_MIN to SDSI_BLOB_MAX
 * bytes, not text, not PEM, not one byte value repeated.
 */
#define SDSI_FOREIGN_MIN	96u	/* an ECDSA P-384 signature (r, s), nothing else */

/*
 * sdsi_preflight() plus the checks that read the blob (docs/intel_sdsi.md):
 * an AKC or CAP of the project's format must be the kind being provisioned
 * and well formed (EINVAL, EBADMSG with the offset); a CAP must carry this
 * socket's PPIN (EXDEV).  Against the state certificate, an AKC whose key
 * image and key revision are the provisioned ones, or a CAP whose licence ID
 * is stored, valid, with the same or a higher revision, is unchanged: 0 with
 * sdsi_preflight_unchanged(pf), unless SDSI_PREFLIGHT_FORCE.  An AKC with a lower key
 * revision than the provisioned one is a rollback the silicon refuses
 * (ESTALE), as is a CAP whose licence ID is stored only in entries no longer
 * valid with the same or a higher revision.  What is unchanged needs no
 * write: the refusals that concern only writing (no update left, a failure
 * count at its threshold) become "skip".  A foreign blob gets the generic
 * checks.  With SDSI_PREFLIGHT_STRICT: state NULL where it is needed (an
 * sdsi-format blob, an AKC provisioned) means the socket's state is unknown,
 * -ENODATA, class STATE_UNKNOWN, unless SDSI_PREFLIGHT_FORCE or another check
 * refuses for a reason that does not concern only writing; and a foreign
 * blob must be plausible (SDSI_FOREIGN_MIN), else -EBADMSG unless
 * SDSI_PREFLIGHT_FORCE, which then puts what it risks in the warning.
 */
int sdsi_preflight_blob(const struct sdsi_registers *regs, const struct sdsi_state_cert *state,
			enum sdsi_blob_kind kind, const uint8_t *blob, size_t len,
			unsigned int flags, struct sdsi_preflight *pf, struct sdsi_error *err);

struct sdsi_provision_options {
	unsigned int busy_retries;	/* extra attempts after EBUSY */
	unsigned int busy_delay_ms;	/* wait between them */
};

/*
 * One write() at offset 0 of provision_akc or provision_cap.  EIO means the
 * device rejected the blob (class REJECTED); EPERM is the in-band lock.
 */
int sdsi_provision(const struct sdsi_device *dev, enum sdsi_blob_kind kind,
		   const uint8_t *blob, size_t len, const struct sdsi_provision_options *opts,
		   struct sdsi_error *err);

/* ---- attestation transport -------------------------------------------- */

/*
 * One SPDM 1.0 request to the part's attestation service and its answer,
 * through /dev/isdsiN (N the device's number; <sdsi/spdm_ioctl.h>): the
 * SDSI_IF_SPDM_COMMAND ioctl on a kernel driver's character device, or
 * the write-then-read transaction on the file sdsi-emu run serves there;
 * the descriptor says which.  req holds 1..SDSI_SPDM_REQUEST_MAX bytes;
 * the answer (at most SDSI_SPDM_RESPONSE_MAX) goes to rsp, its length to
 * *rsp_len.  Each call opens the file once and closes it: SPDM's state is
 * the part's, not the file's.  Errors: EINVAL (no request, class USAGE),
 * EOVERFLOW (a request over SDSI_SPDM_REQUEST_MAX, USAGE), ENODEV (no such
 * file: ENABLED_FEATURES bit 12 clear or a driver without the transport;
 * or not a transport, NO_DEVICE), EMSGSIZE (an answer larger than
 * rsp_cap, USAGE), EPROTO (an answer not in the structure's form, IO);
 * else the driver's errno as a read's (EACCES, EBUSY, ETIMEDOUT, EIO).
 * An SPDM ERROR answer is a success here: the caller reads its code.
 * Since LIBSDSI_0.3.
 */
int sdsi_spdm_transact(const struct sdsi_device *dev, const uint8_t *req, size_t req_len,
		       uint8_t *rsp, size_t rsp_cap, size_t *rsp_len, struct sdsi_error *err);

/* ---- attestation (SPDM 1.0; since LIBSDSI_0.4, docs/library.md) --------- */

/*
 * The owner's side of the part's attestation: SPDM 1.0 with ECDSA P-384 and
 * SHA-384, the only algorithms an On Demand part offers.  A session handle
 * (struct sdsi_attest) talks to one device through sdsi_spdm_transact();
 * sdsi_attest_verify() runs the whole flow and returns a verdict handle
 * (struct sdsi_attest_verdict) that says what was checked, what failed and
 * why.  Both handles are opaque and belong to one thread at a time.
 *
 * Two outcomes are kept apart.  The part failed attestation (a signature,
 * a chain, a measurement is wrong; a malformed or hostile answer): the
 * verification call returns 0 and the verdict says which check failed.
 * Attestation could not run: a negative errno with the class of its cause:
 * ENODEV (no transport: bit 12 clear, or a driver without it, NO_DEVICE),
 * EBUSY (the mailbox is held, or the part answered SPDM ERROR Busy: retry,
 * class IO), EACCES (PERMISSION), EIO/ETIMEDOUT (IO), ENOMEM (INTERNAL),
 * EINVAL (USAGE), and for the trust anchors, errors naming the path (USAGE).
 * sdsi_attest_digest() and sdsi_attest_chain(), which verify nothing, return
 * EPROTO (class IO) with the reason when an answer is malformed.
 */
#define SDSI_ATTEST_DIGEST_SIZE	48u	/* SHA-384 */
#define SDSI_ATTEST_NONCE_SIZE	32u

struct sdsi_attest;
struct sdsi_attest_verdict;

/*
 * A session with dev's attestation service in *att (NULL when it fails).
 * No byte goes to the part here: the first call that needs it runs
 * GET_VERSION, GET_CAPABILITIES and NEGOTIATE_ALGORITHMS (VCA) and checks
 * SPDM 1.0, the CERT, CHAL and signed-MEAS capabilities and ECDSA P-384 /
 * SHA-384.  dev must outlive the handle.  Errors: EINVAL, ENOMEM.
 */
int sdsi_attest_open(const struct sdsi_device *dev, struct sdsi_attest **att,
		     struct sdsi_error *err);
void sdsi_attest_free(struct sdsi_attest *att);
void sdsi_attest_freep(struct sdsi_attest **att);	/* for cleanup: sdsi_error_freep */

/* GET_DIGESTS after VCA: the SHA-384 digest of slot 0's certificate chain. */
int sdsi_attest_digest(struct sdsi_attest *att, uint8_t digest[SDSI_ATTEST_DIGEST_SIZE],
		       struct sdsi_error *err);

/*
 * Slot 0's whole SPDM certificate chain (Length u16, reserved u16,
 * RootHash, the DER certificates root first), read by GET_CERTIFICATE in
 * portions after VCA and GET_DIGESTS: *bytes points into the handle, valid
 * until it is freed or the next call on it.  At most 65535 bytes.  Nothing
 * is verified: the device's bytes as it gave them.
 */
int sdsi_attest_chain(struct sdsi_attest *att, const uint8_t **bytes, size_t *len,
		      struct sdsi_error *err);

/*
 * The chain's last certificate (the leaf, whose key signs) as DER alone,
 * for `openssl x509 -inform DER`: *der points into the handle, as for
 * sdsi_attest_chain(), which it calls when the chain was not read yet.
 * EPROTO when the chain's certificates do not parse as DER.
 */
int sdsi_attest_leaf_der(struct sdsi_attest *att, const uint8_t **der, size_t *len,
			 struct sdsi_error *err);

/*
 * The whole flow, in order (each step one check of the verdict, named in
 * sdsi_attest_check_name()): VCA; GET_DIGESTS; the chain in portions; the
 * chain verified by OpenSSL to an anchor read from trust_path (a PEM file
 * or a directory of PEM files: those anchors only, never a certificate
 * the device sends); the chain's RootHash equal to the SHA-384 of its
 * root certificate, that root one of the anchors; the slot digest equal
 * to the SHA-384 of the chain; CHALLENGE of slot 0 without a measurement
 * summary and with a fresh nonce from getrandom(), its CHALLENGE_AUTH
 * signature verified with the leaf's key over M1 (VCA, GET_DIGESTS and
 * the CERTIFICATE exchanges, the CHALLENGE and its answer less the
 * signature), its chain hash equal to the slot digest and its nonce
 * not the requester's; signed GET_MEASUREMENTS of every index with
 * another fresh nonce, verified over L1; measurement 1 equal to the
 * SHA-384 of state_certificate read in the same run, measurement 2 to
 * that of meter_certificate where the part meters (reports index 2).
 * A check that fails stops the flow: the later ones are "not-run".
 * Returns 0 with *verdict whenever the flow ran, whatever it found; a
 * negative errno (above) when it could not run, with *verdict NULL.
 * trust_path is opened with O_NOFOLLOW and checked by its descriptor;
 * one that is no regular file or directory, or holds no certificate, is
 * an error naming it (class USAGE), before any byte goes to the part.
 */
int sdsi_attest_verify(struct sdsi_attest *att, const char *trust_path,
		       struct sdsi_attest_verdict **verdict, struct sdsi_error *err);

enum sdsi_attest_result {
	SDSI_ATTEST_OK,
	SDSI_ATTEST_FAILED,
	SDSI_ATTEST_NOT_RUN,	/* an earlier check failed, or nothing to compare */
};

/* "ok", "failed", "not-run". */
const char *sdsi_attest_result_name(enum sdsi_attest_result result);

/*
 * The checks, always the same, in the flow's order; their names are a
 * contract (scripts and the JSON read them): "version", "capabilities",
 * "algorithms", "digest", "chain", "trust", "root-hash", "slot-digest",
 * "challenge-signature", "challenge-nonce", "challenge-chain-hash",
 * "measurement-signature", "measurement-state", "measurement-meter".
 * Index i below sdsi_attest_num_checks(); NULL past it.
 */
unsigned int sdsi_attest_num_checks(void);
const char *sdsi_attest_check_name(unsigned int i);

void sdsi_attest_verdict_free(struct sdsi_attest_verdict *verdict);
void sdsi_attest_verdict_freep(struct sdsi_attest_verdict **verdict);

/*
 * Whether every check passed ("measurement-meter" may be not-run on a part
 * that does not meter; any other check must be ok).
 */
bool sdsi_attest_verdict_ok(const struct sdsi_attest_verdict *verdict);
/* The name of the first failed check; NULL when none failed. */
const char *sdsi_attest_verdict_failed_check(const struct sdsi_attest_verdict *verdict);
/*
 * One sentence: what the verdict proves when ok ("state certificate
 * attested by the part whose key the root certifies"), else what failed
 * and why.
 */
const char *sdsi_attest_verdict_summary(const struct sdsi_attest_verdict *verdict);

/* Check i (sdsi_attest_check_name(i)): its result, and a detail ("" if none; NULL past the count). */
enum sdsi_attest_result sdsi_attest_verdict_result(const struct sdsi_attest_verdict *verdict,
						   unsigned int i);
const char *sdsi_attest_verdict_detail(const struct sdsi_attest_verdict *verdict,
				       unsigned int i);

/*
 * The chain's certificates as read, root first, leaf last: their
 * subjects in OpenSSL's one-line form (RFC 2253); 0 when the chain did
 * not parse.  NULL past the count.
 */
unsigned int sdsi_attest_verdict_num_certs(const struct sdsi_attest_verdict *verdict);
const char *sdsi_attest_verdict_cert_subject(const struct sdsi_attest_verdict *verdict,
					     unsigned int i);
/* The subject of the trust anchor the chain verified to; NULL when none. */
const char *sdsi_attest_verdict_anchor_subject(const struct sdsi_attest_verdict *verdict);

/*
 * The measurements the part reported (in its order, whether or not their
 * signature verified: see the checks): index and value as lower-case hex.
 * 0 when none was read.  Past the count: index 0, NULL.
 */
unsigned int sdsi_attest_verdict_num_measurements(const struct sdsi_attest_verdict *verdict);
unsigned int sdsi_attest_verdict_measurement_index(const struct sdsi_attest_verdict *verdict,
						   unsigned int i);
const char *sdsi_attest_verdict_measurement_hex(const struct sdsi_attest_verdict *verdict,
						unsigned int i);

/* Slot 0's digest from GET_DIGESTS (SDSI_ATTEST_DIGEST_SIZE bytes); NULL when not read. */
const uint8_t *sdsi_attest_verdict_digest(const struct sdsi_attest_verdict *verdict);

#ifdef __cplusplus
}
#endif

#endif /* SDSI_LIBSDSI_H */
