// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protocol rules (model/protocol_rules.c, docs/protocol-rules.md): for
 * each rule, one access sequence that breaks it, recorded against that rule
 * with the access that broke it, and the nearest sequence that keeps every
 * rule, recorded as nothing.  Then the record itself (the count goes on,
 * the last 8 are kept), and Linux's own flows, faults included, which must
 * record nothing: a rule that Linux breaks is a wrong rule.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "util/util_array.h"

enum op { END, W_CTRL, W_MBOX, R_MBOX, W_RAW, R_RAW, FAULT };

struct step {
	enum op op;
	uint32_t where;		/* mailbox qword, byte offset for RAW, fault kind */
	uint64_t value;
};

#define PS(n)	((uint64_t)(n) << SDSI_CTRL_PACKET_SIZE_SHIFT)
#define MS_(n)	((uint64_t)(n) << SDSI_CTRL_MSG_SIZE_SHIFT)
#define FRAME	(SDSI_CTRL_SOM | SDSI_CTRL_EOM)
#define READ_CMD	(FRAME | SDSI_CTRL_RUN_BUSY | PS(8))
#define WRITE_CMD(n)	(FRAME | SDSI_CTRL_RUN_BUSY | SDSI_CTRL_READ_WRITE | PS(n))
#define OWN	{ W_MBOX, 0, SDSI_CMD_READ_STATE }
#define CPL	{ W_CTRL, 0, SDSI_CTRL_CPL }
#define RDY	{ R_RAW, 0, 0 }
#define AKC	SDSI_CMD_PROVISION_AKC
#define ATTEST_CMD(n)	(WRITE_CMD(n) | MS_(n))
/* GET_VERSION (10 84 00 00) padded to a qword, as qword 0 of a 0x1012 request. */
#define GET_VERSION_QWORD	0x8410ull
#define MAX_STEPS	8

/* V1 layout: control 8 bytes, so the registers start at 8 + 1024. */
#define V1_REGS	(SDSI_CTRL_SIZE_V1 + SDSI_MBOX_SIZE)

struct rule_case {
	enum sdsi_rule rule;
	struct step breaks[MAX_STEPS];	/* the last step breaks the rule */
	struct step keeps[MAX_STEPS];
};

static const struct rule_case cases[] = {
	{ SDSI_RULE_UNALIGNED,
	  { { W_RAW, SDSI_CTRL_SIZE_V1 + 4, 1 } },
	  { { W_RAW, SDSI_CTRL_SIZE_V1, 1 } } },
	{ SDSI_RULE_READ_ONLY,
	  { { W_RAW, V1_REGS, 1 } },
	  { { R_RAW, V1_REGS, 0 } } },
	{ SDSI_RULE_FIRMWARE_BITS,
	  { OWN, { W_CTRL, 0, READ_CMD | SDSI_CTRL_RDY } },
	  { OWN, { W_CTRL, 0, READ_CMD } } },
	{ SDSI_RULE_CPL_TWICE,
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL, CPL },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL, OWN, { W_CTRL, 0, READ_CMD }, CPL } },
	{ SDSI_RULE_CPL_UNOWNED,
	  { CPL },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL } },
	{ SDSI_RULE_CPL_NO_COMMAND,
	  { OWN, CPL },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL } },
	{ SDSI_RULE_CPL_NOT_ALONE,
	  { OWN, { W_CTRL, 0, READ_CMD }, { W_CTRL, 0, SDSI_CTRL_CPL | SDSI_CTRL_EOM } },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL } },
	{ SDSI_RULE_RUN_UNOWNED,
	  { { W_CTRL, 0, READ_CMD } },
	  { OWN, { W_CTRL, 0, READ_CMD } } },
	{ SDSI_RULE_RUN_ACTIVE,
	  { OWN, { W_CTRL, 0, READ_CMD }, { W_CTRL, 0, READ_CMD } },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL, OWN, { W_CTRL, 0, READ_CMD } } },
	{ SDSI_RULE_CTRL_NO_ACTION,
	  { OWN, { W_CTRL, 0, FRAME | PS(8) } },
	  { OWN, { W_CTRL, 0, READ_CMD } } },
	{ SDSI_RULE_COMMAND_FRAME,
	  { OWN, { W_CTRL, 0, SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | PS(8) } },
	  { OWN, { W_CTRL, 0, READ_CMD } } },
	{ SDSI_RULE_PACKET_SIZE,
	  { OWN, { W_CTRL, 0, FRAME | SDSI_CTRL_RUN_BUSY | PS(16) } },
	  { OWN, { W_MBOX, 1, SDSI_CMD_PROVISION_AKC }, { W_CTRL, 0, WRITE_CMD(16) } } },
	{ SDSI_RULE_MSG_SIZE,
	  { OWN, { W_MBOX, 1, AKC }, { W_CTRL, 0, WRITE_CMD(16) | MS_(24) } },
	  { OWN, { W_MBOX, 1, AKC }, { W_CTRL, 0, WRITE_CMD(16) | MS_(16) } } },
	{ SDSI_RULE_MBOX_WRITE_UNOWNED,
	  { { W_MBOX, 1, 7 } },
	  { { W_MBOX, 0, 7 }, { W_MBOX, 1, 7 } } },
	{ SDSI_RULE_MBOX_WRITE_BUSY,
	  { OWN, { W_CTRL, 0, READ_CMD }, { W_MBOX, 0, 7 } },
	  { OWN, { W_CTRL, 0, READ_CMD }, CPL, { W_MBOX, 0, 7 } } },
	{ SDSI_RULE_MBOX_READ_NOT_READY,
	  { OWN, { R_MBOX, 0, 0 } },
	  { OWN, { W_CTRL, 0, READ_CMD }, { R_MBOX, 0, 0 }, CPL } },
	/* A fresh socket's state certificate is 80 bytes: qwords 0 to 9. */
	{ SDSI_RULE_MBOX_READ_PAST_PACKET,
	  { OWN, { W_CTRL, 0, READ_CMD }, { R_MBOX, 10, 0 } },
	  { OWN, { W_CTRL, 0, READ_CMD }, { R_MBOX, 9, 0 }, CPL } },
	/* The command qword left out: a 12-byte request's packet ends with its length. */
	{ SDSI_RULE_WRITE_NO_COMMAND,
	  { { W_MBOX, 0, GET_VERSION_QWORD }, { W_MBOX, 1, 0 }, { W_MBOX, 2, 12 },
	    { W_CTRL, 0, ATTEST_CMD(24) } },
	  { { W_MBOX, 0, GET_VERSION_QWORD }, { W_MBOX, 1, 4 },
	    { W_MBOX, 2, SDSI_CMD_ATTESTATION }, { W_CTRL, 0, ATTEST_CMD(24) } } },
	{ SDSI_RULE_ATTEST_FRAME,
	  { { W_MBOX, 0, GET_VERSION_QWORD }, { W_MBOX, 1, 12 },
	    { W_MBOX, 2, SDSI_CMD_ATTESTATION }, { W_CTRL, 0, ATTEST_CMD(24) } },
	  { { W_MBOX, 0, GET_VERSION_QWORD }, { W_MBOX, 1, 8 },
	    { W_MBOX, 2, SDSI_CMD_ATTESTATION }, { W_CTRL, 0, ATTEST_CMD(24) } } },
	/* Five packets (the fault): the second CPL comes before packet 1's RDY was read. */
	{ SDSI_RULE_CPL_SKIPS_PACKET,
	  { { FAULT, SDSI_FAULT_TOO_MANY_PACKETS, 1 }, OWN, { W_CTRL, 0, READ_CMD }, RDY,
	    CPL, CPL },
	  { { FAULT, SDSI_FAULT_TOO_MANY_PACKETS, 1 }, OWN, { W_CTRL, 0, READ_CMD }, RDY,
	    CPL, RDY, CPL } },
	{ SDSI_RULE_MBOX_READ_AFTER_LAST,
	  { OWN, { W_CTRL, 0, READ_CMD }, RDY, { R_MBOX, 0, 0 }, CPL, { R_MBOX, 0, 0 } },
	  { OWN, { W_CTRL, 0, READ_CMD }, RDY, { R_MBOX, 0, 0 }, CPL, RDY } },
};

/* Run the steps; returns the byte offset of the last access. */
static uint32_t run(struct tsock *ts, const struct step *steps)
{
	uint32_t offset = 0;

	for (; steps->op != END; steps++) {
		switch (steps->op) {
		case W_CTRL:
			offset = 0;
			ctrl_write(ts, steps->value);
			break;
		case W_MBOX:
			offset = ts->ctrl_size + 8 * steps->where;
			mbox_write(ts, steps->where, steps->value);
			break;
		case R_MBOX:
			offset = ts->ctrl_size + 8 * steps->where;
			mbox_read(ts, steps->where);
			break;
		case W_RAW:
			offset = steps->where;
			sdsi_model_write64(ts->m, offset, steps->value);
			break;
		case R_RAW:
			offset = steps->where;
			sdsi_model_read64(ts->m, offset);
			break;
		case FAULT:
			assert_int_equal(sdsi_model_fault_set(ts->m, steps->where,
							      0, (unsigned int)steps->value), 0);
			break;
		case END:
			break;
		}
	}
	return offset;
}

static const struct step *last_step(const struct step *steps)
{
	while (steps[1].op != END)
		steps++;
	return steps;
}

static void test_rule(void **state, const struct rule_case *c)
{
	struct tsock *ts = *state;
	const struct step *last = last_step(c->breaks);
	struct sdsi_violation v;
	uint32_t offset;

	/* The rule's id and text are there, and the id names one rule. */
	assert_true(strlen(sdsi_rule_id(c->rule)) > 0);
	assert_true(strlen(sdsi_rule_text(c->rule)) > 10);
	for (int r = 0; r < SDSI_RULE_COUNT; r++)
		if (r != (int)c->rule)
			assert_string_not_equal(sdsi_rule_id(r), sdsi_rule_id(c->rule));

	run(ts, c->keeps);
	assert_int_equal(sdsi_model_violation_count(ts->m), 0);

	sdsi_model_power_cycle(ts->m);
	offset = run(ts, c->breaks);
	assert_int_equal(sdsi_model_violation_count(ts->m), 1);
	assert_int_equal(sdsi_model_violations(ts->m, &v, 1), 1);
	assert_string_equal(sdsi_rule_id(v.rule), sdsi_rule_id(c->rule));
	assert_int_equal(v.seq, 1);
	assert_int_equal(v.offset, offset);
	assert_int_equal(v.write, last->op != R_MBOX && last->op != R_RAW);
	if (v.write)
		assert_int_equal(v.value, last->value);
}

#define RULE_TEST(name, index) \
	static void test_##name(void **state) { test_rule(state, &cases[index]); }
RULE_TEST(unaligned, 0)
RULE_TEST(read_only, 1)
RULE_TEST(firmware_bits, 2)
RULE_TEST(cpl_twice, 3)
RULE_TEST(cpl_unowned, 4)
RULE_TEST(cpl_no_command, 5)
RULE_TEST(cpl_not_alone, 6)
RULE_TEST(run_unowned, 7)
RULE_TEST(run_active, 8)
RULE_TEST(ctrl_no_action, 9)
RULE_TEST(command_frame, 10)
RULE_TEST(packet_size, 11)
RULE_TEST(msg_size, 12)
RULE_TEST(mbox_write_unowned, 13)
RULE_TEST(mbox_write_busy, 14)
RULE_TEST(mbox_read_not_ready, 15)
RULE_TEST(mbox_read_past_packet, 16)
RULE_TEST(write_no_command, 17)
RULE_TEST(attest_frame, 18)
RULE_TEST(cpl_skips_packet, 19)
RULE_TEST(mbox_read_after_last, 20)

static void test_every_rule_has_a_case(void **state)
{
	(void)state;
	assert_int_equal(UTIL_ARRAY_SIZE(cases), SDSI_RULE_COUNT);
	for (int r = 0; r < SDSI_RULE_COUNT; r++)
		assert_int_equal(cases[r].rule, r);
	assert_string_equal(sdsi_rule_id(SDSI_RULE_COUNT), "unknown");
}

/* A write command of n bytes, owned first; the violations it adds. */
static uint64_t write_of(struct tsock *ts, uint32_t n)
{
	uint64_t before = sdsi_model_violation_count(ts->m);

	mbox_write(ts, 0, AKC);
	if (n >= SDSI_CMD_SIZE && n <= SDSI_MBOX_SIZE)
		mbox_write(ts, n / 8 - 1, AKC);
	ctrl_write(ts, WRITE_CMD(n));
	ctrl_write(ts, SDSI_CTRL_CPL);
	return sdsi_model_violation_count(ts->m) - before;
}

/* PACKET_SIZE of a write: 8 (the command alone) to 1024, in qwords. */
static void test_write_packet_size_bounds(void **state)
{
	struct tsock *ts = *state;

	assert_int_equal(write_of(ts, SDSI_CMD_SIZE), 0);
	assert_int_equal(write_of(ts, SDSI_MBOX_SIZE), 0);
	assert_int_equal(write_of(ts, 0), 1);
	assert_int_equal(write_of(ts, SDSI_MBOX_SIZE + 8), 1);
	assert_int_equal(write_of(ts, 20), 1);
}

/* The V2 control's second qword is the firmware's metering period. */
static void test_v2_control_qword1_read_only(void **state)
{
	struct tsock *ts = *state;
	struct sdsi_violation v;

	sdsi_model_read64(ts->m, 8);
	mbox_write(ts, 0, 1);		/* qword 0 of a V2 mailbox is at 16 */
	assert_int_equal(sdsi_model_violation_count(ts->m), 0);
	sdsi_model_write64(ts->m, 8, 1);
	assert_int_equal(sdsi_model_violations(ts->m, &v, 1), 1);
	assert_int_equal(v.rule, SDSI_RULE_READ_ONLY);
	assert_int_equal(v.offset, 8);
}

/*
 * Linux 6.1 reads a V2 part's registers at V1 offsets: its PPIN read is the
 * V2 mailbox's last qword, which is therefore not judged there (only there).
 */
static void test_v2_last_qword_is_early_ppin(void **state)
{
	struct tsock *ts = *state;
	struct sdsi_violation v;

	sdsi_model_read64(ts->m, SDSI_CTRL_SIZE_V1 + SDSI_MBOX_SIZE);
	assert_int_equal(sdsi_model_violation_count(ts->m), 0);
	mbox_read(ts, SDSI_MBOX_SIZE / 8 - 2);
	assert_int_equal(sdsi_model_violations(ts->m, &v, 1), 1);
	assert_int_equal(v.rule, SDSI_RULE_MBOX_READ_NOT_READY);
}

/* On V1 the last qword is the mailbox's like any other. */
static void test_v1_last_qword_judged(void **state)
{
	struct tsock *ts = *state;

	mbox_read(ts, SDSI_MBOX_SIZE / 8 - 1);
	assert_int_equal(sdsi_model_violation_count(ts->m), 1);
}

/* The count goes on; the last 8 are kept, oldest first. */
static void test_record_keeps_last_eight(void **state)
{
	struct tsock *ts = *state;
	struct sdsi_violation v[SDSI_MODEL_VIOLATIONS_KEPT + 1];
	unsigned int i;

	for (i = 0; i < SDSI_MODEL_VIOLATIONS_KEPT; i++)
		ctrl_write(ts, SDSI_CTRL_CPL);
	/* Exactly as many as are kept: all of them, from the first. */
	assert_int_equal(sdsi_model_violations(ts->m, v, SDSI_MODEL_VIOLATIONS_KEPT + 1),
			 SDSI_MODEL_VIOLATIONS_KEPT);
	assert_int_equal(v[0].seq, 1);
	/* One more: the first gives way. */
	ctrl_write(ts, SDSI_CTRL_CPL);
	assert_int_equal(sdsi_model_violation_count(ts->m), SDSI_MODEL_VIOLATIONS_KEPT + 1);
	assert_int_equal(sdsi_model_violations(ts->m, v, SDSI_MODEL_VIOLATIONS_KEPT + 1),
			 SDSI_MODEL_VIOLATIONS_KEPT);
	assert_int_equal(v[0].seq, 2);
	assert_int_equal(v[SDSI_MODEL_VIOLATIONS_KEPT - 1].seq, SDSI_MODEL_VIOLATIONS_KEPT + 1);
	/* Asked for fewer: the latest ones. */
	assert_int_equal(sdsi_model_violations(ts->m, v, 2), 2);
	assert_int_equal(v[0].seq, SDSI_MODEL_VIOLATIONS_KEPT);
	assert_int_equal(v[1].seq, SDSI_MODEL_VIOLATIONS_KEPT + 1);
	/* A power cycle keeps the record. */
	sdsi_model_power_cycle(ts->m);
	assert_int_equal(sdsi_model_violation_count(ts->m), SDSI_MODEL_VIOLATIONS_KEPT + 1);
}

/* The unchecked read sees what the driver would, and records nothing. */
static void test_peek_is_unchecked(void **state)
{
	struct tsock *ts = *state;

	mbox_write(ts, 0, 0x1234);
	assert_int_equal(sdsi_model_peek64(ts->m, ts->ctrl_size), 0x1234);
	assert_int_equal(sdsi_model_violation_count(ts->m), 0);
	assert_int_equal(mbox_read(ts, 0), 0x1234);
	assert_int_equal(sdsi_model_violation_count(ts->m), 1);
}

/* A fault armed once, and what Linux's next read returns with it. */
struct faulted_read {
	enum sdsi_fault_kind fault;
	uint32_t arg;
	uint64_t command;
	int result;
};

static const struct faulted_read faulted_reads[] = {
	{ SDSI_FAULT_NO_RDY, 0, SDSI_CMD_READ_STATE, -ETIMEDOUT },
	{ SDSI_FAULT_BAD_PACKET_SIZE, 0, SDSI_CMD_READ_STATE, -EPROTO },
	{ SDSI_FAULT_NO_EOM, 0, SDSI_CMD_READ_STATE, -EPROTO },
	{ SDSI_FAULT_TOO_MANY_PACKETS, 0, SDSI_CMD_READ_STATE, -EPROTO },
	{ SDSI_FAULT_STATUS_FAILURE, 0, SDSI_CMD_READ_STATE, -EIO },
	{ SDSI_FAULT_OOB_OWNER, 0, SDSI_CMD_READ_STATE, -EBUSY },
	{ SDSI_FAULT_OWNER_DELAY, 1200000, SDSI_CMD_READ_STATE, 0 },
	{ SDSI_FAULT_RDY_LATENCY, 300, SDSI_CMD_READ_METER, 0 },
};

/* Linux's flows, with every fault it meets, break no rule. */
static void test_linux_flows_break_nothing(void **state)
{
	struct tsock *ts = *state;
	uint8_t buf[SDSI_READ_MSG_MAX], blob[1016] = { 0 };
	size_t len;

	assert_int_equal(lx_read(ts, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_int_equal(lx_read(ts, SDSI_CMD_READ_METER, true, buf, &len), 0);
	assert_int_not_equal(lx_write(ts, SDSI_CMD_PROVISION_AKC, blob, sizeof(blob), true), 0);
	assert_int_not_equal(lx_write(ts, SDSI_CMD_PROVISION_CAP, blob, 8, false), 0);
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(faulted_reads); i++) {
		const struct faulted_read *f = &faulted_reads[i];

		assert_int_equal(sdsi_model_fault_set(ts->m, f->fault, f->arg, 1), 0);
		assert_int_equal(lx_read(ts, f->command, false, buf, &len), f->result);
	}
	assert_int_equal(sdsi_model_violation_count(ts->m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, tsock_setup_v1, tsock_teardown)
		T(test_unaligned),
		T(test_read_only),
		T(test_firmware_bits),
		T(test_cpl_twice),
		T(test_cpl_unowned),
		T(test_cpl_no_command),
		T(test_cpl_not_alone),
		T(test_run_unowned),
		T(test_run_active),
		T(test_ctrl_no_action),
		T(test_command_frame),
		T(test_packet_size),
		T(test_msg_size),
		T(test_mbox_write_unowned),
		T(test_mbox_write_busy),
		T(test_mbox_read_not_ready),
		T(test_mbox_read_past_packet),
		T(test_write_no_command),
		T(test_attest_frame),
		T(test_cpl_skips_packet),
		T(test_mbox_read_after_last),
		T(test_every_rule_has_a_case),
		T(test_write_packet_size_bounds),
		T(test_record_keeps_last_eight),
		T(test_peek_is_unchecked),
		T(test_linux_flows_break_nothing),
		T(test_v1_last_qword_judged),
		cmocka_unit_test_setup_teardown(test_v2_last_qword_is_early_ppin,
						tsock_setup_v2, tsock_teardown),
		cmocka_unit_test_setup_teardown(test_v2_control_qword1_read_only,
						tsock_setup_v2, tsock_teardown),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
