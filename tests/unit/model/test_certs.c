// SPDX-License-Identifier: GPL-2.0-only
/*
 * State and meter certificates as read through the mailbox: layout, key and
 * licences installed through the NVRAM interface, multi-packet reads, and the
 * live versus 8-hour-latched meter.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "model/model_priv.h"
#include "licensing/sdsi_lic.h"

#define PPIN		0x0123456789abcdefull
#define BUNDLE_MAX	32u

/* A licence blob in the documented layout; returns its length. */
static size_t make_blob(uint8_t *blob, uint32_t type, uint64_t id,
			const char (*codes)[5], uint32_t ncodes)
{
	size_t len = SDSI_BLOB_HEADER_SIZE + SDSI_BUNDLE_SIZE * ncodes;
	uint32_t k;

	memset(blob, 0, len);
	sdsi_put_le32(blob + SDSI_BLOB_OFF_TYPE, type);
	sdsi_put_le64(blob + SDSI_BLOB_OFF_ID, id);
	sdsi_put_le64(blob + SDSI_BLOB_OFF_PPIN, PPIN);
	sdsi_put_le32(blob + SDSI_BLOB_OFF_REVISION, 1);
	sdsi_put_le32(blob + SDSI_BLOB_OFF_NUM_BUNDLES, ncodes);
	for (k = 0; k < ncodes; k++)
		sdsi_put_le32(blob + SDSI_BLOB_HEADER_SIZE + SDSI_BUNDLE_SIZE * k,
			      SDSI_FOURCC(codes[k][0], codes[k][1], codes[k][2],
					  codes[k][3]));
	return len;
}

static size_t read_cert(struct tsock *ts, uint64_t command, bool current,
			uint8_t *buf)
{
	size_t len;

	assert_int_equal(lx_read(ts, command, current, buf, &len), 0);
	return len;
}

static void test_empty_state_certificate(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], zero[64] = { 0 };
	size_t len = read_cert(ts, SDSI_CMD_READ_STATE, false, buf);

	assert_int_equal(len, 80);
	assert_int_equal(sdsi_le32(buf + 0x00), SDSI_STATE_CONTENT_EMPTY);
	assert_int_equal(sdsi_le32(buf + 0x04), 0);
	assert_int_equal(sdsi_le32(buf + 0x08), 6);
	assert_int_equal(sdsi_le32(buf + 0x0c), 80);
	assert_int_equal(sdsi_le32(buf + 0x10), SDSI_STATE_KEY_SIZE_DWORDS);
	assert_int_equal(sdsi_le32(buf + 0x14), 0);
	/* Key revision, key image and padding are all zero. */
	assert_memory_equal(buf + 0x18, zero, 80 - 0x18);
}

static void test_key_only_state_certificate(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], key[MODEL_PUBKEY_SIZE];
	uint8_t image[SDSI_STATE_KEY_IMAGE_SIZE];
	unsigned int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xa0 + i);
	assert_int_equal(sdsi_lic_key_image(key, image), 0);
	assert_int_equal(nvram_install_key(ts->m, 0x42, key), 0);
	assert_int_equal(read_cert(ts, SDSI_CMD_READ_STATE, false, buf), 80);
	assert_int_equal(sdsi_le32(buf + 0x00), SDSI_STATE_CONTENT_KEY);
	assert_int_equal(sdsi_le32(buf + 0x04), 1);
	assert_int_equal(sdsi_le32(buf + 0x18), 0x42);
	assert_memory_equal(buf + 0x1c, image, sizeof(image));
	assert_int_equal(reg_read(ts, SDSI_REG_KEY_PROV), SDSI_KEY_PROVISIONED);
}

static void test_licenses_in_state_certificate(void **state)
{
	static const char codes[][5] = { "CC02", "DSA1", "QAT4" };
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], blob[512], key[MODEL_PUBKEY_SIZE] = { 7 };
	size_t a = make_blob(blob, SDSI_BLOB_TYPE_ONE_TIME, 0x1111, codes, 3);
	size_t b;
	uint32_t body;

	assert_int_equal(nvram_install_key(ts->m, 1, key), 0);
	assert_int_equal(nvram_add_license(ts->m, blob, a, false), 0);
	b = make_blob(blob + a, SDSI_BLOB_TYPE_METERED, 0x2222, codes, 1);
	/* An odd length is padded to whole dwords. */
	assert_int_equal(nvram_add_license(ts->m, blob + a, b + 2, false), 0);
	b += 4;

	read_cert(ts, SDSI_CMD_READ_STATE, false, buf);
	assert_int_equal(sdsi_le32(buf + 0x00), SDSI_STATE_CONTENT_KEY_BLOBS);
	assert_int_equal(sdsi_le32(buf + 0x08), 6 + 2);
	assert_int_equal(sdsi_le32(buf + 0x0c),
			 (24 + 8 + 52 + a + b + 15) / 16 * 16);
	assert_int_equal(sdsi_le32(buf + 0x14), 2);
	assert_int_equal(sdsi_le32(buf + 0x18), (uint32_t)(a / 4) | SDSI_BLOB_VALID);
	assert_int_equal(sdsi_le32(buf + 0x1c), (uint32_t)(b / 4) | SDSI_BLOB_VALID);
	body = 24 + 8;
	assert_int_equal(sdsi_le32(buf + body), 1);
	/* The blobs follow the 52-byte key information back to back. */
	assert_memory_equal(buf + body + 52, blob, a);
	assert_int_equal(sdsi_le32(buf + body + 52 + a), SDSI_BLOB_TYPE_METERED);
	assert_int_equal(sdsi_le64(buf + body + 52 + a + 4), 0x2222);
}

static void test_multi_packet_state_certificate(void **state)
{
	static const char codes[BUNDLE_MAX][5] = { "CC02" };
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], blob[1024];
	size_t len = make_blob(blob, SDSI_BLOB_TYPE_ONE_TIME, 9, codes, 16);
	size_t got;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		sdsi_put_le64(blob + 4, i);
		assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	}
	/* 24 + 24 + 52 + 6 * 548 = 3388, padded to 3392: four packets. */
	got = read_cert(ts, SDSI_CMD_READ_STATE, false, buf);
	assert_int_equal(got, 3392);
	assert_int_equal(ts->packets, 4);
	assert_int_equal(ts->msg_size, 3392);
	assert_int_equal(sdsi_le32(buf + 0x0c), 3392);
	for (i = 0; i < 6; i++)
		assert_int_equal(sdsi_le64(buf + 100 + 548 * i + 4), i);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_packets_one_by_one(void **state)
{
	static const char codes[BUNDLE_MAX][5] = { "CC02" };
	struct tsock *ts = *state;
	uint8_t blob[1024];
	size_t len = make_blob(blob, SDSI_BLOB_TYPE_ONE_TIME, 9, codes, 30);
	uint64_t ctrl;

	assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	/* 24 + 4 + 52 + 996 = 1076, padded to 1088: two packets. */
	ctrl = lx_request_state(ts);
	assert_true(ctrl & SDSI_CTRL_SOM);
	assert_false(ctrl & SDSI_CTRL_EOM);
	assert_int_equal(ctrl_packet_size(ctrl), 1024);
	assert_int_equal(ctrl_msg_size(ctrl), 1088);
	ctrl_write(ts, SDSI_CTRL_CPL);
	ctrl = ctrl_read(ts);
	assert_true(ctrl & SDSI_CTRL_RDY);
	assert_false(ctrl & SDSI_CTRL_SOM);
	assert_true(ctrl & SDSI_CTRL_EOM);
	assert_int_equal(ctrl_packet_size(ctrl), 64);
	assert_int_equal(ctrl_msg_size(ctrl), 1088);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_certificate_limited_to_4k(void **state)
{
	static const char codes[BUNDLE_MAX][5] = { "CC02" };
	struct tsock *ts = *state;
	uint8_t blob[1024], buf[SDSI_READ_MSG_MAX];
	size_t len = make_blob(blob, SDSI_BLOB_TYPE_ONE_TIME, 9, codes, 30);
	unsigned int i;

	for (i = 0; i < 3; i++)
		assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	/* 24 + 16 + 52 + 4 * 996 = 4076; a 5th licence may add 20 bytes. */
	assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	assert_int_equal(nvram_add_license(ts->m, blob, 17, false), -ENOSPC);
	assert_int_equal(nvram_add_license(ts->m, blob, 0, false), -EINVAL);
	assert_int_equal(ts->m->nv.num_licenses, 4);
	assert_int_equal(nvram_add_license(ts->m, blob, 16, false), 0);
	assert_int_equal(ts->m->nv.wear, 5);
	/* Exactly 4 KiB: four full packets, EOM on the last. */
	assert_int_equal(read_cert(ts, SDSI_CMD_READ_STATE, false, buf),
			 SDSI_READ_MSG_MAX);
	assert_int_equal(ts->packets, 4);
	assert_int_equal(sdsi_le32(buf + 0x0c), SDSI_READ_MSG_MAX);
	assert_int_equal(ctrl_read(ts), 0);
}

static void check_meter_header(const uint8_t *buf, uint32_t pairs,
			       uint32_t mmrc)
{
	assert_memory_equal(buf, "BDTM", 4);
	assert_int_equal(sdsi_le32(buf + 0x00), SDSI_METER_SIGNATURE);
	assert_int_equal(sdsi_le32(buf + 0x04), 1);
	assert_int_equal(sdsi_le64(buf + 0x08), PPIN);
	assert_int_equal(sdsi_le32(buf + 0x10), 1000);
	assert_int_equal(sdsi_le32(buf + 0x14), 8 * pairs);
	assert_int_equal(sdsi_le64(buf + 0x18), 0);
	assert_int_equal(sdsi_le32(buf + 0x20), SDSI_METER_MMRC);
	assert_int_equal(sdsi_le32(buf + 0x24), mmrc);
}

static void test_meter_current_and_latched(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];

	assert_int_equal(read_cert(ts, SDSI_CMD_READ_METER, false, buf), 40);
	check_meter_header(buf, 0, 0);
	tsock_advance(ts, MS(2500));
	read_cert(ts, SDSI_CMD_READ_METER, true, buf);
	check_meter_header(buf, 0, 2);
	/* The attested copy moves only at 8-hour boundaries. */
	read_cert(ts, SDSI_CMD_READ_METER, false, buf);
	check_meter_header(buf, 0, 0);
	tsock_advance(ts, HOURS(8));
	read_cert(ts, SDSI_CMD_READ_METER, false, buf);
	check_meter_header(buf, 0, 8 * 3600);
	read_cert(ts, SDSI_CMD_READ_METER, true, buf);
	check_meter_header(buf, 0, 8 * 3600 + 2);
	/* A power cycle does not restart the count: MMRC only grows. */
	assert_int_equal(sdsi_model_power_cycle(ts->m), 0);
	tsock_advance(ts, MS(1000));
	read_cert(ts, SDSI_CMD_READ_METER, true, buf);
	check_meter_header(buf, 0, 8 * 3600 + 3);
	read_cert(ts, SDSI_CMD_READ_METER, false, buf);
	check_meter_header(buf, 0, 8 * 3600);
}

static void test_metered_licenses_counted_after_power_cycle(void **state)
{
	static const char codes[][5] = { "CC02", "DSA1" };
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], blob[256];
	size_t len;

	len = make_blob(blob, SDSI_BLOB_TYPE_ONE_TIME, 1, codes, 2);
	assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	len = make_blob(blob, SDSI_BLOB_TYPE_METERED, 2, codes, 2);
	assert_int_equal(nvram_add_license(ts->m, blob, len, false), 0);
	/* Provisioned licences take effect at the next power cycle. */
	tsock_advance(ts, MS(3000));
	assert_int_equal(read_cert(ts, SDSI_CMD_READ_METER, true, buf), 40);

	assert_int_equal(sdsi_model_power_cycle(ts->m), 0);
	tsock_advance(ts, MS(5000));
	assert_int_equal(read_cert(ts, SDSI_CMD_READ_METER, true, buf), 56);
	/* MMRC counts the 3 s before the power cycle; the licence does not. */
	check_meter_header(buf, 2, 8);
	assert_int_equal(sdsi_le32(buf + 0x28), SDSI_FOURCC('C', 'C', '0', '2'));
	assert_int_equal(sdsi_le32(buf + 0x2c), 5);
	assert_int_equal(sdsi_le32(buf + 0x30), SDSI_FOURCC('D', 'S', 'A', '1'));
	assert_int_equal(sdsi_le32(buf + 0x34), 5);
	assert_int_equal(read_cert(ts, SDSI_CMD_READ_METER, false, buf), 56);
	assert_int_equal(sdsi_le32(buf + 0x2c), 0);
}

static void test_meter_needs_metering_enabled(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	sdsi_model_set_features(ts->m, SDSI_FEATURE_ON_DEMAND);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_METER, false, buf, &len),
			 -EIO);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_METER, true, buf, &len),
			 -EIO);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_int_equal(ctrl_read(ts), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, tsock_setup_v2, tsock_teardown)
		T(test_empty_state_certificate),
		T(test_key_only_state_certificate),
		T(test_licenses_in_state_certificate),
		T(test_multi_packet_state_certificate),
		T(test_packets_one_by_one),
		T(test_certificate_limited_to_4k),
		T(test_meter_current_and_latched),
		T(test_metered_licenses_counted_after_power_cycle),
		T(test_meter_needs_metering_enabled),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
