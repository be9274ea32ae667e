// SPDX-License-Identifier: GPL-2.0-only
/* Register file decoder (V1 and V2) and provisioning pre-flight checks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "assert_malformed.h"
#include "cert_bytes.h"
#include "sdsi/hw.h"
#include "sdsi/libsdsi.h"
#include "scoped_handle.h"

/* Registers as a V1 or V2 socket shows them, every field non-trivial. */
static void build_regs(uint8_t *buf, size_t size)
{
	memset(buf, 0, size);
	put64(buf, 0x00, 0x1122334455667788ull);		/* PPIN */
	put64(buf, 0x08, 1ull << 5);				/* metering auth error */
	put64(buf, 0x10, (1ull << 3) | (1ull << 26));		/* On Demand, metering */
	put64(buf, 0x18, 1ull << 1);				/* AKC provisioned */
	/* AKC 2 of 3, CAP 1 of 5 */
	put64(buf, 0x20, 2ull | 3ull << 3 | 1ull << 6 | 5ull << 9);
	put64(buf, 0x28, 4ull << 48 | 6ull << 51);		/* 4 of 6 updates */
	put64(buf, 0x30, 1ull << 13);				/* 75 % */
	put64(buf, 0x38, 0xdeadbeefcafef00dull);		/* CAPID1 */
	put32(buf, 0x40, 0xfffffff5u);				/* socket 5 */
	if (size > 0x48)
		put64(buf, 0x48, 0x9);	/* where the upstream tool reads V2 */
}

/* The register file build_regs() lays out in size bytes, decoded with guid. */
static void decode_built(uint8_t *buf, size_t size, uint32_t guid, struct sdsi_registers *r)
{
	build_regs(buf, size);
	assert_int_equal(sdsi_decode_registers(buf, size, guid, r, NULL), 0);
}

static void test_v1(void **state)
{
	uint8_t buf[72];
	struct sdsi_registers r;

	decode_built(buf, sizeof(buf), SDSI_GUID_V1, &r);
	assert_int_equal(r.layout, 1);
	assert_true(r.guid_known);
	assert_int_equal(r.ppin, 0x1122334455667788ull);
	assert_false(r.content_auth_error);
	assert_true(r.metering_auth_error);
	assert_true(r.on_demand);
	assert_false(r.attestation);
	assert_true(r.metering);
	assert_true(r.akc_provisioned);
	assert_int_equal(r.akc_fail_count, 2);
	assert_int_equal(r.akc_fail_threshold, 3);
	assert_int_equal(r.cap_fail_count, 1);
	assert_int_equal(r.cap_fail_threshold, 5);
	assert_int_equal(r.updates_available, 4);
	assert_int_equal(r.updates_threshold, 6);
	assert_false(r.nvram_50);
	assert_true(r.nvram_75);
	assert_false(r.nvram_90);
	assert_int_equal(r.capid1, 0xdeadbeefcafef00dull);
	assert_int_equal(r.socket_id, 5);
}

static void test_v2_socket_id_corrected_layout(void **state)
{
	uint8_t buf[80];
	struct sdsi_registers r;

	decode_built(buf, sizeof(buf), SDSI_GUID_V2, &r);
	assert_int_equal(r.layout, 2);
	assert_int_equal(r.socket_id, 5);		/* 0x40, not 0x48 */
	assert_int_equal(r.capid1, 0xcafef00du);	/* 4-byte register on V2 */

	/* Offline: no GUID, the size decides. */
	assert_int_equal(sdsi_decode_registers(buf, 80, 0, &r, NULL), 0);
	assert_int_equal(r.guid, SDSI_GUID_V2);
	assert_int_equal(sdsi_decode_registers(buf, 72, 0, &r, NULL), 0);
	assert_int_equal(r.guid, SDSI_GUID_V1);

	assert_int_equal(sdsi_decode_registers(buf, 80, 0x1234, &r, NULL), 0);
	assert_false(r.guid_known);
	assert_int_equal(r.layout, 1);
}

/* Without a GUID a registers file is 72 or 80 bytes, not one byte more or less. */
static void test_offline_size_exact(void **state)
{
	uint8_t buf[96];
	struct sdsi_registers r;
	SCOPED_ERROR(err);

	build_regs(buf, sizeof(buf));
	for (size_t len = 0; len <= sizeof(buf); len++) {
		int ret = sdsi_decode_registers(buf, len, 0, &r, err);

		if (len == 72 || len == 80) {
			assert_int_equal(ret, 0);
			assert_int_equal(r.layout, len == 80 ? 2 : 1);
			continue;
		}
		assert_malformed(ret, err, (long)len,
				 len >= 0x44 ? "is 72 bytes (V1) or 80 bytes (V2)" : "");
	}
}

static void test_truncated(void **state)
{
	uint8_t buf[80];
	struct sdsi_registers r;
	SCOPED_ERROR(err);

	build_regs(buf, sizeof(buf));
	for (size_t len = 0; len < 0x44; len++) {
		assert_malformed(sdsi_decode_registers(buf, len, SDSI_GUID_V1, &r, err), err,
				 (long)len, "");
	}
}

static void refused(const struct sdsi_registers *r, enum sdsi_blob_kind kind, size_t len,
		    int errnum, const char *needle)
{
	SCOPED_PREFLIGHT(pf);
	SCOPED_ERROR(err);

	assert_int_equal(sdsi_preflight(r, kind, len, pf, err), -errnum);
	assert_int_equal(sdsi_error_class(err), SDSI_ERR_REFUSED);
	assert_non_null(strstr(sdsi_error_message(err), needle));
}

/* The base registers with one field changed: a 10-byte blob of kind is refused. */
#define REFUSED_WITH(field, value, kind, errnum, needle)	do {		\
		r = base;						\
		r.field = value;					\
		refused(&r, kind, 10, errnum, needle);			\
	} while (0)

static void test_preflight(void **state)
{
	uint8_t buf[80];
	struct sdsi_registers r, base;
	SCOPED_PREFLIGHT(pf);

	decode_built(buf, sizeof(buf), SDSI_GUID_V2, &base);

	/* AKC at 2 of 3 failures: allowed, with the last-attempt warning. */
	assert_int_equal(sdsi_preflight(&base, SDSI_BLOB_AKC, 1016, pf, NULL), 0);
	assert_true(sdsi_preflight_last_attempt(pf));
	assert_non_null(strstr(sdsi_preflight_warning(pf), "2 of 3 AKC failures"));
	assert_int_equal(sdsi_preflight(&base, SDSI_BLOB_CAP, 1, pf, NULL), 0);
	assert_false(sdsi_preflight_last_attempt(pf));

	refused(&base, SDSI_BLOB_AKC, 0, ENODATA, "empty");
	refused(&base, SDSI_BLOB_CAP, 1017, EOVERFLOW, "1017 bytes");

	REFUSED_WITH(size, 72, SDSI_BLOB_AKC, EBADMSG, "registers: 72 bytes");
	REFUSED_WITH(guid_known, false, SDSI_BLOB_AKC, ENOTSUP, "unrecognized GUID");
	REFUSED_WITH(on_demand, false, SDSI_BLOB_AKC, EPERM, "not enabled");
	REFUSED_WITH(updates_available, 0, SDSI_BLOB_CAP, EDQUOT, "Maximum number of updates (6)");
	REFUSED_WITH(akc_fail_count, 3, SDSI_BLOB_AKC, EDQUOT, "AKC provision failures (3)");
	REFUSED_WITH(cap_fail_count, 5, SDSI_BLOB_CAP, EDQUOT, "CAP provision failures (5)");
	REFUSED_WITH(akc_provisioned, false, SDSI_BLOB_CAP, ENOKEY, "no AKC");
	assert_int_equal(sdsi_preflight(&r, SDSI_BLOB_AKC, 10, pf, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2_socket_id_corrected_layout),
		cmocka_unit_test(test_offline_size_exact),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_preflight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
