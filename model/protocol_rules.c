// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mailbox protocol's rules, as one table, and the record of the
 * accesses that broke them.  Each rule is something every upstream
 * intel_sdsi driver (Linux 6.1, 6.12, 7.2) keeps on every path, errors
 * included; docs/protocol-rules.md says why each one holds.  The ids are
 * stable: tests, scripts and `ctl violations` match them.
 */
#include "model_priv.h"

static const struct {
	const char *id;
	const char *text;
} rules[SDSI_RULE_COUNT] = {
	[SDSI_RULE_UNALIGNED] = { "unaligned",
		"MMIO access not on a qword boundary" },
	[SDSI_RULE_READ_ONLY] = { "read-only",
		"write to a read-only register (control qword 1, the register file, or past the region)" },
	[SDSI_RULE_FIRMWARE_BITS] = { "firmware-bits",
		"control write sets a firmware-owned field (OWNER, RDY, STATUS or IBLOCK)" },
	[SDSI_RULE_CPL_TWICE] = { "cpl-twice",
		"CPL written again after the CPL that ended the transaction" },
	[SDSI_RULE_CPL_UNOWNED] = { "cpl-unowned",
		"CPL written while the agent does not own the mailbox" },
	[SDSI_RULE_CPL_NO_COMMAND] = { "cpl-no-command",
		"CPL written while owning the mailbox before any command ran" },
	[SDSI_RULE_CPL_NOT_ALONE] = { "cpl-not-alone",
		"CPL written together with other control bits" },
	[SDSI_RULE_RUN_UNOWNED] = { "run-unowned",
		"RUN_BUSY set while the agent does not own the mailbox" },
	[SDSI_RULE_RUN_ACTIVE] = { "run-active",
		"RUN_BUSY set while a command is still under way" },
	[SDSI_RULE_CTRL_NO_ACTION] = { "ctrl-no-action",
		"control write with neither RUN_BUSY nor CPL" },
	[SDSI_RULE_COMMAND_FRAME] = { "command-frame",
		"command without both SOM and EOM (one packet per request)" },
	[SDSI_RULE_PACKET_SIZE] = { "packet-size",
		"PACKET_SIZE of a command: a read's is 8, a write's a multiple of 8 from 8 to 1024" },
	[SDSI_RULE_MSG_SIZE] = { "msg-size",
		"MSG_SIZE of a command is neither 0 nor its PACKET_SIZE" },
	[SDSI_RULE_MBOX_WRITE_UNOWNED] = { "mbox-write-unowned",
		"mailbox write past qword 0 while the agent does not own the mailbox" },
	[SDSI_RULE_MBOX_WRITE_BUSY] = { "mbox-write-busy",
		"mailbox write after RUN_BUSY, before the transaction ended" },
	[SDSI_RULE_MBOX_READ_NOT_READY] = { "mbox-read-not-ready",
		"mailbox read while no packet is presented (before RDY, or no read command)" },
	[SDSI_RULE_MBOX_READ_PAST_PACKET] = { "mbox-read-past-packet",
		"mailbox read beyond the packet's PACKET_SIZE rounded up to a qword" },
	[SDSI_RULE_WRITE_NO_COMMAND] = { "write-no-command",
		"write whose last qword is no write command (PROVISION_AKC, PROVISION_CAP, ATTESTATION)" },
	[SDSI_RULE_ATTEST_FRAME] = { "attest-frame",
		"ATTESTATION request whose length qword or MSG_SIZE disagrees with its PACKET_SIZE" },
	[SDSI_RULE_CPL_SKIPS_PACKET] = { "cpl-skips-packet",
		"CPL during a multi-packet read before a control read showed the packet's RDY" },
	[SDSI_RULE_MBOX_READ_AFTER_LAST] = { "mbox-read-after-last",
		"mailbox read after the CPL that took a read's last packet" },
};

const char *sdsi_rule_id(enum sdsi_rule rule)
{
	return (unsigned int)rule < SDSI_RULE_COUNT ? rules[rule].id : "unknown";
}

const char *sdsi_rule_text(enum sdsi_rule rule)
{
	return (unsigned int)rule < SDSI_RULE_COUNT ? rules[rule].text :
		"unknown rule";
}

void protocol_record(struct sdsi_model *m, enum sdsi_rule rule,
		     uint32_t offset, uint64_t value, bool write, uint64_t now)
{
	struct model_protocol *p = &m->protocol;
	struct sdsi_violation *v;

	sdsi_assert_held(&m->lock);
	if (rule >= SDSI_RULE_COUNT)
		return;		/* the access keeps every rule */
	v = &p->kept[p->count % SDSI_MODEL_VIOLATIONS_KEPT];
	p->count++;
	v->seq = p->count;
	v->time_ns = now;
	v->offset = offset;
	v->value = value;
	v->write = write;
	v->rule = rule;
}

uint64_t sdsi_model_violation_count(struct sdsi_model *m)
{
	return model_counter(m, &m->protocol.count);
}

unsigned int sdsi_model_violations(struct sdsi_model *m,
				   struct sdsi_violation *out, unsigned int max)
{
	const struct model_protocol *p = &m->protocol;
	uint64_t first, seq;
	unsigned int n = 0;

	sdsi_lock_take(&m->lock);
	first = p->count > SDSI_MODEL_VIOLATIONS_KEPT ?
		p->count - SDSI_MODEL_VIOLATIONS_KEPT : 0;
	/* The latest max of those kept, oldest first. */
	if (p->count - first > max)
		first = p->count - max;
	for (seq = first; seq < p->count; seq++)
		out[n++] = p->kept[seq % SDSI_MODEL_VIOLATIONS_KEPT];
	sdsi_lock_release(&m->lock);
	return n;
}
