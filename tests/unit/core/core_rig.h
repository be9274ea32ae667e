/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test rig for the driver core: a real hardware model behind the core's
 * operations, a virtual clock shared by both (so timeouts and 500 ms retries
 * cost no wall time), and a log of every MMIO access the core makes.
 */
#ifndef CORE_RIG_H
#define CORE_RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdsi/hw.h>

#include "sdsi_mbox.h"
#include "sdsi_model.h"

#define RIG_PPIN		0x1122334455667788ull
#define RIG_SOCKET_ID		2u
#define RIG_CAPID1		0x00000000c0ffee00ull
#define RIG_CTRL_LOG_MAX	64u
#define RIG_MBOX_QWORDS		(SDSI_MBOX_SIZE / 8u)

struct core_rig {
	struct sdsi_model *model;
	struct sdsi_mbox mb;
	uint32_t guid;
	uint32_t model_mbox_off;	/* per the model, not the core */

	uint64_t now_ns;		/* the virtual clock */
	unsigned int sleeps;
	unsigned int retry_sleeps;	/* sleeps of a whole retry delay */

	unsigned int mmio_accesses;
	unsigned int ctrl_writes;	/* may exceed the log's length */
	uint64_t ctrl_log[RIG_CTRL_LOG_MAX];
	unsigned int requests;		/* writes of mailbox qword 0 */
	uint64_t mbox_written[RIG_MBOX_QWORDS];
	bool mbox_touched[RIG_MBOX_QWORDS];
	unsigned int warnings;

	/*
	 * Behaviour the model has no fault for.  The first is a transport
	 * filter: firmware announcing a wrong MSG_SIZE with every packet.  The
	 * second arms the model's oob-owner fault right after the first
	 * ownership request, as if the BMC took the mailbox meanwhile.
	 */
	uint32_t msg_size_skew;
	bool oob_after_request;

	unsigned char buf[SDSI_READ_MSG_MAX + 8];
};

/* The rig's operations; their ctx must be a struct core_rig. */
extern const struct sdsi_mbox_ops rig_ops;

/* Build a model of the GUID and bind a core of the flavour to it. */
struct core_rig *rig_new(uint32_t guid, enum sdsi_mbox_flavor flavor);
void rig_free(struct core_rig *rig);

/* Forget the access log (not the clock), e.g. after a preparatory step. */
void rig_clear_log(struct core_rig *rig);

/* The control register and registers as the model shows them, unlogged. */
uint64_t rig_ctrl(struct core_rig *rig);
unsigned int rig_owner(struct core_rig *rig);
uint64_t rig_register(struct core_rig *rig, uint32_t file_offset);

uint64_t rig_last_ctrl_write(const struct core_rig *rig);

/* cmocka fixtures: *state becomes a rig of that GUID and flavour. */
int rig_setup_v1(void **state);
int rig_setup_v2(void **state);
int rig_setup_v1_early(void **state);
int rig_teardown(void **state);

#endif /* CORE_RIG_H */
