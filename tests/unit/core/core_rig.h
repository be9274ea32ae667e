/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test rig for the driver core: a real hardware model behind the core's
 * operations, a virtual clock shared by both (so timeouts and 500 ms retries
 * cost no wall time), and a log of every MMIO access the core makes.
 */
#ifndef SDSI_TESTS_UNIT_CORE_RIG_H
#define SDSI_TESTS_UNIT_CORE_RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdsi/hw.h>

#include "drivers/core/sdsi_mbox.h"
#include "model/sdsi_model.h"

#define RIG_PPIN		0x1122334455667788ull
#define RIG_SOCKET_ID		2u
#define RIG_CAPID1		0x00000000c0ffee00ull
#define RIG_CTRL_LOG_MAX	64u
#define RIG_MBOX_QWORDS		(SDSI_MBOX_SIZE / 8u)
/*
 * Room for the longest trace a test takes: a 500 ms wait for RDY in vain is
 * 10001 reads and 10000 sleeps.
 */
#define RIG_TRACE_MAX		32768u
#define RIG_WARNING_MAX		128u

/* One step the core took, in the order it took them. */
struct rig_access {
	char op;		/* 'R' read64, 'W' write64, 'S' sleep_us */
	uint32_t offset;	/* MMIO byte offset; 0 for a sleep */
	uint64_t value;		/* what was read or written; us slept */
};

/* What the core did: counts, the last values, the trace. */
struct rig_log {
	unsigned int sleeps;
	unsigned int retry_sleeps;	/* sleeps of a whole retry delay */

	unsigned int mmio_accesses;
	unsigned int ctrl_writes;	/* may exceed the log's length */
	uint64_t ctrl_log[RIG_CTRL_LOG_MAX];
	unsigned int requests;		/* writes of mailbox qword 0 */
	uint64_t mbox_written[RIG_MBOX_QWORDS];
	bool mbox_touched[RIG_MBOX_QWORDS];
	unsigned int warnings;		/* diagnostics of either level */
	char last_warning[RIG_WARNING_MAX];
	enum sdsi_mbox_level last_level;

	/* Every access and sleep, in order. */
	struct rig_access trace[RIG_TRACE_MAX];
	unsigned int trace_len;		/* may exceed RIG_TRACE_MAX */
};

struct core_rig {
	struct sdsi_model *model;
	struct sdsi_mbox mb;
	uint32_t guid;
	uint32_t model_mbox_off;	/* per the model, not the core */

	uint64_t now_ns;		/* the virtual clock */
	/* What the core did since the last rig_clear_log(), cleared as one. */
	struct rig_log log;

	/*
	 * Behaviour the model has no fault for.  The first is a transport
	 * filter: firmware announcing a wrong MSG_SIZE with every packet.  The
	 * second arms the model's oob-owner fault right after the first
	 * ownership request, as if the BMC took the mailbox meanwhile.
	 */
	uint32_t msg_size_skew;
	bool oob_after_request;
	/* Firmware that frames an answer wrongly: mailbox qword I reads as V. */
	bool mbox_override;
	uint32_t mbox_override_index;
	uint64_t mbox_override_value;
	/*
	 * Firmware that answers a write with a message: once the model has
	 * taken a write request, the rig shows write_answer_packets packets
	 * itself (status success, full packets, the last write_answer_last bytes,
	 * MSG_SIZE write_answer_msg_size), each acknowledged by a CPL that
	 * the model only sees for the last.  Not a fault of the model: no
	 * firmware is known to do it, but Linux counts such an answer.
	 */
	unsigned int write_answer_packets;
	uint32_t write_answer_last, write_answer_msg_size;
	bool write_answer_armed;
	unsigned int write_answer_shown;

	unsigned char buf[SDSI_READ_MSG_MAX + 8];
};

/* The rig's operations; their ctx must be a struct core_rig. */
extern const struct sdsi_mbox_ops rig_ops;

/* Build a model of the GUID and bind a core of the flavour to it. */
struct core_rig *rig_new(uint32_t guid, enum sdsi_abi flavor);
/* The same, with a model that trusts the root key in root_key_path. */
struct core_rig *rig_new_rooted(uint32_t guid, enum sdsi_abi flavor,
				const char *root_key_path);
void rig_free(struct core_rig *rig);

/* Forget the access log (not the clock), e.g. after a preparatory step. */
void rig_clear_log(struct core_rig *rig);

/* The control register and registers as the model shows them, unlogged. */
uint64_t rig_ctrl(struct core_rig *rig);
unsigned int rig_owner(struct core_rig *rig);
uint64_t rig_register(struct core_rig *rig, uint32_t file_offset);

uint64_t rig_last_ctrl_write(const struct core_rig *rig);

/*
 * Give the socket one licence of blob_len bytes, so that its state
 * certificate is 80 + blob_len bytes rounded up to 16.
 */
void rig_install_license(struct core_rig *rig, size_t blob_len);
/* The state certificate the model would present now; returns its length. */
size_t rig_state_cert(struct core_rig *rig, unsigned char *out);

/*
 * Compare the whole trace with expected[0..n); on a difference, print both
 * and fail naming the first step that differs.
 */
void rig_assert_trace(const struct core_rig *rig,
		      const struct rig_access *expected, unsigned int n);
/* How many control writes of the trace are CPL alone. */
unsigned int rig_trace_cpls(const struct core_rig *rig);

/* cmocka fixtures: *state becomes a rig of that GUID and flavour. */
int rig_setup_v1(void **state);
int rig_setup_v2(void **state);
int rig_setup_v1_early(void **state);
int rig_teardown(void **state);
/* A test run on a fresh rig made by setup (one of the above), freed after. */
#define RIG_TEST(fn, setup) \
	cmocka_unit_test_setup_teardown(fn, setup, rig_teardown)

#endif /* SDSI_TESTS_UNIT_CORE_RIG_H */
