// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control register and the mailbox state machine (docs/interface.md
 * §2.4-2.6): ownership requested by the first mailbox write, a command started
 * by RUN_BUSY, its answer presented in 1 KiB packets at mailbox offset 0, CPL
 * to advance or to release.  The register is composed from this state on each
 * read, so the driver-written owner, RDY, status and IBLOCK bits never stick.
 */
#include "model_priv.h"
#include "sdsi/bitfield.h"

/* PACKET_SIZE reported by the bad-packet-size fault: one qword too many. */
#define FAULT_PACKET_SIZE	(SDSI_MBOX_SIZE + SDSI_CMD_SIZE)

bool mailbox_packet_ready(const struct model_mailbox *mb, uint64_t now)
{
	return mb->phase == MBOX_ACTIVE && !mb->no_rdy && now >= mb->rdy_at;
}

void mailbox_reset(struct sdsi_model *m)
{
	sdsi_assert_held(&m->lock);
	memset(&m->mbox, 0, sizeof(m->mbox));
}

static void release(struct model_mailbox *mb)
{
	mb->phase = MBOX_FREE;
}

/* A command whose answer carries no data: writes, and every failure. */
static void finish_without_data(struct model_mailbox *mb, uint8_t status)
{
	mb->status = status;
	mb->message_len = 0;
	mb->msg_size_extra = 0;
	mb->packet_size = 0;
	mb->packet_flags = SDSI_CTRL_SOM | SDSI_CTRL_EOM;
	mb->packet_ends = true;
}

/*
 * Put packet mb->packet of the message into the window.  Under the no-eom
 * fault the message seems to go on: packets past its end are zero filler.
 * The packet ends the transaction (its CPL releases the mailbox) when it has
 * EOM, when a driver must reject it (over 1 KiB, or short without EOM), or
 * when it fills the last of the four packets a read may span.
 */
static void present_packet(struct model_mailbox *mb)
{
	uint8_t window[SDSI_MBOX_SIZE] = { 0 };
	uint32_t off = mb->packet * SDSI_MBOX_SIZE;
	uint32_t bytes = SDSI_MBOX_SIZE;
	bool last = true;
	unsigned int i;

	if (off < mb->message_len) {
		if (mb->message_len - off < bytes)
			bytes = mb->message_len - off;
		last = off + bytes >= mb->message_len;
		memcpy(window, mb->message + off, bytes);
	}
	for (i = 0; i < SDSI_MBOX_SIZE / 8; i++)
		mb->data[i] = sdsi_le64(window + 8 * i);

	mb->packet_flags = mb->packet ? 0 : SDSI_CTRL_SOM;
	if (last && !mb->no_eom)
		mb->packet_flags |= SDSI_CTRL_EOM;
	mb->packet_size = bytes;
	if (!mb->packet && mb->bad_packet_size)
		mb->packet_size = FAULT_PACKET_SIZE;
	mb->packet_ends = (mb->packet_flags & SDSI_CTRL_EOM) ||
			  mb->packet_size != SDSI_MBOX_SIZE ||
			  mb->packet + 1 >= SDSI_MBOX_MAX_PACKETS;
}

static void mailbox_bytes(const struct model_mailbox *mb, uint8_t *out,
			  uint32_t bytes)
{
	uint32_t i;

	for (i = 0; i < bytes / 8; i++)
		sdsi_put_le64(out + 8 * i, mb->data[i]);
}

/* The answer of a command is presented packet by packet from the first. */
static void present_message(struct model_mailbox *mb, uint32_t len)
{
	mb->status = SDSI_STATUS_SUCCESS;
	mb->message_len = len;
	mb->packet = 0;
	present_packet(mb);
}

/*
 * The faults of an answer read back packet by packet, taken when the
 * answer is made, a certificate's or an SPDM response's alike: each
 * transaction that answers with data takes them, so none outlives the
 * answer it was armed for.  Returns the answer's length (too-many-packets
 * pads it with zero filler to the most a read holds).
 */
static uint32_t take_answer_faults(struct sdsi_model *m, uint32_t len)
{
	struct model_mailbox *mb = &m->mbox;

	mb->bad_packet_size = fault_take(m, SDSI_FAULT_BAD_PACKET_SIZE, NULL);
	mb->no_eom = fault_take(m, SDSI_FAULT_NO_EOM, NULL);
	mb->msg_size_extra = 0;
	fault_take(m, SDSI_FAULT_MSG_SIZE, &mb->msg_size_extra);
	if (fault_take(m, SDSI_FAULT_TOO_MANY_PACKETS, NULL)) {
		memset(mb->message + len, 0, MODEL_MSG_MAX - len);
		len = MODEL_MSG_MAX;
	}
	return len;
}

/*
 * A write packet: payload, then the command in its last qword.  Multi-packet
 * writes (SOM without EOM) are not something this firmware accepts; MSG_SIZE
 * is 0 from the early driver and equal to PACKET_SIZE from the current one.
 * Provisioning answers with its status alone; ATTESTATION (on a part with
 * bit 12) with an SPDM response read back like a certificate.
 */
static void run_write(struct sdsi_model *m)
{
	struct model_mailbox *mb = &m->mbox;
	uint32_t size = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_PACKET_SIZE_MASK, mb->request);
	uint32_t msg = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_MSG_SIZE_MASK, mb->request);
	uint8_t packet[SDSI_MBOX_SIZE];
	uint64_t command;
	uint32_t len;

	if ((mb->request & (SDSI_CTRL_SOM | SDSI_CTRL_EOM)) !=
	    (SDSI_CTRL_SOM | SDSI_CTRL_EOM) ||
	    size < SDSI_CMD_SIZE || size > SDSI_MBOX_SIZE || size % 8 ||
	    (msg && msg != size)) {
		finish_without_data(mb, SDSI_STATUS_FAILURE);
		return;
	}
	mailbox_bytes(mb, packet, size);
	command = mb->data[size / 8 - 1];
	if (command == SDSI_CMD_ATTESTATION &&
	    (m->features & SDSI_FEATURE_ATTESTATION)) {
		len = attest_execute(m, packet, size, msg, mb->message);
		if (len)
			present_message(mb, take_answer_faults(m, len));
		else
			finish_without_data(mb, SDSI_STATUS_FAILURE);
		return;
	}
	finish_without_data(mb, provision_execute(m, command, packet,
						  size - SDSI_CMD_SIZE));
}

static uint32_t build_answer(struct sdsi_model *m, uint64_t command,
			     uint64_t now)
{
	bool current = m->mbox.request & SDSI_CTRL_METER_CURRENT;

	if (!(m->features & SDSI_FEATURE_ON_DEMAND))
		return 0;
	if (command == SDSI_CMD_READ_STATE)
		return certs_state(m, m->mbox.message);
	if (command == SDSI_CMD_READ_METER &&
	    (m->features & SDSI_FEATURE_METERING))
		return certs_meter(m, current, now, m->mbox.message);
	return 0;
}

/* A read request: PACKET_SIZE 8, the command in mailbox qword 0. */
static void run_read(struct sdsi_model *m, uint64_t now)
{
	struct model_mailbox *mb = &m->mbox;
	uint32_t size = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_PACKET_SIZE_MASK, mb->request);
	uint32_t msg = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_MSG_SIZE_MASK, mb->request);
	uint32_t len = 0;

	if (size == SDSI_CMD_SIZE && (!msg || msg == SDSI_CMD_SIZE))
		len = build_answer(m, mb->data[0], now);
	if (!len) {
		finish_without_data(mb, SDSI_STATUS_FAILURE);
		return;
	}
	present_message(mb, take_answer_faults(m, len));
}

static void start_command(struct sdsi_model *m, uint64_t request, uint64_t now)
{
	struct model_mailbox *mb = &m->mbox;
	uint32_t latency_us = 0;

	mb->phase = MBOX_ACTIVE;
	mb->request = request;
	mb->advancing = false;
	fault_take(m, SDSI_FAULT_RDY_LATENCY, &latency_us);
	mb->rdy_latency_ns = (uint64_t)latency_us * 1000u;
	mb->rdy_at = now + mb->rdy_latency_ns;
	mb->no_rdy = fault_take(m, SDSI_FAULT_NO_RDY, NULL);

	/* Firmware errors strike before the command does anything. */
	if (fault_take(m, SDSI_FAULT_STATUS_TIMEOUT, NULL))
		finish_without_data(mb, SDSI_STATUS_TIMEOUT);
	else if (fault_take(m, SDSI_FAULT_STATUS_FAILURE, NULL))
		finish_without_data(mb, SDSI_STATUS_FAILURE);
	else if (request & SDSI_CTRL_READ_WRITE)
		run_write(m);
	else
		run_read(m, now);
}

/* CPL: next packet of a read in progress, else the end of the transaction. */
static void complete(struct model_mailbox *mb, uint64_t now)
{
	if (mailbox_packet_ready(mb, now) && !mb->packet_ends) {
		mb->packet++;
		present_packet(mb);
		mb->advancing = true;
		mb->rdy_seen = false;
		mb->rdy_at = now + mb->rdy_latency_ns;
		return;
	}
	release(mb);
	mb->released_by_cpl = true;
}

uint64_t mailbox_read_control(struct sdsi_model *m, uint64_t now)
{
	struct model_mailbox *mb = &m->mbox;
	uint64_t ctrl = m->iblock ? SDSI_CTRL_IBLOCK : 0;

	sdsi_assert_held(&m->lock);
	if (mb->phase == MBOX_FREE) {
		/* Each look at a free mailbox is one in-band attempt turned away. */
		if (fault_take(m, SDSI_FAULT_OOB_OWNER, NULL))
			ctrl |= SDSI_FIELD_PREP(SDSI_CTRL_OWNER_MASK, SDSI_OWNER_OUT_OF_BAND);
		return ctrl;
	}
	ctrl |= SDSI_FIELD_PREP(SDSI_CTRL_OWNER_MASK, SDSI_OWNER_INBAND);
	if (mb->phase == MBOX_OWNED)
		return ctrl;

	ctrl |= mb->request & SDSI_CTRL_READ_WRITE;
	if (mailbox_packet_ready(mb, now)) {
		mb->rdy_seen = true;
		ctrl |= SDSI_CTRL_RDY | mb->packet_flags |
			SDSI_FIELD_PREP(SDSI_CTRL_STATUS_MASK, mb->status) |
			SDSI_FIELD_PREP(SDSI_CTRL_PACKET_SIZE_MASK, mb->packet_size) |
			SDSI_FIELD_PREP(SDSI_CTRL_MSG_SIZE_MASK,
					(uint64_t)mb->message_len + mb->msg_size_extra);
	} else if (mb->advancing) {
		ctrl |= SDSI_CTRL_CPL;
	} else {
		/* Still busy: the request's own fields read back. */
		ctrl |= SDSI_CTRL_RUN_BUSY |
			(mb->request & (SDSI_CTRL_SOM | SDSI_CTRL_EOM |
					SDSI_CTRL_PACKET_SIZE_MASK |
					SDSI_CTRL_METER_CURRENT |
					SDSI_CTRL_MSG_SIZE_MASK));
	}
	return ctrl;
}

void mailbox_write_control(struct sdsi_model *m, uint64_t value, uint64_t now)
{
	struct model_mailbox *mb = &m->mbox;

	sdsi_assert_held(&m->lock);
	if (mb->phase == MBOX_FREE)
		return;
	if (value & SDSI_CTRL_CPL)
		complete(mb, now);
	else if (mb->phase == MBOX_OWNED && (value & SDSI_CTRL_RUN_BUSY))
		start_command(m, value, now);
}

uint64_t mailbox_read(struct sdsi_model *m, uint32_t index)
{
	sdsi_assert_held(&m->lock);
	return m->mbox.data[index];
}

/*
 * A write of qword 0 to a free mailbox is the request for ownership, and the
 * first qword of the message.  The leaky bucket (owner-delay fault) turns
 * requests away until its delay has passed since the first of them; the
 * agent must ask again, as Linux does every 500 ms, so an agent that gave up
 * leaves the mailbox free.  Once a command runs, the window is the firmware's.
 */
void mailbox_write(struct sdsi_model *m, uint32_t index, uint64_t value,
		   uint64_t now)
{
	struct model_mailbox *mb = &m->mbox;
	uint32_t delay_us = 0;

	sdsi_assert_held(&m->lock);
	switch (mb->phase) {
	case MBOX_FREE:
		if (index || fault_armed(m, SDSI_FAULT_OOB_OWNER))
			return;
		/*
		 * A delay, once started, is spent by the first request after
		 * it: that one is granted even while the fault stays armed,
		 * and the next transaction's first request starts a new one.
		 * Re-arming at that request instead would turn every request
		 * of an armed-until-cleared bucket away for ever.
		 */
		if (!mb->throttled_until &&
		    fault_take(m, SDSI_FAULT_OWNER_DELAY, &delay_us))
			mb->throttled_until = now + (uint64_t)delay_us * 1000u;
		if (mb->throttled_until) {
			if (now < mb->throttled_until)
				return;
			mb->throttled_until = 0;
		}
		mb->phase = MBOX_OWNED;
		mb->released_by_cpl = false;
		mb->data[0] = value;
		return;
	case MBOX_OWNED:
		mb->data[index] = value;
		return;
	case MBOX_ACTIVE:
		return;
	}
}
