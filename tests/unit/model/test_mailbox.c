// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control register and mailbox protocol: ownership, read-only bits,
 * the write and read flows as Linux performs them, and malformed requests.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "util/util_array.h"

static void test_ownership_request_grant_release(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(ctrl_owner(ctrl_read(ts)), SDSI_OWNER_NONE);
	/* Only a write of qword 0 asks for the mailbox. */
	mbox_write(ts, 5, 0x55);
	assert_int_equal(ctrl_owner(ctrl_read(ts)), SDSI_OWNER_NONE);
	assert_int_equal(mbox_read(ts, 5), 0);
	mbox_write(ts, 0, 0xabcd);
	assert_int_equal(ctrl_owner(ctrl_read(ts)), SDSI_OWNER_INBAND);
	assert_int_equal(mbox_read(ts, 0), 0xabcd);
	/* Owned: the rest of the window takes writes. */
	mbox_write(ts, 5, 0x55);
	assert_int_equal(mbox_read(ts, 5), 0x55);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_driver_cannot_set_firmware_bits(void **state)
{
	struct tsock *ts = *state;
	uint64_t firmware_bits = SDSI_CTRL_OWNER_MASK | SDSI_CTRL_RDY |
				 SDSI_CTRL_STATUS_MASK | SDSI_CTRL_IBLOCK;

	ctrl_write(ts, firmware_bits);
	assert_int_equal(ctrl_read(ts), 0);
	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	ctrl_write(ts, firmware_bits);
	assert_int_equal(ctrl_read(ts),
			 (uint64_t)SDSI_OWNER_INBAND << SDSI_CTRL_OWNER_SHIFT);
	ctrl_write(ts, SDSI_CTRL_CPL);
}

static void test_registers_are_read_only(void **state)
{
	struct tsock *ts = *state;
	uint32_t reg;
	uint64_t before[9];

	for (reg = 0; reg < SDSI_REGS_SIZE_V1; reg += 8)
		before[reg / 8] = reg_read(ts, reg);
	for (reg = 0; reg < SDSI_REGS_SIZE_V1; reg += 8)
		sdsi_model_write64(ts->m, ts->ctrl_size + SDSI_MBOX_SIZE + reg,
				   ~0ull);
	for (reg = 0; reg < SDSI_REGS_SIZE_V1; reg += 8)
		assert_int_equal(reg_read(ts, reg), before[reg / 8]);
}

static void test_read_state_certificate_single_packet(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_int_equal(len, 80);
	assert_int_equal(ts->packets, 1);
	assert_int_equal(ts->msg_size, 80);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_read_packet_fields(void **state)
{
	struct tsock *ts = *state;
	uint64_t ctrl;

	ctrl = lx_request_state(ts);
	assert_true(ctrl & SDSI_CTRL_RDY);
	assert_false(ctrl & SDSI_CTRL_RUN_BUSY);
	assert_false(ctrl & SDSI_CTRL_READ_WRITE);
	assert_true(ctrl & SDSI_CTRL_SOM);
	assert_true(ctrl & SDSI_CTRL_EOM);
	assert_int_equal(ctrl_owner(ctrl), SDSI_OWNER_INBAND);
	assert_int_equal(ctrl_status(ctrl), SDSI_STATUS_SUCCESS);
	assert_int_equal(ctrl_packet_size(ctrl), 80);
	assert_int_equal(ctrl_msg_size(ctrl), 80);
	/* The certificate sits at mailbox offset 0: total size at 0x0c. */
	assert_int_equal(mbox_read(ts, 1) >> 32, 80);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_write_msg_size_zero_or_equal(void **state)
{
	struct tsock *ts = *state;

	/* Both driver generations reach the command (refused: no root). */
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "akc", 3, false),
			 -EIO);
	assert_int_equal(akc_failures(ts), 1);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "akc", 3, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), 2);
	assert_true(ts->cpl_sent);
	assert_int_equal(ctrl_read(ts), 0);
}

static void start_write(struct tsock *ts, uint64_t ctrl)
{
	assert_int_equal(lx_acquire(ts, 0x1111), 0);
	mbox_write(ts, 1, SDSI_CMD_PROVISION_AKC);
	ctrl_write(ts, ctrl);
}

/* The command just started is refused with a failure status; the driver then completes it. */
static void assert_refused_then_cpl(struct tsock *ts)
{
	assert_int_equal(ctrl_status(ctrl_read(ts)), SDSI_STATUS_FAILURE);
	ctrl_write(ts, SDSI_CTRL_CPL);
}

static void test_write_bad_msg_size(void **state)
{
	struct tsock *ts = *state;
	uint64_t ctrl;

	start_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
			SDSI_CTRL_READ_WRITE |
			16ull << SDSI_CTRL_PACKET_SIZE_SHIFT |
			24ull << SDSI_CTRL_MSG_SIZE_SHIFT);
	ctrl = ctrl_read(ts);
	assert_true(ctrl & SDSI_CTRL_RDY);
	assert_false(ctrl & SDSI_CTRL_RUN_BUSY);
	assert_int_equal(ctrl_status(ctrl), SDSI_STATUS_FAILURE);
	assert_int_equal(ctrl_packet_size(ctrl), 0);
	/* Framing errors are not authentication failures. */
	assert_int_equal(akc_failures(ts), 0);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_write_bad_packet_sizes(void **state)
{
	struct tsock *ts = *state;
	static const uint64_t sizes[] = { 0, 12, 1032 };
	unsigned int i;

	for (i = 0; i < UTIL_ARRAY_SIZE(sizes); i++) {
		start_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM |
				SDSI_CTRL_RUN_BUSY | SDSI_CTRL_READ_WRITE |
				sizes[i] << SDSI_CTRL_PACKET_SIZE_SHIFT);
		assert_refused_then_cpl(ts);
	}
	/* A multi-packet write (SOM without EOM) is refused too. */
	start_write(ts, SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
			SDSI_CTRL_READ_WRITE |
			16ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	assert_refused_then_cpl(ts);
	assert_int_equal(akc_failures(ts), 0);
}

static void test_unknown_commands(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	assert_int_equal(lx_read(ts, 0x18, false, buf, &len), -EIO);
	assert_int_equal(lx_read(ts, SDSI_CMD_PROVISION_AKC, false, buf, &len),
			 -EIO);
	assert_int_equal(lx_write(ts, SDSI_CMD_READ_STATE, NULL, 0, true),
			 -EIO);
	assert_int_equal(lx_write(ts, 0x1012, "spdm", 4, true), -EIO);
	assert_int_equal(akc_failures(ts) + cap_failures(ts), 0);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_read_needs_packet_size_8(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	ctrl_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
		       16ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	assert_refused_then_cpl(ts);
	assert_int_equal(ctrl_read(ts), 0);
}

static void test_ignored_without_ownership(void **state)
{
	struct tsock *ts = *state;

	/* A command without ownership does nothing. */
	ctrl_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
		       8ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	assert_int_equal(ctrl_read(ts), 0);
	/* While a command runs, the window belongs to the firmware. */
	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	ctrl_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
		       8ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	mbox_write(ts, 0, 0xdead);
	assert_int_not_equal(mbox_read(ts, 0), 0xdead);
	/* A second RUN_BUSY does not restart the command. */
	ctrl_write(ts, SDSI_CTRL_RUN_BUSY | SDSI_CTRL_READ_WRITE |
		       8ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	assert_int_equal(ctrl_status(ctrl_read(ts)), SDSI_STATUS_SUCCESS);
	ctrl_write(ts, SDSI_CTRL_CPL);
}

static void test_iblock_bit(void **state)
{
	struct tsock *ts = *state;

	assert_false(ctrl_read(ts) & SDSI_CTRL_IBLOCK);
	sdsi_model_set_iblock(ts->m, true);
	assert_true(ctrl_read(ts) & SDSI_CTRL_IBLOCK);
	/* Reads still work in-band; provisioning is refused uncounted. */
	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	assert_true(ctrl_read(ts) & SDSI_CTRL_IBLOCK);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "akc", 3, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), 0);
	sdsi_model_set_iblock(ts->m, false);
	assert_false(ctrl_read(ts) & SDSI_CTRL_IBLOCK);
}

static void test_on_demand_disabled(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	sdsi_model_set_features(ts->m, SDSI_FEATURE_METERING | (1ull << 5));
	assert_int_equal(reg_read(ts, SDSI_REG_FEATURES),
			 SDSI_FEATURE_METERING);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len),
			 -EIO);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, "cap", 3, true),
			 -EIO);
	assert_int_equal(cap_failures(ts), 0);
}

static void test_initial_qword_kept_through_grant(void **state)
{
	struct tsock *ts = *state;
	uint64_t ctrl;

	/* The read command is the qword that asked for ownership. */
	mbox_write(ts, 0, SDSI_CMD_READ_METER);
	ctrl_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
		       8ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	ctrl = ctrl_read(ts);
	assert_int_equal(ctrl_status(ctrl), SDSI_STATUS_SUCCESS);
	assert_int_equal((uint32_t)mbox_read(ts, 0), SDSI_METER_SIGNATURE);
	ctrl_write(ts, SDSI_CTRL_CPL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, tsock_setup_v1, tsock_teardown)
		T(test_ownership_request_grant_release),
		T(test_driver_cannot_set_firmware_bits),
		T(test_registers_are_read_only),
		T(test_read_state_certificate_single_packet),
		T(test_read_packet_fields),
		T(test_write_msg_size_zero_or_equal),
		T(test_write_bad_msg_size),
		T(test_write_bad_packet_sizes),
		T(test_unknown_commands),
		T(test_read_needs_packet_size_8),
		T(test_ignored_without_ownership),
		T(test_iblock_bit),
		T(test_on_demand_disabled),
		T(test_initial_qword_kept_through_grant),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
