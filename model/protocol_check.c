// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which protocol rule (protocol_rules.c) an access to the control register
 * or the mailbox breaks, judged against the mailbox state before the access
 * takes effect.  SDSI_RULE_COUNT: none.  Only the driver's side is judged:
 * what the firmware does with a bad access is mailbox.c's business, and it
 * serves every access as it did before these checks.
 */
#include "model_priv.h"
#include "sdsi/bitfield.h"

/* Control fields only the firmware or the BIOS sets (docs/interface.md §2.4). */
#define FIRMWARE_BITS	(SDSI_CTRL_OWNER_MASK | SDSI_CTRL_RDY | \
			 SDSI_CTRL_STATUS_MASK | SDSI_CTRL_IBLOCK)

static enum sdsi_rule check_cpl(const struct model_mailbox *mb, uint64_t value,
			       uint64_t now)
{
	if (value != SDSI_CTRL_CPL)
		return SDSI_RULE_CPL_NOT_ALONE;
	switch (mb->phase) {
	case MBOX_FREE:
		return mb->released_by_cpl ? SDSI_RULE_CPL_TWICE :
			SDSI_RULE_CPL_UNOWNED;
	case MBOX_OWNED:
		return SDSI_RULE_CPL_NO_COMMAND;
	case MBOX_ACTIVE:
		/* Before RDY too: Linux releases so when RDY never came. */
		break;
	}
	/*
	 * A packet presented by the previous CPL is taken only after a
	 * control read showed its RDY; a CPL before that moves past it
	 * unread.  (One not ready yet is a failed wait: its CPL releases.)
	 */
	if (mb->advancing && mailbox_packet_ready(mb, now) && !mb->rdy_seen)
		return SDSI_RULE_CPL_SKIPS_PACKET;
	return SDSI_RULE_COUNT;
}

/* The last qword of a write packet names one of the write commands. */
static bool write_command(uint64_t command)
{
	return command == SDSI_CMD_PROVISION_AKC ||
	       command == SDSI_CMD_PROVISION_CAP ||
	       command == SDSI_CMD_ATTESTATION;
}

/*
 * ATTESTATION's frame: the request, its length qword, the command qword;
 * PACKET_SIZE the request rounded up to 8 plus those 16 bytes, MSG_SIZE
 * the same (the attestation driver writes both).
 */
static bool attest_frame_ok(const struct model_mailbox *mb, uint32_t size,
			    uint32_t msg)
{
	uint64_t len;

	if (size < SDSI_ATTEST_FRAME_EXTRA + 8 || msg != size)
		return false;
	len = mb->data[size / 8 - 2];
	return len && (len + 7) / 8 * 8 + SDSI_ATTEST_FRAME_EXTRA == size;
}

static enum sdsi_rule check_command(const struct model_mailbox *mb,
				    uint64_t value)
{
	uint32_t size = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_PACKET_SIZE_MASK, value);
	uint32_t msg = (uint32_t)SDSI_FIELD_GET(SDSI_CTRL_MSG_SIZE_MASK, value);
	bool write = value & SDSI_CTRL_READ_WRITE;

	if (mb->phase == MBOX_FREE)
		return SDSI_RULE_RUN_UNOWNED;
	if (mb->phase == MBOX_ACTIVE)
		return SDSI_RULE_RUN_ACTIVE;
	if ((value & (SDSI_CTRL_SOM | SDSI_CTRL_EOM)) !=
	    (SDSI_CTRL_SOM | SDSI_CTRL_EOM))
		return SDSI_RULE_COMMAND_FRAME;
	if (write ? size < SDSI_CMD_SIZE || size > SDSI_MBOX_SIZE ||
		    size % SDSI_CMD_SIZE :
		    size != SDSI_CMD_SIZE)
		return SDSI_RULE_PACKET_SIZE;
	/* 0 from Linux up to 6.11 and on reads; the packet's size since. */
	if (msg && msg != size)
		return SDSI_RULE_MSG_SIZE;
	if (!write)
		return SDSI_RULE_COUNT;
	if (!write_command(mb->data[size / 8 - 1]))
		return SDSI_RULE_WRITE_NO_COMMAND;
	if (mb->data[size / 8 - 1] == SDSI_CMD_ATTESTATION &&
	    !attest_frame_ok(mb, size, msg))
		return SDSI_RULE_ATTEST_FRAME;
	return SDSI_RULE_COUNT;
}

enum sdsi_rule protocol_check_control(const struct model_mailbox *mb,
				      uint64_t value, uint64_t now)
{
	if (value & FIRMWARE_BITS)
		return SDSI_RULE_FIRMWARE_BITS;
	if (value & SDSI_CTRL_CPL)
		return check_cpl(mb, value, now);
	if (value & SDSI_CTRL_RUN_BUSY)
		return check_command(mb, value);
	return SDSI_RULE_CTRL_NO_ACTION;
}

enum sdsi_rule protocol_check_mbox_write(const struct model_mailbox *mb,
					 uint32_t index)
{
	switch (mb->phase) {
	case MBOX_FREE:
		/* Qword 0 is how ownership is asked for, as often as needed. */
		return index ? SDSI_RULE_MBOX_WRITE_UNOWNED : SDSI_RULE_COUNT;
	case MBOX_OWNED:
		return SDSI_RULE_COUNT;
	case MBOX_ACTIVE:
		break;
	}
	return SDSI_RULE_MBOX_WRITE_BUSY;
}

enum sdsi_rule protocol_check_mbox_read(const struct model_mailbox *mb,
					uint32_t ctrl_size, uint32_t index,
					uint64_t now)
{
	/*
	 * Linux 6.1 (the early driver) takes every part for V1 and reads the
	 * register file from 8 + 1024: on a V2 part its PPIN read is the
	 * mailbox's last qword, at any time.  A rule upstream breaks is a
	 * wrong rule, so that qword is not judged on a V2 part.
	 */
	if (ctrl_size == SDSI_CTRL_SIZE_V2 && index == SDSI_MBOX_SIZE / 8 - 1)
		return SDSI_RULE_COUNT;
	/* After the CPL that took a read's last packet, nothing is left. */
	if (mb->phase == MBOX_FREE && mb->released_by_cpl &&
	    mb->message_len)
		return SDSI_RULE_MBOX_READ_AFTER_LAST;
	/* A provisioning write's answer is its status: nothing to read. */
	if (!mailbox_packet_ready(mb, now) ||
	    ((mb->request & SDSI_CTRL_READ_WRITE) && !mb->message_len))
		return SDSI_RULE_MBOX_READ_NOT_READY;
	if ((uint64_t)index * 8 >= ((uint64_t)mb->packet_size + 7) / 8 * 8)
		return SDSI_RULE_MBOX_READ_PAST_PACKET;
	return SDSI_RULE_COUNT;
}
