// SPDX-License-Identifier: GPL-2.0-only
/*
 * The On Demand mailbox protocol, as the Linux intel_sdsi driver performs it
 * (docs/interface.md §2.4-2.6 and §9.1-9.2).  Every access to the device is a
 * 64-bit read or write through mb->ops, so the sequence of MMIO accesses seen
 * by the hardware is the one Linux produces.
 */
#include "sdsi_mbox.h"

#include <sdsi/bitfield.h>
#include <sdsi/hw.h>
#include <sdsi/le.h>

#ifdef __KERNEL__
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/iopoll.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/string.h>

/* The early driver's habits are played by the FUSE driver only. */
#define MBOX_HAS_EARLY		0
#else
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MBOX_HAS_EARLY		1
#endif

#define MBOX_QWORD		8u
/* Largest retry delay whose microsecond count fits the sleep_us argument. */
#define MBOX_MAX_RETRY_DELAY_MS	(0xffffffffu / 1000u)
/* The longest diagnostic: the size warning with two 10-digit counts. */
#define MBOX_LOG_MAX		64u

enum mbox_wait {
	MBOX_WAIT_INBAND_OWNER,
	MBOX_WAIT_RDY,
};

static size_t qword_align(size_t bytes)
{
	return (bytes + MBOX_QWORD - 1) & ~(size_t)(MBOX_QWORD - 1);
}

static unsigned int ctrl_owner(u64 ctrl)
{
	return (unsigned int)SDSI_FIELD_GET(SDSI_CTRL_OWNER_MASK, ctrl);
}

/* The early driver's flavour, never true in the kernel build. */
static bool mbox_early(const struct sdsi_mbox *mb)
{
	return MBOX_HAS_EARLY && mb->params.flavor == SDSI_ABI_EARLY;
}

/* A transaction runs under the caller's lock (lockdep checks it). */
static void mbox_assert_held(const struct sdsi_mbox *mb)
{
#ifdef __KERNEL__
	lockdep_assert_held(mb->lock);
#endif
}

static u64 ctrl_read(const struct sdsi_mbox *mb)
{
	return mb->ops->read64(mb->ctx, mb->control_off);
}

static void ctrl_write(const struct sdsi_mbox *mb, u64 ctrl)
{
	mb->ops->write64(mb->ctx, mb->control_off, ctrl);
}

static void mbox_write_qword(const struct sdsi_mbox *mb, u32 index,
			     u64 value)
{
	mb->ops->write64(mb->ctx, mb->mbox_off + index * MBOX_QWORD, value);
}

/* Copy bytes (a multiple of 8) from an MMIO window, one readq per qword. */
static void mmio_copy_from(const struct sdsi_mbox *mb, void *dst,
			   u32 offset, size_t bytes)
{
	unsigned char *out = dst;
	u64 qword;
	size_t done;

	for (done = 0; done < bytes; done += MBOX_QWORD) {
		qword = mb->ops->read64(mb->ctx, offset + (u32)done);
		memcpy(out + done, &qword, MBOX_QWORD);
	}
}

/*
 * Setting CPL alone hands the mailbox back to firmware; during a multi-packet
 * read it also tells firmware to present the next packet.
 */
static void mbox_release(const struct sdsi_mbox *mb)
{
	ctrl_write(mb, SDSI_CTRL_CPL);
}

static bool ctrl_reached(u64 ctrl, enum mbox_wait wait)
{
	if (wait == MBOX_WAIT_RDY)
		return ctrl & SDSI_CTRL_RDY;
	return ctrl_owner(ctrl) == SDSI_OWNER_INBAND;
}

#ifdef __KERNEL__
/*
 * The kernel's own poll, as Linux's driver polls: read_poll_timeout() over
 * the transport's read, which samples once more after the deadline.  *ctrl
 * is the last sample in every case: acquire needs the owner it shows.
 */
static int ctrl_poll(const struct sdsi_mbox *mb, enum mbox_wait wait,
		     u32 timeout_us, u64 *ctrl)
{
	return read_poll_timeout(ctrl_read, *ctrl, ctrl_reached(*ctrl, wait),
				 mb->params.poll_us, timeout_us, false, mb);
}

static void mbox_sleep_us(const struct sdsi_mbox *mb, u32 us)
{
	fsleep(us);
}
#else
/*
 * Linux polls with readq_poll_timeout(), which sleeps usleep_range(period / 4
 * + 1, period) between reads: at most the period, and an hrtimer range ends at
 * its upper bound unless something else wakes the CPU first, so a poll comes
 * about every period.  The sleep hook sleeps at least what it is given and at
 * most twice that (nanosleep() with the default timer slack), so it is given
 * half the period: no gap longer than Linux's.
 */
static u32 poll_sleep_us(const struct sdsi_mbox *mb)
{
	/* Rounded up, so that a period of 1 us still lets time pass. */
	return mb->params.poll_us / 2 + (mb->params.poll_us & 1);
}

static void mbox_sleep_us(const struct sdsi_mbox *mb, u32 us)
{
	mb->ops->sleep_us(mb->ctx, us);
}

/*
 * Sample the control register every poll period until the condition holds or
 * timeout_us has passed.  The register is sampled once more after the
 * deadline, so that a caller that slept past it still sees a late change.
 * *ctrl is the last sample in every case: acquire needs the owner it shows.
 */
static int ctrl_poll(const struct sdsi_mbox *mb, enum mbox_wait wait,
		     u32 timeout_us, u64 *ctrl)
{
	u64 deadline = mb->ops->now_us(mb->ctx) + timeout_us;

	for (;;) {
		*ctrl = ctrl_read(mb);
		if (ctrl_reached(*ctrl, wait))
			return 0;
		if (mb->ops->now_us(mb->ctx) > deadline) {
			*ctrl = ctrl_read(mb);
			return ctrl_reached(*ctrl, wait) ? 0 : -ETIMEDOUT;
		}
		mbox_sleep_us(mb, poll_sleep_us(mb));
	}
}
#endif

/*
 * Ownership is requested by writing the first qword of the message, not by a
 * control write.  Firmware throttles agents that use the mailbox often (its
 * "leaky bucket"), so a free mailbox may take up to about 2.1 s to be granted:
 * while nobody owns it, the request is repeated after a long sleep.  Once
 * another agent owns it, waiting longer is pointless.
 */
static int mbox_acquire(const struct sdsi_mbox *mb, u64 first_qword)
{
	u32 retries = 0;
	u64 ctrl;
	int ret;

	ctrl = ctrl_read(mb);
	if (ctrl_owner(ctrl) != SDSI_OWNER_NONE)
		return -EBUSY;

	for (;;) {
		mbox_write_qword(mb, 0, first_qword);
		ret = ctrl_poll(mb, MBOX_WAIT_INBAND_OWNER,
				mb->params.acquire_timeout_us, &ctrl);
		if (!ret || ctrl_owner(ctrl) != SDSI_OWNER_NONE)
			return ret;
		if (retries++ >= mb->params.acquire_retries)
			return -ETIMEDOUT;
		mbox_sleep_us(mb, mb->params.acquire_retry_delay_ms * 1000u);
	}
}

static int status_to_errno(unsigned int status)
{
	if (status == SDSI_STATUS_SUCCESS)
		return 0;
	if (status == SDSI_STATUS_TIMEOUT)
		return -ETIMEDOUT;
	return -EIO;
}

/* Upstream's diagnostics, word for word and level for level. */
static void mbox_log(const struct sdsi_mbox *mb, enum sdsi_mbox_level level,
		     const char *msg)
{
	if (mb->ops->log)
		mb->ops->log(mb->ctx, level, msg);
}

/* The two counts of a multi-packet message whose MSG_SIZE disagrees. */
static void warn_size_mismatch(const struct sdsi_mbox *mb, u32 total,
			       u32 msg_size)
{
	char msg[MBOX_LOG_MAX];

	if (!mb->ops->log)
		return;
	snprintf(msg, sizeof(msg), "Read count %u differs from expected count %u",
		 total, msg_size);
	mbox_log(mb, SDSI_MBOX_WARN, msg);
}

/*
 * The part of a transaction after the request, shared by reads and writes:
 * wait for each packet, check it, copy it to buf (NULL when the caller keeps
 * no answer) and acknowledge it with CPL, for at most four packets.  Every
 * packet is presented at the start of the mailbox, and only the last one may
 * be shorter than the mailbox.
 *
 * Exactly one CPL answers each RDY, as in Linux: the one after a packet taken
 * (which, on the last, releases the mailbox), the one after an empty answer,
 * or the one after a packet refused or a wait that failed.  A message without
 * EOM in four packets has had its four CPLs and gets none more.  The caller
 * must not write another.
 */
static int mbox_transfer(const struct sdsi_mbox *mb, unsigned char *buf,
			 size_t *len)
{
	u32 packet = 0, packet_size, msg_size = 0, total = 0;
	bool eom = false;
	u64 ctrl;
	int ret;

	do {
		ret = ctrl_poll(mb, MBOX_WAIT_RDY, mb->params.rdy_timeout_us,
				&ctrl);
		if (ret)
			break;

		eom = ctrl & SDSI_CTRL_EOM;
		packet_size = (u32)SDSI_FIELD_GET(SDSI_CTRL_PACKET_SIZE_MASK, ctrl);
		msg_size = (u32)SDSI_FIELD_GET(SDSI_CTRL_MSG_SIZE_MASK, ctrl);

		ret = status_to_errno((unsigned int)SDSI_FIELD_GET(SDSI_CTRL_STATUS_MASK,
								   ctrl));
		if (ret)
			break;

		/* Nothing to read: a write completed, or the message ended. */
		if (!packet_size) {
			mbox_release(mb);
			break;
		}

		/* Linux tests these in this order, so its message is ours. */
		if (!eom && packet_size != SDSI_MBOX_SIZE) {
			mbox_log(mb, SDSI_MBOX_ERR, "Invalid packet size");
			ret = -EPROTO;
			break;
		}
		if (packet_size > SDSI_MBOX_SIZE) {
			mbox_log(mb, SDSI_MBOX_ERR, "Packet size too large");
			ret = -EPROTO;
			break;
		}

		if (buf)
			mmio_copy_from(mb, buf + total, mb->mbox_off,
				       qword_align(packet_size));
		total += packet_size;

		mbox_release(mb);
	} while (!eom && ++packet < SDSI_MBOX_MAX_PACKETS);

	if (ret) {
		mbox_release(mb);
		return ret;
	}

	/* Also reached by an empty packet that does not end the message. */
	if (!eom) {
		mbox_log(mb, SDSI_MBOX_ERR, "Exceeded read attempts");
		return -EPROTO;
	}

	/* Firmware fills MSG_SIZE only for messages of several packets. */
	if (packet && total != msg_size)
		warn_size_mismatch(mb, total, msg_size);

	*len = total;
	return 0;
}

/*
 * Qword number index of the write packet, which is the payload zero-padded to
 * 8 bytes followed by the command.  Built one qword at a time so that no
 * 1 KiB packet sits on the (kernel) stack.
 */
static u64 write_packet_qword(const unsigned char *payload, size_t len,
			      u64 command, u32 index)
{
	size_t start = (size_t)index * MBOX_QWORD;
	u64 qword = 0;

	if (start >= qword_align(len))
		return command;
	memcpy(&qword, payload + start,
	       len - start < MBOX_QWORD ? len - start : MBOX_QWORD);
	return qword;
}

void sdsi_mbox_default_params(struct sdsi_mbox_params *params)
{
	params->poll_us = 100;
	params->acquire_timeout_us = 1000;
	params->acquire_retries = 5;
	params->acquire_retry_delay_ms = 500;
	params->rdy_timeout_us = 500000;
	params->flavor = SDSI_ABI_CURRENT;
}

int sdsi_mbox_init(struct sdsi_mbox *mb, u32 guid,
		   const struct sdsi_mbox_ops *ops, void *ctx,
		   const struct sdsi_mbox_params *params)
{
	struct sdsi_mbox_params chosen;
	u32 ctrl_size, regs_size;
	unsigned int layout;

	if (!mb || !ops || !ops->read64 || !ops->write64)
		return -EINVAL;
#ifndef __KERNEL__
	if (!ops->sleep_us || !ops->now_us)
		return -EINVAL;
#endif

	if (params)
		chosen = *params;
	else
		sdsi_mbox_default_params(&chosen);
	/* A zero poll period would spin without ever letting time pass. */
	if (!chosen.poll_us ||
	    chosen.acquire_retry_delay_ms > MBOX_MAX_RETRY_DELAY_MS)
		return -EINVAL;

	if (MBOX_HAS_EARLY && chosen.flavor == SDSI_ABI_EARLY) {
		/* The early driver knew one layout and used it for any GUID. */
		layout = 1;
	} else {
		if (chosen.flavor != SDSI_ABI_CURRENT)
			return -EINVAL;
		layout = sdsi_guid_layout(guid);
		if (!layout)
			return -ENODEV;
	}
	ctrl_size = sdsi_layout_ctrl_size(layout);
	regs_size = sdsi_layout_regs_size(layout);

	mb->ops = ops;
	mb->ctx = ctx;
	mb->params = chosen;
	mb->guid = guid;
	mb->control_off = 0;
	mb->mbox_off = ctrl_size;
	mb->regs_off = ctrl_size + SDSI_MBOX_SIZE;
	mb->regs_size = regs_size;
	return 0;
}

bool sdsi_mbox_iblocked(const struct sdsi_mbox *mb)
{
	/* The early driver never looked at the lock. */
	if (mbox_early(mb))
		return false;
	return ctrl_read(mb) & SDSI_CTRL_IBLOCK;
}

int sdsi_mbox_read(struct sdsi_mbox *mb, u64 command, bool meter_current,
		   void *buf, size_t *len)
{
	u64 ctrl;
	int ret;

	if (!buf || !len)
		return -EINVAL;
	*len = 0;

	mbox_assert_held(mb);
	ret = mbox_acquire(mb, command);
	if (ret)
		return ret;

	ctrl = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
	       SDSI_FIELD_PREP(SDSI_CTRL_PACKET_SIZE_MASK, SDSI_CMD_SIZE);
	if (meter_current)
		ctrl |= SDSI_CTRL_METER_CURRENT;
	ctrl_write(mb, ctrl);

	return mbox_transfer(mb, buf, len);
}

int sdsi_mbox_write(struct sdsi_mbox *mb, u64 command,
		    const void *payload, size_t len)
{
	u32 qwords, index;
	u64 ctrl, size;
	size_t answered;
	int ret;

	if (len > SDSI_WRITE_PAYLOAD_MAX)
		return -EOVERFLOW;
	if (!payload && len)
		return -EINVAL;

	qwords = (u32)(qword_align(len) / MBOX_QWORD) + 1;
	size = (u64)qwords * MBOX_QWORD;

	mbox_assert_held(mb);
	ret = mbox_acquire(mb, write_packet_qword(payload, len, command, 0));
	if (ret)
		return ret;

	for (index = 1; index < qwords; index++)
		mbox_write_qword(mb, index,
				 write_packet_qword(payload, len, command,
						    index));

	ctrl = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
	       SDSI_CTRL_READ_WRITE | SDSI_FIELD_PREP(SDSI_CTRL_PACKET_SIZE_MASK, size);
	/* Newer firmware wants the message size of every command. */
	if (!mbox_early(mb))
		ctrl |= SDSI_FIELD_PREP(SDSI_CTRL_MSG_SIZE_MASK, size);
	ctrl_write(mb, ctrl);

	/* The transfer writes the transaction's one CPL, on every path. */
	return mbox_transfer(mb, NULL, &answered);
}

/*
 * Qword number index of an ATTESTATION packet: the request zero-padded to
 * 8 bytes, its unpadded length, the command.
 */
static u64 attest_packet_qword(const unsigned char *req, size_t len,
			       u32 index)
{
	u32 body = (u32)(qword_align(len) / MBOX_QWORD);

	if (index < body)
		return write_packet_qword(req, len, 0, index);
	return index == body ? (u64)len : SDSI_CMD_ATTESTATION;
}

int sdsi_mbox_exchange(struct sdsi_mbox *mb, const void *req, size_t len,
		       void *rsp, size_t *rsp_len)
{
	unsigned char *answer = rsp;
	u32 qwords, index;
	u64 ctrl, size, unpadded;
	size_t total;
	int ret;

	if (!req || !len || !rsp || !rsp_len)
		return -EINVAL;
	if (len > SDSI_ATTEST_REQUEST_MAX)
		return -EOVERFLOW;
	*rsp_len = 0;

	qwords = (u32)(qword_align(len) / MBOX_QWORD) + 2;
	size = (u64)qwords * MBOX_QWORD;
	mbox_assert_held(mb);
	ret = mbox_acquire(mb, attest_packet_qword(req, len, 0));
	if (ret)
		return ret;
	for (index = 1; index < qwords; index++)
		mbox_write_qword(mb, index, attest_packet_qword(req, len, index));
	/* attestation.rst: PACKET_SIZE and MSG_SIZE both the total. */
	ctrl = SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY |
	       SDSI_CTRL_READ_WRITE | SDSI_FIELD_PREP(SDSI_CTRL_PACKET_SIZE_MASK, size) |
	       SDSI_FIELD_PREP(SDSI_CTRL_MSG_SIZE_MASK, size);
	ctrl_write(mb, ctrl);

	/* The answer comes back as a read's does; the transfer ends it. */
	ret = mbox_transfer(mb, answer, &total);
	if (ret)
		return ret;
	/*
	 * The response padded to 8, then its unpadded length; Intel's driver
	 * refuses anything else as malformed, and so do we.
	 */
	if (total < MBOX_QWORD || total % MBOX_QWORD)
		return -EIO;
	unpadded = sdsi_le64(answer + total - MBOX_QWORD);
	if (unpadded > total - MBOX_QWORD ||
	    total - MBOX_QWORD - unpadded >= MBOX_QWORD)
		return -EIO;
	*rsp_len = (size_t)unpadded;
	return 0;
}

void sdsi_mbox_read_registers(const struct sdsi_mbox *mb, void *buf)
{
	mmio_copy_from(mb, buf, mb->regs_off, mb->regs_size);
}
