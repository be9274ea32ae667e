// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core, access by access: the whole sequence of MMIO reads, writes
 * and sleeps of a read and of a write transaction, as the Linux driver makes
 * it, compared with what the core did against the real model.  Then every
 * error path after the mailbox is ours: one CPL answers the RDY (or the wait)
 * that failed, never a second, and Linux's diagnostic comes with it.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <sdsi/le.h>

#include "core_rig.h"
#include "tests/unit/model/test_authority.h"
#include "util/util_array.h"

#define OWN		((uint64_t)SDSI_OWNER_INBAND << SDSI_CTRL_OWNER_SHIFT)
#define STATUS(s)	((uint64_t)(s) << SDSI_CTRL_STATUS_SHIFT)
#define PACKET(n)	((uint64_t)(n) << SDSI_CTRL_PACKET_SIZE_SHIFT)
#define MSG(n)		((uint64_t)(n) << SDSI_CTRL_MSG_SIZE_SHIFT)
#define READ_REQUEST	(SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | \
			 PACKET(8))
#define WRITE_REQUEST	(SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | \
			 SDSI_CTRL_READ_WRITE)
/* Half of Linux's 100 us poll period: see poll_sleep_us() in the core. */
#define POLL_SLEEP_US	50u

struct trace {
	struct rig_access steps[RIG_TRACE_MAX];
	unsigned int n;
};

static struct trace expected;
static unsigned char cert[SDSI_READ_MSG_MAX];

static void step(char op, uint32_t offset, uint64_t value)
{
	assert_true(expected.n < RIG_TRACE_MAX);
	expected.steps[expected.n].op = op;
	expected.steps[expected.n].offset = offset;
	expected.steps[expected.n].value = value;
	expected.n++;
}

/* The owner check on a free mailbox, the request, the grant. */
static void expect_acquire(const struct core_rig *rig, uint64_t first_qword)
{
	step('R', 0, 0);
	step('W', rig->model_mbox_off, first_qword);
	step('R', 0, OWN);
}

/* Each qword of a packet read from mailbox offset 0, then its CPL. */
static void expect_packet(const struct core_rig *rig, const unsigned char *p,
			  uint32_t bytes)
{
	uint32_t q;

	for (q = 0; q < (bytes + 7) / 8; q++)
		step('R', rig->model_mbox_off + q * 8, sdsi_le64(p + q * 8));
	step('W', 0, SDSI_CTRL_CPL);
}

/* The reply to a read that fits one packet: RDY, SOM and EOM, all of it, then CPL. */
static void expect_one_packet_reply(const struct core_rig *rig, size_t cert_len)
{
	step('R', 0, OWN | SDSI_CTRL_RDY | SDSI_CTRL_SOM | SDSI_CTRL_EOM |
		     STATUS(SDSI_STATUS_SUCCESS) | PACKET(cert_len) |
		     MSG(cert_len));
	expect_packet(rig, cert, (uint32_t)cert_len);
}

static void read_state(struct core_rig *rig, size_t *len)
{
	rig_clear_log(rig);
	expected.n = 0;
	assert_int_equal(sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE, false,
					rig->buf, len), 0);
}

/* A certificate of one packet: no sleep, one CPL, which releases. */
static void test_read_of_one_packet(void **state)
{
	struct core_rig *rig = *state;
	size_t cert_len = rig_state_cert(rig, cert), len;

	assert_in_range(cert_len, 8, SDSI_MBOX_SIZE - 1);
	read_state(rig, &len);
	assert_int_equal(len, cert_len);

	expect_acquire(rig, SDSI_CMD_READ_STATE);
	step('W', 0, READ_REQUEST);
	expect_one_packet_reply(rig, cert_len);
	rig_assert_trace(rig, expected.steps, expected.n);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

/*
 * Two packets: exactly 1024 bytes without EOM (the largest a packet that is
 * not the last may be, and the only size), then the rest with EOM.  The first
 * CPL asks for the next packet, the second releases.
 */
static void test_read_of_two_packets(void **state)
{
	struct core_rig *rig = *state;
	size_t cert_len, len;

	rig_install_license(rig, 1500);
	cert_len = rig_state_cert(rig, cert);
	assert_int_equal(cert_len, 1584);
	read_state(rig, &len);
	assert_int_equal(len, cert_len);

	expect_acquire(rig, SDSI_CMD_READ_STATE);
	step('W', 0, READ_REQUEST);
	step('R', 0, OWN | SDSI_CTRL_RDY | SDSI_CTRL_SOM |
		     STATUS(SDSI_STATUS_SUCCESS) | PACKET(SDSI_MBOX_SIZE) |
		     MSG(cert_len));
	expect_packet(rig, cert, SDSI_MBOX_SIZE);
	step('R', 0, OWN | SDSI_CTRL_RDY | SDSI_CTRL_EOM |
		     STATUS(SDSI_STATUS_SUCCESS) |
		     PACKET(cert_len - SDSI_MBOX_SIZE) | MSG(cert_len));
	expect_packet(rig, cert + SDSI_MBOX_SIZE,
		      (uint32_t)(cert_len - SDSI_MBOX_SIZE));
	rig_assert_trace(rig, expected.steps, expected.n);
	assert_int_equal(rig->log.warnings, 0);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

/*
 * RDY 400 us after the request: the core polls with sleeps of half Linux's
 * period, so no gap between two reads is longer than readq_poll_timeout's.
 */
static void test_read_polls_for_rdy(void **state)
{
	struct core_rig *rig = *state;
	size_t cert_len = rig_state_cert(rig, cert), len;
	unsigned int i;

	assert_int_equal(sdsi_model_fault_set(rig->model,
					      SDSI_FAULT_RDY_LATENCY, 400, 1),
			 0);
	read_state(rig, &len);

	expect_acquire(rig, SDSI_CMD_READ_STATE);
	step('W', 0, READ_REQUEST);
	step('R', 0, OWN | READ_REQUEST);
	for (i = 1; i < 400 / POLL_SLEEP_US; i++) {
		step('S', 0, POLL_SLEEP_US);
		step('R', 0, OWN | READ_REQUEST);
	}
	step('S', 0, POLL_SLEEP_US);
	expect_one_packet_reply(rig, cert_len);
	rig_assert_trace(rig, expected.steps, expected.n);
}

/*
 * The sleep between polls is half the period rounded up: 1 us for a period
 * of 1 (never 0, which would spin), and no overflow at the largest period.
 */
static void test_poll_sleep_bounds(void **state)
{
	static const struct {
		uint32_t poll_us, sleep_us;
	} cases[] = {
		{ 1, 1 }, { 2, 1 }, { 3, 2 }, { 100, 50 },
		{ UINT32_MAX, UINT32_MAX / 2 + 1 },
	};
	struct core_rig *rig = *state;
	struct sdsi_mbox_params p;
	unsigned int c, i, sleeps;
	size_t len;

	for (c = 0; c < UTIL_ARRAY_SIZE(cases); c++) {
		sdsi_mbox_default_params(&p);
		p.poll_us = cases[c].poll_us;
		assert_int_equal(sdsi_mbox_init(&rig->mb, rig->guid, &rig_ops,
						rig, &p), 0);
		assert_int_equal(sdsi_model_fault_set(rig->model,
						      SDSI_FAULT_RDY_LATENCY,
						      2, 1), 0);
		read_state(rig, &len);
		for (i = 0, sleeps = 0; i < rig->log.trace_len; i++) {
			if (rig->log.trace[i].op != 'S')
				continue;
			assert_int_equal(rig->log.trace[i].value,
					 cases[c].sleep_us);
			sleeps++;
		}
		assert_int_equal(sleeps, cases[c].sleep_us >= 2 ? 1 : 2);
	}
}

/* The write packet: payload qwords 1.., the command last, one CPL. */
static void expect_write(const struct core_rig *rig, const unsigned char *blob,
			 size_t len, uint64_t command, uint8_t status)
{
	uint32_t size = (uint32_t)((len + 7) / 8 * 8 + 8), q;
	unsigned char padded[SDSI_MBOX_SIZE] = { 0 };

	memcpy(padded, blob, len);
	sdsi_put_le64(padded + size - 8, command);
	expect_acquire(rig, sdsi_le64(padded));
	for (q = 1; q < size / 8; q++)
		step('W', rig->model_mbox_off + q * 8, sdsi_le64(padded + q * 8));
	step('W', 0, WRITE_REQUEST | PACKET(size) | MSG(size));
	step('R', 0, OWN | SDSI_CTRL_READ_WRITE | SDSI_CTRL_RDY |
		     SDSI_CTRL_SOM | SDSI_CTRL_EOM | STATUS(status));
	step('W', 0, SDSI_CTRL_CPL);
}

/* A signed AKC the model takes: an empty answer, acknowledged once. */
static void test_write_accepted(void **state)
{
	static unsigned char akc[SDSI_WRITE_PAYLOAD_MAX];
	struct test_authority auth;
	struct core_rig *rig;
	size_t len;

	(void)state;
	authority_init(&auth);
	rig = rig_new_rooted(SDSI_GUID_V2, SDSI_ABI_CURRENT, auth.root_pub);
	len = authority_akc(auth.root, auth.licensor, 1, akc, sizeof(akc));
	assert_int_equal(len % 8, 0);

	rig_clear_log(rig);
	expected.n = 0;
	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 akc, len), 0);
	expect_write(rig, akc, len, SDSI_CMD_PROVISION_AKC,
		     SDSI_STATUS_SUCCESS);
	rig_assert_trace(rig, expected.steps, expected.n);
	assert_true(rig_register(rig, SDSI_REG_KEY_PROV) &
		    SDSI_KEY_PROVISIONED);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);

	rig_free(rig);
	authority_fini(&auth);
}

/* Junk of 13 bytes, zero-padded: refused with status 0x90, one CPL. */
static void test_write_refused(void **state)
{
	static const unsigned char junk[13] = "thirteen-byte";
	struct core_rig *rig = *state;

	rig_clear_log(rig);
	expected.n = 0;
	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 junk, sizeof(junk)), -EIO);
	expect_write(rig, junk, sizeof(junk), SDSI_CMD_PROVISION_AKC,
		     SDSI_STATUS_FAILURE);
	rig_assert_trace(rig, expected.steps, expected.n);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

struct error_path {
	const char *name;
	enum sdsi_fault_kind fault;
	uint32_t param;
	size_t license;		/* bytes of licence installed first, or 0 */
	bool write;
	int err;
	const char *warning;	/* Linux's message, or NULL for none */
	unsigned int cpls;	/* one per packet taken, one for the failure */
};

static const struct error_path error_paths[] = {
	{ "no RDY, read", SDSI_FAULT_NO_RDY, 0, 0, false, -ETIMEDOUT,
	  NULL, 1 },
	{ "no RDY, write", SDSI_FAULT_NO_RDY, 0, 0, true, -ETIMEDOUT,
	  NULL, 1 },
	{ "RDY after the deadline", SDSI_FAULT_RDY_LATENCY, 600000, 0, false,
	  -ETIMEDOUT, NULL, 1 },
	{ "status timeout, read", SDSI_FAULT_STATUS_TIMEOUT, 0, 0, false,
	  -ETIMEDOUT, NULL, 1 },
	{ "status timeout, write", SDSI_FAULT_STATUS_TIMEOUT, 0, 0, true,
	  -ETIMEDOUT, NULL, 1 },
	{ "status failure, read", SDSI_FAULT_STATUS_FAILURE, 0, 0, false,
	  -EIO, NULL, 1 },
	{ "status failure, write", SDSI_FAULT_STATUS_FAILURE, 0, 0, true,
	  -EIO, NULL, 1 },
	/* 1032 bytes with EOM, then without (a first of two packets). */
	{ "last packet over 1024", SDSI_FAULT_BAD_PACKET_SIZE, 0, 0, false,
	  -EPROTO, "Packet size too large", 1 },
	{ "first packet over 1024", SDSI_FAULT_BAD_PACKET_SIZE, 0, 1500,
	  false, -EPROTO, "Invalid packet size", 1 },
	{ "short packet without EOM", SDSI_FAULT_NO_EOM, 0, 0, false,
	  -EPROTO, "Invalid packet size", 1 },
	/* Four full packets taken, none with EOM: nothing after their CPLs. */
	{ "4096 bytes without EOM", SDSI_FAULT_NO_EOM, 0, 4016, false,
	  -EPROTO, "Exceeded read attempts", 4 },
	{ "five packets", SDSI_FAULT_TOO_MANY_PACKETS, 0, 0, false, -EPROTO,
	  "Exceeded read attempts", 4 },
};

static int run_path(struct core_rig *rig, bool write)
{
	static const unsigned char junk[8] = "notakey";
	size_t len;

	if (write)
		return sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC, junk,
				       sizeof(junk));
	return sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE, false, rig->buf,
			      &len);
}

static void test_error_paths_write_one_cpl(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < UTIL_ARRAY_SIZE(error_paths); i++) {
		const struct error_path *e = &error_paths[i];
		struct core_rig *rig = rig_new(SDSI_GUID_V2,
					       SDSI_ABI_CURRENT);
		const struct rig_access *last, *before;
		size_t len;

		print_message("error path: %s\n", e->name);
		if (e->license)
			rig_install_license(rig, e->license);
		assert_int_equal(sdsi_model_fault_set(rig->model, e->fault,
						      e->param, 1), 0);
		rig_clear_log(rig);
		assert_int_equal(run_path(rig, e->write), e->err);

		assert_int_equal(rig_trace_cpls(rig), e->cpls);
		/* The CPL is the last access, right after a control read. */
		assert_true(rig->log.trace_len >= 2 &&
			    rig->log.trace_len <= RIG_TRACE_MAX);
		last = &rig->log.trace[rig->log.trace_len - 1];
		before = &rig->log.trace[rig->log.trace_len - 2];
		assert_true(last->op == 'W' && last->offset == 0 &&
			    last->value == SDSI_CTRL_CPL);
		if (e->cpls == 1)
			assert_true(before->op == 'R' && before->offset == 0);
		if (e->warning) {
			assert_int_equal(rig->log.warnings, 1);
			assert_string_equal(rig->log.last_warning, e->warning);
			/* dev_err() in Linux, each of them. */
			assert_int_equal(rig->log.last_level, SDSI_MBOX_ERR);
		} else {
			assert_int_equal(rig->log.warnings, 0);
		}

		/* Free again, and the next transaction is whole. */
		assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
		rig_clear_log(rig);
		assert_int_equal(sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE,
						false, rig->buf, &len), 0);
		assert_int_equal(rig_trace_cpls(rig),
				 (len + SDSI_MBOX_SIZE - 1) / SDSI_MBOX_SIZE);
		rig_free(rig);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RIG_TEST(test_read_of_one_packet, rig_setup_v1),
		RIG_TEST(test_read_of_one_packet, rig_setup_v2),
		RIG_TEST(test_read_of_two_packets, rig_setup_v2),
		RIG_TEST(test_read_polls_for_rdy, rig_setup_v1),
		RIG_TEST(test_poll_sleep_bounds, rig_setup_v2),
		cmocka_unit_test(test_write_accepted),
		RIG_TEST(test_write_refused, rig_setup_v1),
		RIG_TEST(test_write_refused, rig_setup_v2),
		cmocka_unit_test(test_error_paths_write_one_cpl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
