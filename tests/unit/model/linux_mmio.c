// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Linux driver's register pokes against the model, on a virtual clock:
 * every sleep advances the clock instead of waiting.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include "sdsi/le.h"

#define POLL_US			100u
#define ACQUIRE_TIMEOUT_US	1000u
#define ACQUIRE_RETRIES		5u
#define ACQUIRE_RETRY_DELAY_MS	500u
#define RDY_TIMEOUT_US		500000u

static uint64_t tsock_clock(void *ctx)
{
	return ((struct tsock *)ctx)->now_ns;
}

void tsock_config(struct tsock *ts, struct sdsi_model_config *cfg,
		  uint32_t guid)
{
	memset(ts, 0, sizeof(*ts));
	/* A clock that does not start at 0 catches "time since 0" mistakes. */
	ts->now_ns = HOURS(1000) + 12345;
	memset(cfg, 0, sizeof(*cfg));
	cfg->guid = guid;
	cfg->socket_id = 2;
	cfg->ppin = 0x0123456789abcdefull;
	cfg->features = SDSI_MODEL_DEFAULT_FEATURES;
	cfg->capid1 = 0x8877665544332211ull;
	cfg->clock = tsock_clock;
	cfg->clock_ctx = ts;
}

void tsock_open(struct tsock *ts, const struct sdsi_model_config *cfg)
{
	char err[512];

	assert_int_equal(sdsi_model_create(cfg, &ts->m, err, sizeof(err)), 0);
	ts->ctrl_size = sdsi_layout_ctrl_size(sdsi_guid_layout_or_v1(cfg->guid));
}

void tsock_close(struct tsock *ts)
{
	sdsi_model_destroy(ts->m);
	ts->m = NULL;
}

const char *tsock_expect_refused(const struct sdsi_model_config *cfg, int code,
				 const char *named)
{
	static char err[512];
	struct sdsi_model *m = NULL;

	assert_int_equal(sdsi_model_create(cfg, &m, err, sizeof(err)), code);
	assert_null(m);
	if (!strstr(err, named))
		fail_msg("\"%s\" does not name \"%s\"", err, named);
	return err;
}

/* Each test program is its own process; one socket at a time is all it uses. */
static struct tsock fixture_ts;

static int tsock_setup(void **state, uint32_t guid)
{
	struct sdsi_model_config cfg;

	tsock_config(&fixture_ts, &cfg, guid);
	tsock_open(&fixture_ts, &cfg);
	*state = &fixture_ts;
	return 0;
}

int tsock_setup_v1(void **state)
{
	return tsock_setup(state, SDSI_GUID_V1);
}

int tsock_setup_v2(void **state)
{
	return tsock_setup(state, SDSI_GUID_V2);
}

int tsock_teardown(void **state)
{
	tsock_close(*state);
	return 0;
}

void tsock_advance(struct tsock *ts, uint64_t ns)
{
	ts->now_ns += ns;
}

uint64_t ctrl_read(struct tsock *ts)
{
	return sdsi_model_read64(ts->m, 0);
}

void ctrl_write(struct tsock *ts, uint64_t value)
{
	sdsi_model_write64(ts->m, 0, value);
}

uint64_t mbox_read(struct tsock *ts, unsigned int qword)
{
	return sdsi_model_read64(ts->m, ts->ctrl_size + 8 * qword);
}

void mbox_write(struct tsock *ts, unsigned int qword, uint64_t value)
{
	sdsi_model_write64(ts->m, ts->ctrl_size + 8 * qword, value);
}

uint64_t reg_read(struct tsock *ts, uint32_t reg)
{
	return sdsi_model_read64(ts->m, ts->ctrl_size + SDSI_MBOX_SIZE + reg);
}

unsigned int ctrl_owner(uint64_t ctrl)
{
	return (unsigned int)((ctrl & SDSI_CTRL_OWNER_MASK) >>
			      SDSI_CTRL_OWNER_SHIFT);
}

unsigned int ctrl_status(uint64_t ctrl)
{
	return (unsigned int)((ctrl & SDSI_CTRL_STATUS_MASK) >>
			      SDSI_CTRL_STATUS_SHIFT);
}

uint32_t ctrl_packet_size(uint64_t ctrl)
{
	return (uint32_t)((ctrl & SDSI_CTRL_PACKET_SIZE_MASK) >>
			  SDSI_CTRL_PACKET_SIZE_SHIFT);
}

uint32_t ctrl_msg_size(uint64_t ctrl)
{
	return (uint32_t)((ctrl & SDSI_CTRL_MSG_SIZE_MASK) >>
			  SDSI_CTRL_MSG_SIZE_SHIFT);
}

int lx_acquire(struct tsock *ts, uint64_t first_qword)
{
	unsigned int retry, waited;
	uint64_t ctrl;

	if (ctrl_owner(ctrl_read(ts)) != SDSI_OWNER_NONE)
		return -EBUSY;
	for (retry = 0;; retry++) {
		mbox_write(ts, 0, first_qword);
		for (waited = 0;; waited += POLL_US) {
			ctrl = ctrl_read(ts);
			if (ctrl_owner(ctrl) == SDSI_OWNER_INBAND)
				return 0;
			if (waited >= ACQUIRE_TIMEOUT_US)
				break;
			tsock_advance(ts, US(POLL_US));
		}
		if (ctrl_owner(ctrl) != SDSI_OWNER_NONE ||
		    retry == ACQUIRE_RETRIES)
			return -ETIMEDOUT;
		tsock_advance(ts, MS(ACQUIRE_RETRY_DELAY_MS));
	}
}

uint64_t lx_request_state(struct tsock *ts)
{
	assert_int_equal(lx_acquire(ts, SDSI_CMD_READ_STATE), 0);
	ctrl_write(ts, SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
		       8ull << SDSI_CTRL_PACKET_SIZE_SHIFT);
	return ctrl_read(ts);
}

int lx_poll_rdy(struct tsock *ts, uint64_t *ctrl)
{
	unsigned int waited;

	for (waited = 0;; waited += POLL_US) {
		*ctrl = ctrl_read(ts);
		if (*ctrl & SDSI_CTRL_RDY)
			return 0;
		if (waited >= RDY_TIMEOUT_US)
			return -ETIMEDOUT;
		tsock_advance(ts, US(POLL_US));
	}
}

static int status_errno(unsigned int status)
{
	if (status == SDSI_STATUS_SUCCESS)
		return 0;
	return status == SDSI_STATUS_TIMEOUT ? -ETIMEDOUT : -EIO;
}

static void complete(struct tsock *ts)
{
	ctrl_write(ts, SDSI_CTRL_CPL);
	ts->cpl_sent = true;
}

/* Linux's shared poll loop: up to four packets, CPL after each. */
static int lx_transfer(struct tsock *ts, uint8_t *buf, size_t *len)
{
	uint32_t size, i;
	uint64_t ctrl, qword;
	bool eom = false;
	int ret = 0;

	*len = 0;
	ts->packets = 0;
	do {
		ret = lx_poll_rdy(ts, &ctrl);
		if (ret)
			break;
		eom = ctrl & SDSI_CTRL_EOM;
		size = ctrl_packet_size(ctrl);
		ts->msg_size = ctrl_msg_size(ctrl);
		ret = status_errno(ctrl_status(ctrl));
		if (ret)
			break;
		if (!size) {
			complete(ts);
			break;
		}
		if ((!eom && size != SDSI_MBOX_SIZE) || size > SDSI_MBOX_SIZE) {
			ret = -EPROTO;
			break;
		}
		for (i = 0; i < (size + 7) / 8; i++) {
			qword = mbox_read(ts, i);
			memcpy(buf + *len + 8 * i, &qword, 8);
		}
		*len += size;
		complete(ts);
	} while (!eom && ++ts->packets < SDSI_MBOX_MAX_PACKETS);
	if (ret) {
		complete(ts);
		return ret;
	}
	if (!eom)
		return -EPROTO;
	ts->packets++;
	return 0;
}

int lx_read(struct tsock *ts, uint64_t command, bool meter_current,
	    uint8_t *buf, size_t *len)
{
	uint64_t ctrl = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
			(uint64_t)SDSI_CMD_SIZE << SDSI_CTRL_PACKET_SIZE_SHIFT;
	int ret;

	ts->cpl_sent = false;
	ret = lx_acquire(ts, command);
	if (ret)
		return ret;
	if (meter_current)
		ctrl |= SDSI_CTRL_METER_CURRENT;
	ctrl_write(ts, ctrl);
	return lx_transfer(ts, buf, len);
}

/*
 * Linux's write of a whole packet of size bytes (a multiple of 8): the
 * first qword with the mailbox's ownership, the rest into the mailbox,
 * then RUN_BUSY with READ_WRITE (MSG_SIZE too when msg_size_equal), and
 * the answer.
 */
static int lx_send(struct tsock *ts, const void *packet, size_t size, bool msg_size_equal,
		   uint8_t *answer, size_t *got)
{
	uint64_t ctrl, qword;
	size_t i;
	int ret;

	ts->cpl_sent = false;
	memcpy(&qword, packet, 8);
	ret = lx_acquire(ts, qword);
	if (ret)
		return ret;
	for (i = 1; i < size / 8; i++) {
		memcpy(&qword, (const uint8_t *)packet + 8 * i, 8);
		mbox_write(ts, (unsigned int)i, qword);
	}
	ctrl = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
	       SDSI_CTRL_READ_WRITE |
	       (uint64_t)size << SDSI_CTRL_PACKET_SIZE_SHIFT;
	if (msg_size_equal)
		ctrl |= (uint64_t)size << SDSI_CTRL_MSG_SIZE_SHIFT;
	ctrl_write(ts, ctrl);
	return lx_transfer(ts, answer, got);
}

int lx_write(struct tsock *ts, uint64_t command, const void *payload,
	     size_t len, bool msg_size_equal)
{
	uint8_t packet[SDSI_MBOX_SIZE] = { 0 };
	uint8_t answer[SDSI_READ_MSG_MAX];
	size_t size = (len + 7) / 8 * 8 + SDSI_CMD_SIZE, got;

	assert_true(size <= SDSI_MBOX_SIZE);
	if (len)
		memcpy(packet, payload, len);
	memcpy(packet + size - SDSI_CMD_SIZE, &command, SDSI_CMD_SIZE);
	return lx_send(ts, packet, size, msg_size_equal, answer, &got);
}

unsigned int akc_failures(struct tsock *ts)
{
	return (unsigned int)(reg_read(ts, SDSI_REG_FAIL_COUNT) >>
			      SDSI_FAIL_AKC_COUNT_SHIFT & SDSI_FIELD3_MASK);
}

unsigned int cap_failures(struct tsock *ts)
{
	return (unsigned int)(reg_read(ts, SDSI_REG_FAIL_COUNT) >>
			      SDSI_FAIL_CAP_COUNT_SHIFT & SDSI_FIELD3_MASK);
}

unsigned int updates_available(struct tsock *ts)
{
	return (unsigned int)(reg_read(ts, SDSI_REG_AVAILABILITY) >>
			      SDSI_AVAIL_UPDATES_SHIFT & SDSI_FIELD3_MASK);
}

int lx_attest_raw(struct tsock *ts, const void *packet, size_t size,
		  uint8_t *answer, size_t *got)
{
	assert_true(size <= SDSI_MBOX_SIZE && size % 8 == 0 && size >= 8);
	return lx_send(ts, packet, size, true, answer, got);
}

int lx_attest(struct tsock *ts, const void *req, size_t len, uint8_t *rsp,
	      size_t *rsp_len)
{
	uint8_t packet[SDSI_MBOX_SIZE + 16] = { 0 };
	uint8_t answer[SDSI_READ_MSG_MAX];
	size_t size = (len + 7) / 8 * 8 + SDSI_ATTEST_FRAME_EXTRA, got;
	uint64_t n;
	int ret;

	assert_true(size <= sizeof(packet));
	memcpy(packet, req, len);
	sdsi_put_le64(packet + size - 16, len);
	sdsi_put_le64(packet + size - 8, SDSI_CMD_ATTESTATION);
	if (size > SDSI_MBOX_SIZE)
		return -EOVERFLOW;
	ret = lx_attest_raw(ts, packet, size, answer, &got);
	if (ret)
		return ret;
	/* The answer's frame, as Intel's driver checks it. */
	if (got < 8 || got % 8)
		return -EIO;
	n = sdsi_le64(answer + got - 8);
	if (n > got - 8 || got - 8 - n >= 8)
		return -EIO;
	memcpy(rsp, answer, n);
	*rsp_len = n;
	return 0;
}
