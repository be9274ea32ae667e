/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test rig for the model: a socket on a virtual clock, and the register pokes
 * of the Linux driver written out step by step (docs/interface.md §2.6), so
 * the tests see the model exactly as Linux would without depending on the
 * driver core.
 */
#ifndef SDSI_TESTS_UNIT_MODEL_LINUX_MMIO_H
#define SDSI_TESTS_UNIT_MODEL_LINUX_MMIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdsi/hw.h>

#include "model/sdsi_model.h"

struct tsock {
	struct sdsi_model *m;
	uint64_t now_ns;		/* the model's clock */
	uint32_t ctrl_size;
	/* What the last lx_read/lx_write saw. */
	unsigned int packets;
	uint32_t msg_size;
	bool cpl_sent;
};

#define US(x)	((uint64_t)(x) * 1000ull)
#define MS(x)	((uint64_t)(x) * 1000000ull)
#define HOURS(x) ((uint64_t)(x) * 3600ull * 1000000000ull)

/* A config with the documented defaults, volatile NVRAM, the tsock clock. */
void tsock_config(struct tsock *ts, struct sdsi_model_config *cfg,
		  uint32_t guid);
/* Create the model (asserts success). */
void tsock_open(struct tsock *ts, const struct sdsi_model_config *cfg);
void tsock_close(struct tsock *ts);
/*
 * Creating a model from cfg fails with code, leaves no model, and says why
 * naming named; returns the message (until the next call).
 */
const char *tsock_expect_refused(const struct sdsi_model_config *cfg, int code,
				 const char *named);
void tsock_advance(struct tsock *ts, uint64_t ns);

/*
 * cmocka fixtures: one socket with the tsock_config defaults (V1 or V2
 * layout) for each test, closed again by tsock_teardown.
 */
int tsock_setup_v1(void **state);
int tsock_setup_v2(void **state);
int tsock_teardown(void **state);

uint64_t ctrl_read(struct tsock *ts);
void ctrl_write(struct tsock *ts, uint64_t value);
uint64_t mbox_read(struct tsock *ts, unsigned int qword);
void mbox_write(struct tsock *ts, unsigned int qword, uint64_t value);
uint64_t reg_read(struct tsock *ts, uint32_t reg);
unsigned int ctrl_owner(uint64_t ctrl);
unsigned int ctrl_status(uint64_t ctrl);
uint32_t ctrl_packet_size(uint64_t ctrl);
uint32_t ctrl_msg_size(uint64_t ctrl);

/* Linux's steps; return 0 or the negative errno Linux would return. */
int lx_acquire(struct tsock *ts, uint64_t first_qword);
int lx_poll_rdy(struct tsock *ts, uint64_t *ctrl);
/*
 * Acquire and ask for the state certificate (an 8-byte command packet), as
 * Linux does; the control register as the model answers, one packet at a time.
 */
uint64_t lx_request_state(struct tsock *ts);
int lx_read(struct tsock *ts, uint64_t command, bool meter_current,
	    uint8_t *buf, size_t *len);
/* msg_size_equal: current Linux (MSG_SIZE = PACKET_SIZE) or early (0). */
int lx_write(struct tsock *ts, uint64_t command, const void *payload,
	     size_t len, bool msg_size_equal);

/*
 * ATTESTATION (0x1012) as Intel's driver frames it: the request padded,
 * its length, the command; PACKET_SIZE = MSG_SIZE = the total; the answer
 * read back and unframed into rsp (SDSI_READ_MSG_MAX bytes).  -EIO for an
 * answer whose frame is wrong, -EOVERFLOW for a request over 1008 bytes.
 * lx_attest_raw writes a packet of size bytes as it is and returns the
 * framed answer.
 */
int lx_attest(struct tsock *ts, const void *req, size_t len, uint8_t *rsp,
	      size_t *rsp_len);
int lx_attest_raw(struct tsock *ts, const void *packet, size_t size,
		  uint8_t *answer, size_t *got);

/* Fields of the register file. */
unsigned int akc_failures(struct tsock *ts);
unsigned int cap_failures(struct tsock *ts);
unsigned int updates_available(struct tsock *ts);

#endif /* SDSI_TESTS_UNIT_MODEL_LINUX_MMIO_H */
