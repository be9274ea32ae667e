// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core, the ATTESTATION exchange (sdsi_mbox_exchange): the request
 * framed as attestation.rst frames it, its bounds, the answer read back and
 * unframed, and the answers whose frame Intel's driver refuses.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core_rig.h"
#include "util/util_array.h"

#define ATTEST_REQUEST(n) (SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | \
			   SDSI_CTRL_READ_WRITE | (uint64_t)(n) << SDSI_CTRL_PACKET_SIZE_SHIFT | \
			   (uint64_t)(n) << SDSI_CTRL_MSG_SIZE_SHIFT)

static const uint8_t get_version[] = { 0x10, 0x84, 0, 0 };
static const uint8_t get_caps[] = { 0x10, 0xE1, 0, 0 };

static void assert_released(struct core_rig *rig)
{
	assert_int_equal(rig_last_ctrl_write(rig), SDSI_CTRL_CPL);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

static int exchange(struct core_rig *rig, const void *req, size_t len,
		    size_t *rsp_len)
{
	memset(rig->buf, 0xee, sizeof(rig->buf));
	rig_clear_log(rig);
	return sdsi_mbox_exchange(&rig->mb, req, len, rig->buf, rsp_len);
}

/* attestation.rst's example: 4 bytes, padding, length 4, 0x1012; 24 in all. */
static void test_get_version_framed(void **state)
{
	struct core_rig *rig = *state;
	size_t len = 0;

	assert_int_equal(exchange(rig, get_version, 4, &len), 0);
	assert_int_equal(rig->log.mbox_written[0], 0x8410);
	assert_int_equal(rig->log.mbox_written[1], 4);
	assert_int_equal(rig->log.mbox_written[2], SDSI_CMD_ATTESTATION);
	assert_false(rig->log.mbox_touched[3]);
	assert_int_equal(rig->log.ctrl_log[0], ATTEST_REQUEST(24));
	assert_int_equal(len, 8);
	assert_memory_equal(rig->buf, ((uint8_t[]){ 0x10, 0x04, 0, 0, 0, 1, 0, 0x10 }), 8);
	assert_int_equal(rig_trace_cpls(rig), 1);
	assert_released(rig);
	assert_int_equal(sdsi_model_violation_count(rig->model), 0);
}

/* 1008 bytes fill the packet with the frame; 1009 never reach the device. */
static void test_request_bounds(void **state)
{
	struct core_rig *rig = *state;
	static uint8_t req[SDSI_ATTEST_REQUEST_MAX + 1] = { 0x10, 0x84 };
	size_t len = 99;

	assert_int_equal(exchange(rig, req, SDSI_ATTEST_REQUEST_MAX, &len), 0);
	assert_int_equal(rig->log.ctrl_log[0], ATTEST_REQUEST(SDSI_MBOX_SIZE));
	assert_int_equal(rig->log.mbox_written[SDSI_MBOX_SIZE / 8 - 2], SDSI_ATTEST_REQUEST_MAX);
	assert_int_equal(rig->log.mbox_written[SDSI_MBOX_SIZE / 8 - 1], SDSI_CMD_ATTESTATION);
	assert_int_equal(len, 4);	/* ERROR: a GET_VERSION that long is invalid */
	assert_int_equal(rig->buf[1], 0x7F);
	assert_released(rig);

	assert_int_equal(exchange(rig, req, SDSI_ATTEST_REQUEST_MAX + 1, &len), -EOVERFLOW);
	assert_int_equal(exchange(rig, req, 0, &len), -EINVAL);
	assert_int_equal(exchange(rig, NULL, 4, &len), -EINVAL);
	assert_int_equal(rig->log.trace_len, 0);
	assert_int_equal(sdsi_model_violation_count(rig->model), 0);
}

/* Without bit 12 the firmware refuses 0x1012: EIO, released. */
static void test_refused_without_bit12(void **state)
{
	struct core_rig *rig = *state;
	size_t len;

	sdsi_model_set_features(rig->model, SDSI_FEATURE_ON_DEMAND);
	assert_int_equal(exchange(rig, get_version, 4, &len), -EIO);
	assert_released(rig);
}

/*
 * CAPABILITIES is 12 bytes: 16 padded, its length in qword 2.  A length that
 * leaves 7 bytes of padding is taken; 8 or more, 0, or more than there is
 * is a malformed answer.
 */
static void test_answer_frame(void **state)
{
	struct core_rig *rig = *state;
	static const struct { uint64_t length; int result; } cases[] = {
		{ 12, 0 }, { 9, 0 }, { 16, 0 }, { 8, -EIO }, { 0, -EIO }, { 17, -EIO },
	};
	size_t len;

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(cases); i++) {
		rig->mbox_override = false;
		assert_int_equal(exchange(rig, get_version, 4, &len), 0);
		rig->mbox_override = true;
		rig->mbox_override_index = 2;
		rig->mbox_override_value = cases[i].length;
		len = 99;
		assert_int_equal(exchange(rig, get_caps, 4, &len), cases[i].result);
		assert_int_equal(len, cases[i].result ? 0 : cases[i].length);
		assert_released(rig);
	}
	/* An answer shorter than its length qword: a GET_VERSION of 16 bytes. */
	rig->mbox_override_index = 1;
	rig->mbox_override_value = 8;
	assert_int_equal(exchange(rig, get_version, 4, &len), 0);
	assert_int_equal(len, 8);
}

/*
 * The faults of an answer read back strike an SPDM answer as they strike a
 * certificate, and end with the exchange they were armed for: cleared, the
 * next exchange is whole again.
 */
static void test_answer_faults(void **state)
{
	struct core_rig *rig = *state;
	static const enum sdsi_fault_kind kinds[] = {
		SDSI_FAULT_BAD_PACKET_SIZE, SDSI_FAULT_NO_EOM, SDSI_FAULT_TOO_MANY_PACKETS,
	};
	size_t len;

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(kinds); i++) {
		assert_int_equal(sdsi_model_fault_set(rig->model, kinds[i], 0, 0), 0);
		assert_int_equal(exchange(rig, get_version, 4, &len), -EPROTO);
		assert_released(rig);
		sdsi_model_fault_clear(rig->model, kinds[i]);
		assert_int_equal(exchange(rig, get_version, 4, &len), 0);
		assert_int_equal(len, 8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RIG_TEST(test_get_version_framed, rig_setup_v2),
		RIG_TEST(test_request_bounds, rig_setup_v2),
		RIG_TEST(test_refused_without_bit12, rig_setup_v2),
		RIG_TEST(test_answer_frame, rig_setup_v1),
		RIG_TEST(test_answer_faults, rig_setup_v2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
