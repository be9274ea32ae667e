// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core against a misbehaving mailbox: every row of the errno mapping,
 * the leaky-bucket retries of acquire, and the release of the mailbox after
 * each error.  Faults are armed in the real model; time is virtual.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core_rig.h"

#define MS		1000ull		/* in microseconds */
#define RDY_TIMEOUT_US	500000ull
#define RETRY_DELAY_US	(500 * MS)

static const unsigned char junk_akc[8] = "notakey";

static int do_read(struct core_rig *rig)
{
	size_t len = 0;

	return sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE, false, rig->buf,
			      &len);
}

static int do_write(struct core_rig *rig)
{
	return sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC, junk_akc,
			       sizeof(junk_akc));
}

static uint64_t elapsed_us(const struct core_rig *rig, uint64_t start_ns)
{
	return (rig->now_ns - start_ns) / 1000u;
}

static void arm(struct core_rig *rig, enum sdsi_fault_kind kind,
		uint32_t param, unsigned int count)
{
	assert_int_equal(sdsi_model_fault_set(rig->model, kind, param, count),
			 0);
	rig_clear_log(rig);
}

/* One fault of kind armed, op returns expected; how long it took, in virtual us. */
static uint64_t timed(struct core_rig *rig, enum sdsi_fault_kind kind, uint32_t param,
		      int (*op)(struct core_rig *), int expected)
{
	uint64_t start;

	arm(rig, kind, param, 1);
	start = rig->now_ns;
	assert_int_equal(op(rig), expected);
	return elapsed_us(rig, start);
}

/* The error left the mailbox free and usable for the next transaction. */
static void assert_released_and_usable(struct core_rig *rig)
{
	assert_int_equal(rig_last_ctrl_write(rig), SDSI_CTRL_CPL);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
	assert_int_equal(do_read(rig), 0);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

static void test_oob_owner_is_ebusy_without_touching(void **state)
{
	struct core_rig *rig = *state;

	arm(rig, SDSI_FAULT_OOB_OWNER, 0, 0);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_OUT_OF_BAND);
	assert_int_equal(do_read(rig), -EBUSY);
	assert_int_equal(do_write(rig), -EBUSY);
	/* One look at the owner each; never ours, so no CPL either. */
	assert_int_equal(rig->log.mmio_accesses, 2);
	assert_int_equal(rig->log.ctrl_writes, 0);
	assert_int_equal(rig->log.requests, 0);
	assert_int_equal(rig->log.sleeps, 0);

	sdsi_model_fault_clear(rig->model, SDSI_FAULT_OOB_OWNER);
	assert_int_equal(do_read(rig), 0);
}

static void assert_no_rdy_times_out(struct core_rig *rig,
				    int (*op)(struct core_rig *))
{
	assert_in_range(timed(rig, SDSI_FAULT_NO_RDY, 0, op, -ETIMEDOUT), RDY_TIMEOUT_US,
			RDY_TIMEOUT_US + 10 * MS);
	assert_int_equal(rig->log.retry_sleeps, 0);
	assert_released_and_usable(rig);
}

static void test_no_rdy_read_is_etimedout(void **state)
{
	assert_no_rdy_times_out(*state, do_read);
}

static void test_no_rdy_write_is_etimedout(void **state)
{
	assert_no_rdy_times_out(*state, do_write);
}

static void assert_fault_gives(struct core_rig *rig, enum sdsi_fault_kind kind,
			       int (*op)(struct core_rig *), int expected)
{
	arm(rig, kind, 0, 1);
	assert_int_equal(op(rig), expected);
	assert_released_and_usable(rig);
}

static void test_status_timeout_is_etimedout(void **state)
{
	assert_fault_gives(*state, SDSI_FAULT_STATUS_TIMEOUT, do_read,
			   -ETIMEDOUT);
	assert_fault_gives(*state, SDSI_FAULT_STATUS_TIMEOUT, do_write,
			   -ETIMEDOUT);
}

static void test_status_failure_is_eio(void **state)
{
	assert_fault_gives(*state, SDSI_FAULT_STATUS_FAILURE, do_read, -EIO);
}

static void test_bad_packet_size_is_eproto(void **state)
{
	assert_fault_gives(*state, SDSI_FAULT_BAD_PACKET_SIZE, do_read,
			   -EPROTO);
}

static void test_no_eom_is_eproto(void **state)
{
	assert_fault_gives(*state, SDSI_FAULT_NO_EOM, do_read, -EPROTO);
}

static void test_too_many_packets_is_eproto(void **state)
{
	struct core_rig *rig = *state;
	unsigned int i;

	assert_fault_gives(rig, SDSI_FAULT_TOO_MANY_PACKETS, do_read, -EPROTO);
	/* Request, then four packets taken and acknowledged, then given up. */
	arm(rig, SDSI_FAULT_TOO_MANY_PACKETS, 0, 1);
	assert_int_equal(do_read(rig), -EPROTO);
	assert_int_equal(rig->log.ctrl_writes, 5);
	for (i = 1; i < 5; i++)
		assert_int_equal(rig->log.ctrl_log[i], SDSI_CTRL_CPL);
}

/* RDY after 400 ms is inside Linux's 500 ms; after 600 ms it is not. */
static void test_rdy_latency_against_timeout(void **state)
{
	struct core_rig *rig = *state;

	assert_in_range(timed(rig, SDSI_FAULT_RDY_LATENCY, 400000, do_read, 0), 400 * MS,
			401 * MS);

	arm(rig, SDSI_FAULT_RDY_LATENCY, 600000, 1);
	assert_int_equal(do_read(rig), -ETIMEDOUT);
	assert_released_and_usable(rig);
}

/*
 * A leaky-bucket delay of 700 ms: the first two requests go unanswered for
 * their 1 ms each and are followed by the 500 ms sleep; the third is granted.
 */
static void test_acquire_succeeds_after_retries(void **state)
{
	struct core_rig *rig = *state;

	assert_in_range(timed(rig, SDSI_FAULT_OWNER_DELAY, 700000, do_read, 0),
			2 * RETRY_DELAY_US, 2 * RETRY_DELAY_US + 10 * MS);
	assert_int_equal(rig->log.retry_sleeps, 2);
	assert_int_equal(rig->log.requests, 3);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

/*
 * The mailbox was never granted: op gave up with ETIMEDOUT after asking
 * requests times, with retry_sleeps whole retry delays between.
 */
static void assert_acquire_times_out(struct core_rig *rig, int (*op)(struct core_rig *),
				     unsigned int requests, unsigned int retry_sleeps)
{
	assert_int_equal(op(rig), -ETIMEDOUT);
	assert_int_equal(rig->log.requests, requests);
	assert_int_equal(rig->log.retry_sleeps, retry_sleeps);
}

/* Never granted, so never released either: no control write, owner left as it is. */
static void assert_never_released(struct core_rig *rig, unsigned int owner)
{
	assert_int_equal(rig->log.ctrl_writes, 0);
	assert_int_equal(rig_owner(rig), owner);
}

/* Linux tries once and retries five times, then gives up with ETIMEDOUT. */
static void test_acquire_gives_up_after_all_retries(void **state)
{
	struct core_rig *rig = *state;

	arm(rig, SDSI_FAULT_OWNER_DELAY, 10000000, 1);
	assert_acquire_times_out(rig, do_write, 6, 5);
	assert_never_released(rig, SDSI_OWNER_NONE);	/* and nothing left held */
}

/* Once another agent owns the mailbox, asking again is pointless. */
static void test_acquire_lost_to_oob_agent(void **state)
{
	struct core_rig *rig = *state;

	arm(rig, SDSI_FAULT_OWNER_DELAY, 10000000, 1);
	rig->oob_after_request = true;
	assert_acquire_times_out(rig, do_read, 1, 0);
	assert_never_released(rig, SDSI_OWNER_OUT_OF_BAND);
}

static void test_acquire_retries_follow_params(void **state)
{
	struct core_rig *rig = *state;
	struct sdsi_mbox_params p;

	sdsi_mbox_default_params(&p);
	p.acquire_retries = 0;
	assert_int_equal(sdsi_mbox_init(&rig->mb, rig->guid, &rig_ops, rig,
					&p), 0);
	arm(rig, SDSI_FAULT_OWNER_DELAY, 700000, 1);
	assert_acquire_times_out(rig, do_read, 1, 0);
	/*
	 * Sleeps of 50 us (at most 100 us each in the kernel's fsleep, as in
	 * readq_poll_timeout) up to the 1 ms deadline, then one past it.
	 */
	assert_int_equal(rig->log.sleeps, 21);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RIG_TEST(test_oob_owner_is_ebusy_without_touching,
			 rig_setup_v1),
		RIG_TEST(test_no_rdy_read_is_etimedout, rig_setup_v2),
		RIG_TEST(test_no_rdy_write_is_etimedout, rig_setup_v1),
		RIG_TEST(test_status_timeout_is_etimedout, rig_setup_v2),
		RIG_TEST(test_status_failure_is_eio, rig_setup_v1),
		RIG_TEST(test_bad_packet_size_is_eproto, rig_setup_v2),
		RIG_TEST(test_no_eom_is_eproto, rig_setup_v1),
		RIG_TEST(test_too_many_packets_is_eproto, rig_setup_v2),
		RIG_TEST(test_rdy_latency_against_timeout, rig_setup_v1),
		RIG_TEST(test_acquire_succeeds_after_retries, rig_setup_v2),
		RIG_TEST(test_acquire_gives_up_after_all_retries, rig_setup_v1),
		RIG_TEST(test_acquire_lost_to_oob_agent, rig_setup_v2),
		RIG_TEST(test_acquire_retries_follow_params, rig_setup_v1),
		RIG_TEST(test_oob_owner_is_ebusy_without_touching,
			 rig_setup_v1_early),
		RIG_TEST(test_status_failure_is_eio, rig_setup_v1_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
