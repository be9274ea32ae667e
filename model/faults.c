// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection.  A fault is armed for a number of transactions; the
 * mailbox takes one each time it applies the fault (faults that cannot affect
 * a transaction, such as a packet fault on a write, are not used up by it).
 */
#include <errno.h>

#include "model_priv.h"

static const char *const fault_names[SDSI_FAULT_KIND_COUNT] = {
	[SDSI_FAULT_OOB_OWNER] = "oob-owner",
	[SDSI_FAULT_NO_RDY] = "no-rdy",
	[SDSI_FAULT_STATUS_TIMEOUT] = "status-timeout",
	[SDSI_FAULT_STATUS_FAILURE] = "status-failure",
	[SDSI_FAULT_BAD_PACKET_SIZE] = "bad-packet-size",
	[SDSI_FAULT_NO_EOM] = "no-eom",
	[SDSI_FAULT_TOO_MANY_PACKETS] = "too-many-packets",
	[SDSI_FAULT_RDY_LATENCY] = "rdy-latency",
	[SDSI_FAULT_OWNER_DELAY] = "owner-delay",
	[SDSI_FAULT_ATTEST_SIGNATURE] = "attest-signature",
	[SDSI_FAULT_ATTEST_CHAIN] = "attest-chain",
	[SDSI_FAULT_ATTEST_MEASUREMENT] = "attest-measurement",
	[SDSI_FAULT_ATTEST_BUSY] = "attest-busy",
	[SDSI_FAULT_MSG_SIZE] = "msg-size",
};

static bool valid_kind(enum sdsi_fault_kind kind)
{
	return (unsigned int)kind < SDSI_FAULT_KIND_COUNT;
}

const char *sdsi_fault_name(enum sdsi_fault_kind kind)
{
	return valid_kind(kind) ? fault_names[kind] : NULL;
}

int sdsi_fault_from_name(const char *name, enum sdsi_fault_kind *kind)
{
	unsigned int i;

	for (i = 0; i < SDSI_FAULT_KIND_COUNT; i++) {
		if (!strcmp(name, fault_names[i])) {
			*kind = (enum sdsi_fault_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

int sdsi_model_fault_set(struct sdsi_model *m, enum sdsi_fault_kind kind,
			 uint32_t param, unsigned int count)
{
	if (!valid_kind(kind))
		return -EINVAL;
	sdsi_lock_take(&m->lock);
	m->faults[kind].armed = true;
	m->faults[kind].param = param;
	m->faults[kind].remaining = count;
	sdsi_lock_release(&m->lock);
	return 0;
}

/* Clearing the leaky bucket also drains a delay already running. */
static void disarm(struct sdsi_model *m, enum sdsi_fault_kind kind)
{
	m->faults[kind].armed = false;
	if (kind == SDSI_FAULT_OWNER_DELAY)
		m->mbox.throttled_until = 0;
}

void sdsi_model_fault_clear(struct sdsi_model *m, enum sdsi_fault_kind kind)
{
	if (!valid_kind(kind))
		return;
	sdsi_lock_take(&m->lock);
	disarm(m, kind);
	sdsi_lock_release(&m->lock);
}

void sdsi_model_fault_clear_all(struct sdsi_model *m)
{
	unsigned int i;

	sdsi_lock_take(&m->lock);
	for (i = 0; i < SDSI_FAULT_KIND_COUNT; i++)
		disarm(m, (enum sdsi_fault_kind)i);
	sdsi_lock_release(&m->lock);
}

int sdsi_model_fault_get(struct sdsi_model *m, enum sdsi_fault_kind kind,
			 struct sdsi_fault_state *state)
{
	if (!valid_kind(kind))
		return -EINVAL;
	sdsi_lock_take(&m->lock);
	state->armed = m->faults[kind].armed;
	state->param = state->armed ? m->faults[kind].param : 0;
	state->remaining = state->armed ? m->faults[kind].remaining : 0;
	sdsi_lock_release(&m->lock);
	return 0;
}

bool fault_armed(const struct sdsi_model *m, enum sdsi_fault_kind kind)
{
	sdsi_assert_held(&m->lock);
	return m->faults[kind].armed;
}

bool fault_take(struct sdsi_model *m, enum sdsi_fault_kind kind,
		uint32_t *param)
{
	struct model_fault *f = &m->faults[kind];

	sdsi_assert_held(&m->lock);
	if (!f->armed)
		return false;
	if (param)
		*param = f->param;
	if (f->remaining && --f->remaining == 0)
		f->armed = false;
	return true;
}
