// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdsi's checks of the sdsi AKC/CAP format: decoding (every truncation of
 * a real AKC and CAP, foreign blobs), then sdsi_preflight_blob() against
 * registers and state certificates written byte by byte: wrong kind, wrong
 * PPIN, CAP before AKC, unchanged AKC and licence with and without force,
 * rollbacks and replays, and every check recorded even after a refusal.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "blob_maker.h"
#include "cert_bytes.h"
#include "sdsi/hw.h"
#include "sdsi/libsdsi.h"
#include "scoped_handle.h"

#define PPIN 0x1122334455667788ull
#define STRICT SDSI_PREFLIGHT_STRICT

static uint8_t blob[SDSI_BLOB_MAX];

static int setup(void **state)
{
	return maker_setup();
}

static int teardown(void **state)
{
	maker_teardown();
	return 0;
}

/* V2 registers as decoded from a healthy socket with an AKC. */
static struct sdsi_registers socket_regs(void)
{
	return (struct sdsi_registers){
		.guid = SDSI_GUID_V2, .layout = 2, .guid_known = true, .size = SDSI_REGS_SIZE_V2,
		.ppin = PPIN, .on_demand = true, .attestation = true, .metering = true,
		.akc_provisioned = true, .akc_fail_threshold = 3, .cap_fail_threshold = 3,
		.updates_available = 4, .updates_threshold = 4,
	};
}

struct stored {
	const uint8_t *cap;	/* the whole CAP; the certificate keeps its licence blob */
	size_t len;
	bool valid;
};

/* A state certificate (docs/interface.md §3.1) with the key and the licences. */
static size_t state_bytes(uint8_t *buf, uint32_t key_rev, const uint8_t image[48],
			  const struct stored *lic, uint32_t n)
{
	size_t off = SDSI_STATE_HEADER_SIZE + 4 * (size_t)n;

	memset(buf, 0, SDSI_READ_BUF_SIZE);
	put32(buf, 0x00, n ? 0xe : 0xd);
	put32(buf, 0x04, 1);
	put32(buf, 0x08, 6 + n);
	put32(buf, 0x10, 12);
	put32(buf, 0x14, n);
	put32(buf, off, key_rev);
	memcpy(buf + off + 4, image, 48);
	off += 52;
	for (uint32_t i = 0; i < n; i++) {
		size_t size = lic[i].len - MAKER_CAP_HEADER - MAKER_SIGNATURE;

		put32(buf, SDSI_STATE_HEADER_SIZE + 4 * i,
		      (uint32_t)(size / 4) | (lic[i].valid ? SDSI_BLOB_VALID : 0));
		memcpy(buf + off, lic[i].cap + MAKER_CAP_HEADER, size);
		off += size;
	}
	put32(buf, 0x0c, (uint32_t)off);
	return off;
}

/* The index of the check of that name. */
static unsigned int find_check(const struct sdsi_preflight *pf, const char *name)
{
	for (unsigned int i = 0; i < sdsi_preflight_num_checks(pf); i++)
		if (!strcmp(sdsi_preflight_check_name(pf, i), name))
			return i;
	fail_msg("no check %s", name);
	return 0;
}

static void assert_status(const struct sdsi_preflight *pf, const char *name,
			  enum sdsi_check_status status)
{
	const unsigned int i = find_check(pf, name);

	if (sdsi_preflight_check_status(pf, i) != status)
		fail_msg("check %s is %s (%s), expected %s", name,
			 sdsi_check_status_name(sdsi_preflight_check_status(pf, i)),
			 sdsi_preflight_check_detail(pf, i), sdsi_check_status_name(status));
}

/*
 * The first len bytes of b decode (into info, or a local one when NULL);
 * the format they were read as.
 */
static enum sdsi_blob_format format_of(const uint8_t *b, size_t len, struct sdsi_blob_info *info)
{
	struct sdsi_blob_info local;
	SCOPED_ERROR(err);

	if (!info)
		info = &local;
	assert_int_equal(sdsi_decode_blob(b, len, info, err), 0);
	return info->format;
}

static void test_decode_akc_and_cap(void **state)
{
	struct sdsi_blob_info info;
	uint8_t image[48];
	size_t len;

	len = maker_akc(0, 7, blob, sizeof(blob), image);
	assert_int_equal(format_of(blob, len, &info), SDSI_BLOB_FORMAT_AKC);
	assert_int_equal(info.size, 208);
	assert_int_equal(info.key_revision, 7);
	assert_memory_equal(info.key_image, image, 48);

	len = maker_cap(SDSI_BLOB_TYPE_METERED, 0xabcdef, PPIN, 9, 27, blob, sizeof(blob));
	assert_int_equal(len, 996);
	assert_int_equal(format_of(blob, len, &info), SDSI_BLOB_FORMAT_CAP);
	assert_int_equal(info.type, SDSI_BLOB_TYPE_METERED);
	assert_int_equal(info.id, 0xabcdef);
	assert_int_equal(info.ppin, PPIN);
	assert_int_equal(info.previous_ppin, 0);
	assert_int_equal(info.revision, 9);
	assert_int_equal(info.num_features, 27);
	assert_int_equal(info.features[0], SDSI_FOURCC('F', 'T', '0', '0'));
	assert_int_equal(info.features[26], SDSI_FOURCC('F', 'T', '2', '6'));
}

/*
 * A truncated AKC of ours is malformed; a CAP is read by the published
 * layout, so one whose bundles and signature no longer fit, or whose
 * licence type is unknown, does not read as a CAP: foreign.
 */
static void test_every_truncation_is_malformed_or_foreign(void **state)
{
	struct sdsi_blob_info info;
	SCOPED_ERROR(err);
	uint8_t image[48];
	size_t size;

	size = maker_akc(0, 1, blob, sizeof(blob), image);
	/* Below 8 bytes the magic and version cannot be read: foreign. */
	for (size_t len = 8; len < size; len++) {
		assert_int_equal(sdsi_decode_blob(blob, len, &info, err), -EBADMSG);
		assert_int_equal(sdsi_error_class(err), SDSI_ERR_MALFORMED);
		assert_true(sdsi_error_offset(err) >= 0 && sdsi_error_offset(err) <= (long)len);
		assert_non_null(strstr(sdsi_error_message(err), "malformed"));
	}
	size = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 1, PPIN, 1, 3, blob, sizeof(blob));
	for (size_t len = 0; len < size; len++)
		assert_int_equal(format_of(blob, len, NULL), SDSI_BLOB_FORMAT_FOREIGN);
	assert_int_equal(format_of(blob, size, NULL), SDSI_BLOB_FORMAT_CAP);
	put32(blob, 0, 3);
	assert_int_equal(format_of(blob, size, NULL), SDSI_BLOB_FORMAT_FOREIGN);
}

static void test_foreign_blobs(void **state)
{
	static const uint8_t intel[] = { 0x01, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00, 0xff };
	struct sdsi_blob_info info;
	uint8_t image[48];
	size_t len;

	assert_int_equal(format_of(intel, sizeof(intel), &info), SDSI_BLOB_FORMAT_FOREIGN);
	assert_string_equal(sdsi_blob_format_name(info.format), "foreign");
	len = maker_akc(0, 1, blob, sizeof(blob), image);
	assert_int_equal(format_of(blob, 7, NULL), SDSI_BLOB_FORMAT_FOREIGN);
	put32(blob, 4, 2);		/* a later format version is not ours to read */
	assert_int_equal(format_of(blob, len, NULL), SDSI_BLOB_FORMAT_FOREIGN);
}

/* Why a blob is no licence blob: the offset and the reason, alone. */
static void test_read_license_blob(void **state)
{
	static const uint8_t intel[] = { 0x01, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00, 0xff };
	SCOPED_ERROR(err);
	uint8_t image[48];
	size_t len;

	len = maker_cap(SDSI_BLOB_TYPE_METERED, 7, PPIN, 1, 2, blob, sizeof(blob));
	assert_int_equal(sdsi_read_license_blob(blob, len, err), 0);
	assert_int_equal(sdsi_error_errno(err), 0);
	assert_int_equal(sdsi_read_license_blob(intel, sizeof(intel), err), -EBADMSG);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_MALFORMED);
	assert_true(sdsi_error_offset(err) >= 0);
	assert_string_not_equal(sdsi_error_message(err), "");
	assert_null(strstr(sdsi_error_message(err), "malformed"));
	len = maker_akc(0, 1, blob, sizeof(blob), image);
	assert_int_equal(sdsi_read_license_blob(blob, len, err), -EBADMSG);
	assert_int_equal(sdsi_read_license_blob(blob, 0, NULL), -EBADMSG);
}

/* The key guard a program asks before it writes over a file. */
static void test_fd_holds_key(void **state)
{
	static const char pem[] = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n"
				  "-----END PRIVATE KEY-----\n";
	static const char text[] = "{\"socket\": 0}\n";
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	fd = fileno(f);
	assert_int_equal(pwrite(fd, text, strlen(text), 0), (ssize_t)strlen(text));
	assert_false(sdsi_fd_holds_key(fd));
	assert_int_equal(pwrite(fd, pem, strlen(pem), 0), (ssize_t)strlen(pem));
	assert_true(sdsi_fd_holds_key(fd));
	fclose(f);
}

static int preflight(const struct sdsi_registers *r, const uint8_t *cert, size_t cert_len,
		     enum sdsi_blob_kind kind, size_t len, unsigned int flags,
		     struct sdsi_preflight *pf, struct sdsi_error *err)
{
	struct sdsi_state_cert st;
	int ret;

	if (!cert)
		return sdsi_preflight_blob(r, NULL, kind, blob, len, flags, pf, err);
	assert_int_equal(sdsi_decode_state_cert(cert, cert_len, &st, NULL), 0);
	ret = sdsi_preflight_blob(r, &st, kind, blob, len, flags, pf, err);
	sdsi_state_cert_free(&st);
	return ret;
}

static void test_wrong_kind_ppin_and_missing_akc(void **state)
{
	struct sdsi_registers r = socket_regs();
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	uint8_t image[48];
	size_t len;

	len = maker_akc(0, 1, blob, sizeof(blob), image);
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), -EINVAL);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_REFUSED);
	assert_string_equal(sdsi_error_message(err), "the file is an AKC, but -c provisions a CAP: use -a");
	assert_status(pf, "format", SDSI_CHECK_FAIL);

	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 5, PPIN, 1, 1, blob, sizeof(blob));
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_AKC, len, 0, pf, err), -EINVAL);
	assert_string_equal(sdsi_error_message(err), "the file is a CAP, but -a provisions an AKC: use -c");

	r.ppin = 0x42;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), -EXDEV);
	assert_non_null(strstr(sdsi_error_message(err), "bound to PPIN 0x1122334455667788, this socket's PPIN is 0x0000000000000042"));
	assert_status(pf, "ppin", SDSI_CHECK_FAIL);

	r = socket_regs();
	r.akc_provisioned = false;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), -ENOKEY);
	assert_status(pf, "ppin", SDSI_CHECK_PASS);
	assert_status(pf, "already_provisioned", SDSI_CHECK_SKIP);
	assert_false(sdsi_preflight_unchanged(pf));
}

static void test_every_check_runs_after_a_refusal(void **state)
{
	struct sdsi_registers r = socket_regs();
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	size_t len;

	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 5, 0x99, 1, 1, blob, sizeof(blob));
	r.updates_available = 0;
	r.cap_fail_count = 2;
	/* The first refusal is the error; the later ones are recorded too. */
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), -EDQUOT);
	assert_non_null(strstr(sdsi_error_message(err), "Maximum number of updates (4)"));
	assert_status(pf, "updates", SDSI_CHECK_FAIL);
	assert_status(pf, "failures", SDSI_CHECK_WARN);
	assert_true(sdsi_preflight_last_attempt(pf));
	assert_status(pf, "ppin", SDSI_CHECK_FAIL);
	assert_int_equal(sdsi_preflight_num_checks(pf), 9);

	/* Registers read with the wrong layout decide nothing. */
	r = socket_regs();
	r.size = 72;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), -EBADMSG);
	assert_status(pf, "layout", SDSI_CHECK_FAIL);
	assert_status(pf, "format", SDSI_CHECK_PASS);
	assert_status(pf, "on_demand", SDSI_CHECK_SKIP);
	assert_status(pf, "ppin", SDSI_CHECK_SKIP);
	assert_status(pf, "already_provisioned", SDSI_CHECK_SKIP);
}

static void test_akc_against_the_state_certificate(void **state)
{
	struct sdsi_registers r = socket_regs();
	uint8_t cert[SDSI_READ_BUF_SIZE], image[48], other[48];
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	size_t len, cert_len;

	len = maker_akc(0, 5, blob, sizeof(blob), image);
	cert_len = state_bytes(cert, 5, image, NULL, 0);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_AKC, len, 0, pf, err), 0);
	assert_true(sdsi_preflight_unchanged(pf));
	assert_false(sdsi_preflight_forced(pf));
	assert_status(pf, "already_provisioned", SDSI_CHECK_UNCHANGED);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_AKC, len, SDSI_PREFLIGHT_FORCE,
				   pf, err), 0);
	assert_true(sdsi_preflight_unchanged(pf) && sdsi_preflight_forced(pf));

	/* Same revision, another licensor key: it replaces the key. */
	len = maker_akc(1, 5, blob, sizeof(blob), other);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_AKC, len, 0, pf, err), 0);
	assert_false(sdsi_preflight_unchanged(pf));
	assert_status(pf, "already_provisioned", SDSI_CHECK_PASS);

	len = maker_akc(0, 6, blob, sizeof(blob), image);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_AKC, len, 0, pf, err), 0);
	assert_false(sdsi_preflight_unchanged(pf));

	len = maker_akc(0, 4, blob, sizeof(blob), image);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_AKC, len, SDSI_PREFLIGHT_FORCE,
				   pf, err), -ESTALE);
	assert_non_null(strstr(sdsi_error_message(err), "key revision 4 is lower than the provisioned 5"));

	/* No AKC yet: nothing to compare, nothing unchanged. */
	r.akc_provisioned = false;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_AKC, len, 0, pf, err), 0);
	assert_string_equal(sdsi_preflight_check_detail(pf, find_check(pf, "already_provisioned")),
			    "no AKC provisioned yet");
}

static void test_cap_against_the_state_certificate(void **state)
{
	static uint8_t stored_cap[SDSI_BLOB_MAX], cert[SDSI_READ_BUF_SIZE];
	struct sdsi_registers r = socket_regs();
	uint8_t image[48];
	struct stored lic = { stored_cap, 0, true };
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	size_t len, cert_len;

	maker_akc(0, 1, blob, sizeof(blob), image);
	lic.len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, 2, 2, stored_cap,
			    sizeof(stored_cap));
	cert_len = state_bytes(cert, 1, image, &lic, 1);

	/* The same licence, then an older revision of it: unchanged. */
	for (uint32_t rev = 2; rev >= 1; rev--) {
		len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, rev, 2, blob, sizeof(blob));
		assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err),
				 0);
		assert_true(sdsi_preflight_unchanged(pf));
		assert_status(pf, "already_provisioned", SDSI_CHECK_UNCHANGED);
	}
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, SDSI_PREFLIGHT_FORCE,
				   pf, err), 0);
	assert_true(sdsi_preflight_forced(pf));

	/* A newer revision, or another licence ID, is new. */
	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, 3, 2, blob, sizeof(blob));
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err), 0);
	assert_false(sdsi_preflight_unchanged(pf));
	len = maker_cap(SDSI_BLOB_TYPE_METERED, 0x78, PPIN, 1, 1, blob, sizeof(blob));
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err), 0);
	assert_false(sdsi_preflight_unchanged(pf));

	/* Stored but no longer valid: the silicon would take it as a replay. */
	lic.valid = false;
	cert_len = state_bytes(cert, 1, image, &lic, 1);
	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, 2, 2, blob, sizeof(blob));
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err),
			 -ESTALE);
	assert_non_null(strstr(sdsi_error_message(err), "no longer valid"));

	/* Without a certificate nothing is guessed: the state is unknown, not written. */
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, STRICT, pf, err),
			 -ENODATA);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_STATE_UNKNOWN);
	assert_false(sdsi_preflight_unchanged(pf));
	assert_status(pf, "already_provisioned", SDSI_CHECK_FAIL);
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, STRICT | SDSI_PREFLIGHT_FORCE,
				   pf, err), 0);
	assert_status(pf, "already_provisioned", SDSI_CHECK_SKIP);
	/* Callers of libsdsi 0.1, without STRICT, keep its promise: a skip. */
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, 0, pf, err), 0);
	assert_status(pf, "already_provisioned", SDSI_CHECK_SKIP);
}

/*
 * Unchanged needs no write, so no update and no attempt: it wins over the
 * refusals that concern only writing, not over --force, which writes.
 */
static void test_unchanged_wins_over_write_refusals(void **state)
{
	static uint8_t stored_cap[SDSI_BLOB_MAX], cert[SDSI_READ_BUF_SIZE];
	struct sdsi_registers r = socket_regs();
	struct stored lic = { stored_cap, 0, true };
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	uint8_t image[48];
	size_t len, cert_len;

	maker_akc(0, 1, blob, sizeof(blob), image);
	lic.len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, 2, 1, stored_cap,
			    sizeof(stored_cap));
	cert_len = state_bytes(cert, 1, image, &lic, 1);
	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x77, PPIN, 2, 1, blob, sizeof(blob));
	r.updates_available = 0;
	r.cap_fail_count = r.cap_fail_threshold;
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err), 0);
	assert_true(sdsi_preflight_unchanged(pf));
	assert_false(sdsi_preflight_last_attempt(pf));
	assert_status(pf, "updates", SDSI_CHECK_SKIP);
	assert_status(pf, "failures", SDSI_CHECK_SKIP);
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, SDSI_PREFLIGHT_FORCE,
				   pf, err), -EDQUOT);
	/* One failure short of the threshold: no attempt, so no warning either. */
	r.updates_available = 1;
	r.cap_fail_count = r.cap_fail_threshold - 1;
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err), 0);
	assert_false(sdsi_preflight_last_attempt(pf));
	assert_string_equal(sdsi_preflight_warning(pf), "");
	/* A new licence needs the update it does not have. */
	r.updates_available = 0;
	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 0x78, PPIN, 1, 1, blob, sizeof(blob));
	assert_int_equal(preflight(&r, cert, cert_len, SDSI_BLOB_CAP, len, 0, pf, err),
			 -EDQUOT);
	assert_status(pf, "updates", SDSI_CHECK_FAIL);
}

/*
 * A state that cannot be read wins over the refusals that concern only
 * writing (whether a write is needed is what is unknown), not over one that
 * refuses the blob itself.
 */
static void test_unknown_state_writes_nothing(void **state)
{
	struct sdsi_registers r = socket_regs();
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);
	uint8_t image[48];
	size_t len;

	len = maker_cap(SDSI_BLOB_TYPE_ONE_TIME, 5, PPIN, 1, 1, blob, sizeof(blob));
	r.updates_available = 0;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, STRICT, pf, err), -ENODATA);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_STATE_UNKNOWN);
	assert_non_null(strstr(sdsi_error_message(err), "nothing is written"));
	assert_status(pf, "updates", SDSI_CHECK_FAIL);
	/* Forced, the write is wanted: then the update it lacks refuses it. */
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, STRICT | SDSI_PREFLIGHT_FORCE, pf,
				   err), -EDQUOT);
	r = socket_regs();
	r.ppin = PPIN + 1;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, STRICT, pf, err), -EXDEV);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_REFUSED);
	/* Without an AKC there is nothing to read: not unknown. */
	r = socket_regs();
	r.akc_provisioned = false;
	len = maker_akc(0, 1, blob, sizeof(blob), image);
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_AKC, len, STRICT, pf, err), 0);
}

static void test_foreign_gets_the_generic_checks(void **state)
{
	struct sdsi_registers r = socket_regs();
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);

	for (unsigned int i = 0; i < 300; i++)
		blob[i] = (uint8_t)(i * 37 + 11);
	r.ppin = 0x42;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, 300, 0, pf, err), 0);
	assert_int_equal(sdsi_preflight_blob_info(pf)->format, SDSI_BLOB_FORMAT_FOREIGN);
	assert_status(pf, "format", SDSI_CHECK_SKIP);
	assert_int_equal(sdsi_preflight_num_checks(pf), 7);	/* layout .. akc_present, no ppin */
	r.akc_provisioned = false;
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, 300, 0, pf, err), -ENOKEY);
}

/* A foreign blob of n bytes that passes: binary, not one byte repeated. */
static void binary(size_t n)
{
	for (size_t i = 0; i < n; i++)
		blob[i] = (uint8_t)(0x80 + i * 13);
}

static int foreign(size_t len, unsigned int flags, struct sdsi_preflight *pf,
		   struct sdsi_error *err)
{
	struct sdsi_registers r = socket_regs();

	return preflight(&r, NULL, 0, SDSI_BLOB_CAP, len, flags | STRICT, pf, err);
}

static void assert_implausible(size_t len, const char *reason)
{
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);

	assert_int_equal(foreign(len, 0, pf, err), -EBADMSG);
	assert_status(pf, "format", SDSI_CHECK_FAIL);
	if (!strstr(sdsi_error_message(err), reason))
		fail_msg("'%s' does not say '%s'", sdsi_error_message(err), reason);
	/* Forced, it goes, and the warning says what that risks. */
	assert_int_equal(foreign(len, SDSI_PREFLIGHT_FORCE, pf, err), 0);
	assert_status(pf, "format", SDSI_CHECK_WARN);
	assert_non_null(strstr(sdsi_preflight_warning(pf), "--force"));
	assert_non_null(strstr(sdsi_preflight_warning(pf), reason));
}

static void test_foreign_must_be_plausible(void **state)
{
	static const char pem[] = "-----BEGIN EC PRIVATE KEY-----\nMIGkAgEBBDBn\n";
	struct sdsi_registers r = socket_regs();
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);

	/* Sizes: a signature's 96 bytes to the mailbox's 1016, both ends. */
	binary(SDSI_FOREIGN_MIN);
	assert_int_equal(foreign(SDSI_FOREIGN_MIN, 0, pf, err), 0);
	assert_status(pf, "format", SDSI_CHECK_SKIP);
	assert_implausible(SDSI_FOREIGN_MIN - 1, "95 bytes, fewer than the 96");
	binary(SDSI_BLOB_MAX);
	assert_int_equal(foreign(SDSI_BLOB_MAX, 0, pf, err), 0);
	assert_int_equal(foreign(SDSI_BLOB_MAX + 1, 0, pf, err), -EOVERFLOW);

	/* Text, ASCII or UTF-8; PEM wherever it starts; one byte repeated. */
	memset(blob, 'x', 200);
	memcpy(blob + 10, "\n\t\r caf\xc3\xa9 \xe2\x82\xac", 13);
	assert_implausible(200, "text, not a signed blob");
	binary(200);
	memcpy(blob + 50, pem, sizeof(pem) - 1);
	assert_implausible(200, "a PEM file (\"-----BEGIN EC PRIVATE KEY\")");
	memset(blob, 0, 200);
	assert_implausible(200, "200 bytes that are all 0x00");
	{	/* The refusal reads as one sentence. */
		SCOPED_PREFLIGHT(pf2);
		SCOPED_ERROR(err2);

		assert_int_equal(foreign(200, 0, pf2, err2), -EBADMSG);
		assert_non_null(strstr(sdsi_error_message(err2),
				       "and this is 200 bytes that are all 0x00 ("));
	}
	memset(blob, 0xff, 200);
	assert_implausible(200, "200 bytes that are all 0xff");
	/* One byte that differs, or one that is not UTF-8, makes it binary. */
	blob[199] = 0xfe;
	assert_int_equal(foreign(200, 0, pf, err), 0);
	memset(blob, 'x', 200);
	blob[100] = 0xc3;		/* a lead byte with no continuation */
	assert_int_equal(foreign(200, 0, pf, err), 0);
	memset(blob, 'x', 200);
	blob[100] = 0x01;		/* a control character */
	assert_int_equal(foreign(200, 0, pf, err), 0);

	/* Callers of libsdsi 0.1, without STRICT, keep its promise: it passes. */
	memset(blob, 'x', 6);
	assert_int_equal(preflight(&r, NULL, 0, SDSI_BLOB_CAP, 6, 0, pf, err), 0);
	assert_status(pf, "format", SDSI_CHECK_SKIP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_akc_and_cap),
		cmocka_unit_test(test_every_truncation_is_malformed_or_foreign),
		cmocka_unit_test(test_foreign_blobs),
		cmocka_unit_test(test_read_license_blob),
		cmocka_unit_test(test_fd_holds_key),
		cmocka_unit_test(test_wrong_kind_ppin_and_missing_akc),
		cmocka_unit_test(test_every_check_runs_after_a_refusal),
		cmocka_unit_test(test_akc_against_the_state_certificate),
		cmocka_unit_test(test_cap_against_the_state_certificate),
		cmocka_unit_test(test_foreign_gets_the_generic_checks),
		cmocka_unit_test(test_foreign_must_be_plausible),
		cmocka_unit_test(test_unchanged_wins_over_write_refusals),
		cmocka_unit_test(test_unknown_state_writes_nothing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
