// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every injected fault, seen through the Linux register sequence: the errno
 * Linux would return, and a mailbox left free for the next transaction.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "model/model_priv.h"
#include "util/util_array.h"

static int read_state(struct tsock *ts)
{
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;

	return lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len);
}

/* After a fault, the mailbox must be free and work again. */
static void assert_recovers(struct tsock *ts)
{
	assert_int_equal(ctrl_read(ts), 0);
	assert_int_equal(read_state(ts), 0);
}

/* One fault armed (the model must accept it), then a read of the state certificate. */
static int read_with_fault(struct tsock *ts, enum sdsi_fault_kind kind, uint32_t param,
			   unsigned int count)
{
	assert_int_equal(sdsi_model_fault_set(ts->m, kind, param, count), 0);
	return read_state(ts);
}

/* A read of the state certificate that succeeds: how long it took, by the model's clock. */
static uint64_t read_state_ns(struct tsock *ts)
{
	uint64_t start = ts->now_ns;

	assert_int_equal(read_state(ts), 0);
	return ts->now_ns - start;
}

/* One licence of `bytes` bytes, for certificates of a chosen size. */
static void add_license(struct tsock *ts, size_t bytes)
{
	static uint8_t blob[SDSI_READ_MSG_MAX];

	memset(blob, 0x5a, bytes);
	assert_int_equal(nvram_add_license(ts->m, blob, bytes, false), 0);
}

static void test_fault_names(void **state)
{
	static const char *const names[] = {
		"oob-owner", "no-rdy", "status-timeout", "status-failure",
		"bad-packet-size", "no-eom", "too-many-packets", "rdy-latency",
		"owner-delay", "attest-signature", "attest-chain",
		"attest-measurement", "attest-busy", "msg-size",
	};
	enum sdsi_fault_kind kind;
	unsigned int i;

	assert_int_equal(UTIL_ARRAY_SIZE(names),
			 SDSI_FAULT_KIND_COUNT);
	for (i = 0; i < SDSI_FAULT_KIND_COUNT; i++) {
		assert_string_equal(sdsi_fault_name((enum sdsi_fault_kind)i),
				    names[i]);
		assert_int_equal(sdsi_fault_from_name(names[i], &kind), 0);
		assert_int_equal(kind, i);
	}
	assert_int_equal(sdsi_fault_from_name("no-such-fault", &kind), -EINVAL);
	assert_null(sdsi_fault_name(SDSI_FAULT_KIND_COUNT));
	assert_int_equal(sdsi_model_fault_set((*(struct tsock **)state)->m,
					      SDSI_FAULT_KIND_COUNT, 0, 0),
			 -EINVAL);
}

static void test_oob_owner_counted(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(sdsi_model_fault_set(ts->m, SDSI_FAULT_OOB_OWNER, 0, 2),
			 0);
	assert_int_equal(read_state(ts), -EBUSY);
	assert_int_equal(read_state(ts), -EBUSY);
	assert_recovers(ts);
}

static void test_oob_owner_until_cleared(void **state)
{
	struct tsock *ts = *state;
	unsigned int i;

	sdsi_model_fault_set(ts->m, SDSI_FAULT_OOB_OWNER, 0, 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(ctrl_owner(ctrl_read(ts)),
				 SDSI_OWNER_OUT_OF_BAND);
	/* The request write is not honoured while another agent owns it. */
	mbox_write(ts, 0, SDSI_CMD_READ_STATE);
	assert_int_equal(read_state(ts), -EBUSY);
	sdsi_model_fault_clear(ts->m, SDSI_FAULT_OOB_OWNER);
	assert_recovers(ts);
}

static void test_no_rdy(void **state)
{
	struct tsock *ts = *state;
	uint64_t start = ts->now_ns;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_NO_RDY, 0, 1), -ETIMEDOUT);
	assert_true(ts->now_ns - start >= MS(500));
	assert_true(ts->cpl_sent);
	assert_recovers(ts);
	/* A write is a transaction too. */
	sdsi_model_fault_set(ts->m, SDSI_FAULT_NO_RDY, 0, 1);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true),
			 -ETIMEDOUT);
	assert_recovers(ts);
}

static void test_status_faults(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_STATUS_TIMEOUT, 0, 1), -ETIMEDOUT);
	assert_recovers(ts);
	assert_int_equal(read_with_fault(ts, SDSI_FAULT_STATUS_FAILURE, 0, 2), -EIO);
	/* The failed command never ran: no authentication was counted. */
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true),
			 -EIO);
	assert_int_equal(akc_failures(ts), 0);
	assert_recovers(ts);
}

static void test_bad_packet_size(void **state)
{
	struct tsock *ts = *state;
	uint64_t ctrl;

	sdsi_model_fault_set(ts->m, SDSI_FAULT_BAD_PACKET_SIZE, 0, 1);
	ctrl = lx_request_state(ts);
	assert_int_equal(ctrl_packet_size(ctrl), 1032);
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(ctrl_read(ts), 0);

	/* Also on the first packet of a longer message. */
	add_license(ts, 2000);
	assert_int_equal(read_with_fault(ts, SDSI_FAULT_BAD_PACKET_SIZE, 0, 1), -EPROTO);
	assert_recovers(ts);
}

static void test_bad_packet_size_spared_by_writes(void **state)
{
	struct tsock *ts = *state;

	sdsi_model_fault_set(ts->m, SDSI_FAULT_BAD_PACKET_SIZE, 0, 1);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, "c", 1, true),
			 -EIO);
	assert_int_equal(read_state(ts), -EPROTO);
	assert_recovers(ts);
}

static void test_no_eom_short_message(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_NO_EOM, 0, 1), -EPROTO);
	assert_recovers(ts);
}

static void test_no_eom_full_packets(void **state)
{
	struct tsock *ts = *state;

	/* 24 + 4 + 52 + 1968 = 2048: two full packets, then filler. */
	add_license(ts, 1968);
	assert_int_equal(read_with_fault(ts, SDSI_FAULT_NO_EOM, 0, 1), -EPROTO);
	assert_int_equal(ts->packets, SDSI_MBOX_MAX_PACKETS);
	assert_recovers(ts);
	assert_int_equal(ts->packets, 2);
}

static void test_too_many_packets(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_TOO_MANY_PACKETS, 0, 1), -EPROTO);
	assert_int_equal(ts->packets, SDSI_MBOX_MAX_PACKETS);
	assert_int_equal(ts->msg_size, 5 * SDSI_MBOX_SIZE);
	assert_recovers(ts);
	assert_int_equal(ts->msg_size, 80);
}

/*
 * MSG_SIZE off by the parameter, the packets the answer's own; a write,
 * which answers with no data, leaves the fault armed for the next read.
 */
static void test_msg_size(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX];
	struct sdsi_fault_state f;
	size_t len;

	/* 24 + 4 + 52 + 1968 = 2048: two full packets. */
	add_license(ts, 1968);
	assert_int_equal(sdsi_model_fault_set(ts->m, SDSI_FAULT_MSG_SIZE, 8, 1), 0);
	assert_int_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, "k", 1, true), -EIO);
	assert_int_equal(sdsi_model_fault_get(ts->m, SDSI_FAULT_MSG_SIZE, &f), 0);
	assert_true(f.armed);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_int_equal(len, 2048);
	assert_int_equal(ts->packets, 2);
	assert_int_equal(ts->msg_size, 2048 + 8);
	assert_int_equal(sdsi_model_fault_get(ts->m, SDSI_FAULT_MSG_SIZE, &f), 0);
	assert_false(f.armed);
	assert_int_equal(read_state(ts), 0);
	assert_int_equal(ts->msg_size, 2048);
}

static void test_rdy_latency(void **state)
{
	struct tsock *ts = *state;
	uint64_t start;

	add_license(ts, 1968);
	/* Within Linux's 500 ms: every packet waits, the read succeeds. */
	sdsi_model_fault_set(ts->m, SDSI_FAULT_RDY_LATENCY, 300000, 1);
	start = ts->now_ns;
	assert_int_equal(read_state(ts), 0);
	assert_int_equal(ts->packets, 2);
	assert_true(ts->now_ns - start >= MS(600));
	/* Beyond it, Linux times out and the mailbox is released. */
	assert_int_equal(read_with_fault(ts, SDSI_FAULT_RDY_LATENCY, 600000, 1), -ETIMEDOUT);
	assert_recovers(ts);
}

static void test_rdy_latency_busy_fields(void **state)
{
	struct tsock *ts = *state;
	uint64_t request = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
			   8ull << SDSI_CTRL_PACKET_SIZE_SHIFT;
	uint64_t ctrl;

	sdsi_model_fault_set(ts->m, SDSI_FAULT_RDY_LATENCY, 1000, 0);
	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	ctrl_write(ts, request);
	ctrl = ctrl_read(ts);
	assert_int_equal(ctrl, request | (uint64_t)SDSI_OWNER_INBAND << 4);
	tsock_advance(ts, US(1000));
	ctrl = ctrl_read(ts);
	assert_true(ctrl & SDSI_CTRL_RDY);
	assert_false(ctrl & SDSI_CTRL_RUN_BUSY);
	ctrl_write(ts, SDSI_CTRL_CPL);
	sdsi_model_fault_clear_all(ts->m);
	assert_recovers(ts);
}

static void test_owner_delay_within_retries(void **state)
{
	struct tsock *ts = *state;

	sdsi_model_fault_set(ts->m, SDSI_FAULT_OWNER_DELAY, 700000, 1);
	assert_true(read_state_ns(ts) >= MS(700));
	/* The next transaction is not delayed. */
	assert_true(read_state_ns(ts) < MS(1));
}

static void test_owner_delay_until_cleared(void **state)
{
	struct tsock *ts = *state;
	int i;

	/* Armed until cleared: each transaction waits once, then is granted. */
	sdsi_model_fault_set(ts->m, SDSI_FAULT_OWNER_DELAY, 700000, 0);
	for (i = 0; i < 3; i++)
		assert_true(read_state_ns(ts) >= MS(700));
	sdsi_model_fault_clear(ts->m, SDSI_FAULT_OWNER_DELAY);
	assert_true(read_state_ns(ts) < MS(1));
}

static void test_owner_delay_beyond_retries(void **state)
{
	struct tsock *ts = *state;

	/* Linux gives up after about 2.5 s; nobody is left owning it. */
	assert_int_equal(read_with_fault(ts, SDSI_FAULT_OWNER_DELAY, 3000000, 1), -ETIMEDOUT);
	assert_int_equal(ctrl_read(ts), 0);
	tsock_advance(ts, MS(600));
	assert_recovers(ts);
}

static void test_clearing_owner_delay_drains_bucket(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_OWNER_DELAY, 10000000, 0), -ETIMEDOUT);
	sdsi_model_fault_clear(ts->m, SDSI_FAULT_OWNER_DELAY);
	assert_true(read_state_ns(ts) < MS(1));
}

static void test_fault_survives_power_cycle_until_cleared(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(read_with_fault(ts, SDSI_FAULT_STATUS_FAILURE, 0, 0), -EIO);
	assert_int_equal(sdsi_model_power_cycle(ts->m), 0);
	assert_int_equal(read_state(ts), -EIO);
	sdsi_model_fault_clear_all(ts->m);
	assert_recovers(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, tsock_setup_v2, tsock_teardown)
		T(test_fault_names),
		T(test_oob_owner_counted),
		T(test_oob_owner_until_cleared),
		T(test_no_rdy),
		T(test_status_faults),
		T(test_bad_packet_size),
		T(test_bad_packet_size_spared_by_writes),
		T(test_no_eom_short_message),
		T(test_no_eom_full_packets),
		T(test_too_many_packets),
		T(test_msg_size),
		T(test_rdy_latency),
		T(test_rdy_latency_busy_fields),
		T(test_owner_delay_within_retries),
		T(test_owner_delay_until_cleared),
		T(test_owner_delay_beyond_retries),
		T(test_clearing_owner_delay_drains_bucket),
		T(test_fault_survives_power_cycle_until_cleared),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
