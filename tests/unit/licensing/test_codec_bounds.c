// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bounds of the AKC/CAP codec not covered by test_codec.c, each on both
 * sides: kind detection at 8 bytes, the 1016-byte mailbox limit, the bare
 * licence blob's 27 bundles and exact length, and every encoder's output
 * buffer.  Inputs sit at the end of an exact-size heap buffer, so that under
 * AddressSanitizer (build-san) a read past them is caught too.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "licensing/sdsi_lic.h"

static void fill_license(struct sdsi_lic_blob *lic, uint32_t bundles)
{
	memset(lic, 0, sizeof(*lic));
	lic->type = SDSI_BLOB_TYPE_ONE_TIME;
	lic->id = 42;
	lic->ppin = 0x1234;
	lic->revision = 1;
	lic->bundle_count = bundles;
	for (uint32_t i = 0; i < bundles; i++)
		lic->bundles[i].code = SDSI_FOURCC('B', 'N', '0' + i / 10, '0' + i % 10);
}

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, src, len);
	return p;
}

static void test_kind_needs_eight_bytes(void **unused)
{
	static const uint8_t akc_head[8] = { 'C', 'K', 'A', 'S', 1, 0, 0, 0 };
	uint8_t *p = exact(akc_head, 8);

	assert_int_equal(sdsi_lic_blob_kind(p, 8), SDSI_PAYLOAD_AKC);
	assert_int_equal(sdsi_lic_blob_kind(p, 7), SDSI_PAYLOAD_FOREIGN);
	free(p);
}

static void test_mailbox_limit(void **unused)
{
	struct sdsi_lic_error err = { 0 };
	uint8_t big[1017] = { 0 };
	struct sdsi_lic_akc akc = { .key_revision = 1 };
	size_t len;
	uint8_t *p;

	assert_int_equal(sdsi_lic_akc_encode(&akc, big, sizeof(big), &len), 0);
	/* 1016 bytes: not oversized, only 808 bytes too many. */
	p = exact(big, 1016);
	assert_int_equal(sdsi_lic_akc_decode(p, 1016, &akc, &err), -EINVAL);
	assert_int_equal(err.offset, SDSI_AKC_SIZE);
	free(p);
	p = exact(big, 1017);
	assert_int_equal(sdsi_lic_akc_decode(p, 1017, &akc, &err), -EINVAL);
	assert_int_equal(err.offset, 1016);
	assert_non_null(strstr(err.reason, "oversized"));
	free(p);
}

static void test_blob_bundles_and_length(void **unused)
{
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_blob lic;
	uint8_t out[1100];
	size_t len, need = SDSI_LICENSE_BLOB_SIZE(SDSI_CAP_MAX_BUNDLES);
	uint8_t *p;

	fill_license(&lic, SDSI_CAP_MAX_BUNDLES);
	assert_int_equal(sdsi_lic_blob_encode(&lic, out, sizeof(out), &len, NULL), 0);
	assert_int_equal(len, need);
	p = exact(out, need);
	assert_int_equal(sdsi_lic_blob_decode(p, need, &lic, &err), 0);
	assert_int_equal(lic.bundle_count, SDSI_CAP_MAX_BUNDLES);
	assert_int_equal(sdsi_lic_blob_decode(p, need - 1, &lic, &err), -EINVAL);
	assert_int_equal(err.offset, need - 1);
	free(p);
	p = exact(out, need + 1);
	assert_int_equal(sdsi_lic_blob_decode(p, need + 1, &lic, &err), -EINVAL);
	assert_int_equal(err.offset, need);
	free(p);
	/* 28 bundles: refused at the count, whatever follows. */
	out[0x20] = SDSI_CAP_MAX_BUNDLES + 1;
	memset(out + need, 0, sizeof(out) - need);
	p = exact(out, SDSI_LICENSE_BLOB_SIZE(SDSI_CAP_MAX_BUNDLES + 1));
	assert_int_equal(sdsi_lic_blob_decode(p, SDSI_LICENSE_BLOB_SIZE(28), &lic, &err),
			 -EINVAL);
	assert_int_equal(err.offset, 0x20);
	free(p);
	/* One bundle is the least; none is refused. */
	out[0x20] = 1;
	p = exact(out, SDSI_LICENSE_BLOB_SIZE(1));
	assert_int_equal(sdsi_lic_blob_decode(p, SDSI_LICENSE_BLOB_SIZE(1), &lic, &err), 0);
	p[0x20] = 0;
	assert_int_equal(sdsi_lic_blob_decode(p, SDSI_LICENSE_BLOB_SIZE(0), &lic, &err),
			 -EINVAL);
	assert_int_equal(err.offset, 0x20);
	free(p);
}

static void test_encoder_buffers(void **unused)
{
	uint8_t out[1100];
	struct sdsi_lic_akc akc = { .key_revision = 1 };
	struct sdsi_lic_cap cap;
	size_t len, need;

	assert_int_equal(sdsi_lic_akc_encode(&akc, out, SDSI_AKC_SIZE, &len), 0);
	assert_int_equal(sdsi_lic_akc_encode(&akc, out, SDSI_AKC_SIZE - 1, &len), -ENOSPC);

	memset(&cap, 0, sizeof(cap));
	fill_license(&cap.license, 3);
	need = SDSI_CAP_SIZE(3);
	assert_int_equal(sdsi_lic_cap_encode(&cap, out, need, &len, NULL), 0);
	assert_int_equal(len, need);
	assert_int_equal(sdsi_lic_cap_encode(&cap, out, need - 1, &len, NULL), -ENOSPC);

	need = SDSI_LICENSE_BLOB_SIZE(3);
	assert_int_equal(sdsi_lic_blob_encode(&cap.license, out, need, &len, NULL), 0);
	assert_int_equal(sdsi_lic_blob_encode(&cap.license, out, need - 1, &len, NULL),
			 -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_needs_eight_bytes),
		cmocka_unit_test(test_mailbox_limit),
		cmocka_unit_test(test_blob_bundles_and_length),
		cmocka_unit_test(test_encoder_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
