// SPDX-License-Identifier: GPL-2.0-only
#include "core_rig.h"

#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Its NVRAM and certificate builder: licences without a signing authority. */
#include "model/model_priv.h"

static uint64_t rig_clock_ns(void *ctx)
{
	return ((struct core_rig *)ctx)->now_ns;
}

static void rig_record(struct core_rig *rig, char op, uint32_t offset,
		       uint64_t value)
{
	if (rig->log.trace_len < RIG_TRACE_MAX) {
		rig->log.trace[rig->log.trace_len].op = op;
		rig->log.trace[rig->log.trace_len].offset = offset;
		rig->log.trace[rig->log.trace_len].value = value;
	}
	rig->log.trace_len++;
}

/* The control word of the write answer's current packet (core_rig.h). */
static uint64_t write_answer_ctrl(const struct core_rig *rig, uint64_t value)
{
	bool last = rig->write_answer_shown + 1 == rig->write_answer_packets;
	uint64_t size = last ? rig->write_answer_last : SDSI_MBOX_SIZE;

	value &= ~(SDSI_CTRL_STATUS_MASK | SDSI_CTRL_PACKET_SIZE_MASK |
		   SDSI_CTRL_MSG_SIZE_MASK | SDSI_CTRL_EOM);
	value |= (uint64_t)SDSI_STATUS_SUCCESS << SDSI_CTRL_STATUS_SHIFT |
		 size << SDSI_CTRL_PACKET_SIZE_SHIFT |
		 (uint64_t)rig->write_answer_msg_size << SDSI_CTRL_MSG_SIZE_SHIFT;
	return last ? value | SDSI_CTRL_EOM : value;
}

static uint64_t rig_read64(void *ctx, uint32_t offset)
{
	struct core_rig *rig = ctx;

	uint64_t value;

	rig->log.mmio_accesses++;
	value = sdsi_model_read64(rig->model, offset);
	if (offset == 0 && rig->msg_size_skew && (value & SDSI_CTRL_RDY))
		value += (uint64_t)rig->msg_size_skew <<
			 SDSI_CTRL_MSG_SIZE_SHIFT;
	if (rig->mbox_override &&
	    offset == rig->model_mbox_off + 8 * rig->mbox_override_index)
		value = rig->mbox_override_value;
	if (offset == 0 && rig->write_answer_armed && (value & SDSI_CTRL_RDY))
		value = write_answer_ctrl(rig, value);
	rig_record(rig, 'R', offset, value);
	return value;
}

static void rig_write64(void *ctx, uint32_t offset, uint64_t value)
{
	struct core_rig *rig = ctx;

	rig->log.mmio_accesses++;
	rig_record(rig, 'W', offset, value);
	if (offset == 0) {
		if (rig->log.ctrl_writes < RIG_CTRL_LOG_MAX)
			rig->log.ctrl_log[rig->log.ctrl_writes] = value;
		rig->log.ctrl_writes++;
	} else if (offset >= rig->model_mbox_off &&
		   offset < rig->model_mbox_off + SDSI_MBOX_SIZE) {
		uint32_t index = (offset - rig->model_mbox_off) / 8u;

		rig->log.mbox_written[index] = value;
		rig->log.mbox_touched[index] = true;
		if (index == 0)
			rig->log.requests++;
	}
	if (offset == 0 && rig->write_answer_packets) {
		if ((value & SDSI_CTRL_RUN_BUSY) && (value & SDSI_CTRL_READ_WRITE)) {
			rig->write_answer_armed = true;
			rig->write_answer_shown = 0;
		} else if (rig->write_answer_armed && (value & SDSI_CTRL_CPL) &&
			   ++rig->write_answer_shown < rig->write_answer_packets) {
			return;	/* the next packet, which the model never made */
		} else {
			rig->write_answer_armed = false;
		}
	}
	sdsi_model_write64(rig->model, offset, value);
	if (offset == rig->model_mbox_off && rig->oob_after_request)
		assert_int_equal(sdsi_model_fault_set(rig->model,
						      SDSI_FAULT_OOB_OWNER,
						      0, 0), 0);
}

static void rig_sleep_us(void *ctx, uint32_t us)
{
	struct core_rig *rig = ctx;

	/* A sleep of 0 would spin on a clock that only sleeps advance. */
	assert_true(us > 0);
	rig->log.sleeps++;
	rig_record(rig, 'S', 0, us);
	if (us >= rig->mb.params.acquire_retry_delay_ms * 1000u)
		rig->log.retry_sleeps++;
	rig->now_ns += (uint64_t)us * 1000u;
}

static uint64_t rig_now_us(void *ctx)
{
	return ((struct core_rig *)ctx)->now_ns / 1000u;
}

static void rig_log(void *ctx, enum sdsi_mbox_level level, const char *msg)
{
	struct core_rig *rig = ctx;

	assert_non_null(msg);
	rig->log.warnings++;
	rig->log.last_level = level;
	snprintf(rig->log.last_warning, sizeof(rig->log.last_warning), "%s", msg);
}

const struct sdsi_mbox_ops rig_ops = {
	.read64 = rig_read64,
	.write64 = rig_write64,
	.sleep_us = rig_sleep_us,
	.now_us = rig_now_us,
	.log = rig_log,
};

struct core_rig *rig_new(uint32_t guid, enum sdsi_abi flavor)
{
	return rig_new_rooted(guid, flavor, NULL);
}

struct core_rig *rig_new_rooted(uint32_t guid, enum sdsi_abi flavor,
				const char *root_key_path)
{
	struct sdsi_model_config cfg = {
		.guid = guid,
		.socket_id = RIG_SOCKET_ID,
		.ppin = RIG_PPIN,
		.features = SDSI_MODEL_DEFAULT_FEATURES,
		.capid1 = RIG_CAPID1,
		.clock = rig_clock_ns,
		.root_key_path = root_key_path,
	};
	struct sdsi_mbox_params params;
	struct core_rig *rig;
	char err[256] = "";

	rig = calloc(1, sizeof(*rig));
	assert_non_null(rig);
	/* Far from zero, so that no arithmetic of either side starts at 0. */
	rig->now_ns = 1000000000ull;
	rig->guid = guid;
	rig->model_mbox_off = sdsi_layout_ctrl_size(sdsi_guid_layout_or_v1(guid));
	cfg.clock_ctx = rig;
	if (sdsi_model_create(&cfg, &rig->model, err, sizeof(err)))
		fail_msg("sdsi_model_create: %s", err);

	sdsi_mbox_default_params(&params);
	params.flavor = flavor;
	assert_int_equal(sdsi_mbox_init(&rig->mb, guid, &rig_ops, rig,
					&params), 0);
	return rig;
}

void rig_free(struct core_rig *rig)
{
	if (!rig)
		return;
	sdsi_model_destroy(rig->model);
	free(rig);
}

void rig_clear_log(struct core_rig *rig)
{
	memset(&rig->log, 0, sizeof(rig->log));
}

uint64_t rig_ctrl(struct core_rig *rig)
{
	return sdsi_model_read64(rig->model, 0);
}

unsigned int rig_owner(struct core_rig *rig)
{
	return (unsigned int)((rig_ctrl(rig) & SDSI_CTRL_OWNER_MASK) >>
			      SDSI_CTRL_OWNER_SHIFT);
}

uint64_t rig_register(struct core_rig *rig, uint32_t file_offset)
{
	return sdsi_model_read64(rig->model, rig->model_mbox_off +
					     SDSI_MBOX_SIZE + file_offset);
}

uint64_t rig_last_ctrl_write(const struct core_rig *rig)
{
	assert_true(rig->log.ctrl_writes > 0);
	assert_true(rig->log.ctrl_writes <= RIG_CTRL_LOG_MAX);
	return rig->log.ctrl_log[rig->log.ctrl_writes - 1];
}

void rig_install_license(struct core_rig *rig, size_t blob_len)
{
	static unsigned char blob[SDSI_READ_MSG_MAX];
	size_t i;
	int ret;

	assert_true(blob_len <= sizeof(blob));
	for (i = 0; i < blob_len; i++)
		blob[i] = (unsigned char)(i * 7 + 1);
	sdsi_lock_take(&rig->model->lock);
	ret = nvram_add_license(rig->model, blob, blob_len, false);
	sdsi_lock_release(&rig->model->lock);
	assert_int_equal(ret, 0);
}

size_t rig_state_cert(struct core_rig *rig, unsigned char *out)
{
	size_t len;

	sdsi_lock_take(&rig->model->lock);
	len = certs_state(rig->model, out);
	sdsi_lock_release(&rig->model->lock);
	return len;
}

static void print_trace(const char *title, const struct rig_access *t,
			unsigned int n)
{
	unsigned int i;

	print_message("%s (%u steps):\n", title, n);
	for (i = 0; i < n; i++)
		print_message("  %3u %c 0x%03x 0x%016llx\n", i, t[i].op,
			      (unsigned int)t[i].offset,
			      (unsigned long long)t[i].value);
}

static bool same_access(const struct rig_access *a, const struct rig_access *b)
{
	return a->op == b->op && a->offset == b->offset &&
	       a->value == b->value;
}

void rig_assert_trace(const struct core_rig *rig,
		      const struct rig_access *expected, unsigned int n)
{
	unsigned int i, len = rig->log.trace_len;

	assert_true(len <= RIG_TRACE_MAX);
	for (i = 0; i < len && i < n; i++)
		if (!same_access(&rig->log.trace[i], &expected[i]))
			break;
	if (i == len && i == n)
		return;
	print_trace("expected", expected, n);
	print_trace("recorded", rig->log.trace, len);
	fail_msg("trace differs from step %u on (%u steps expected, %u made)",
		 i, n, len);
}

unsigned int rig_trace_cpls(const struct core_rig *rig)
{
	unsigned int i, cpls = 0;

	assert_true(rig->log.trace_len <= RIG_TRACE_MAX);
	for (i = 0; i < rig->log.trace_len; i++)
		if (rig->log.trace[i].op == 'W' && rig->log.trace[i].offset == 0 &&
		    rig->log.trace[i].value == SDSI_CTRL_CPL)
			cpls++;
	return cpls;
}

static int rig_setup(void **state, uint32_t guid,
		     enum sdsi_abi flavor)
{
	*state = rig_new(guid, flavor);
	return 0;
}

int rig_setup_v1(void **state)
{
	return rig_setup(state, SDSI_GUID_V1, SDSI_ABI_CURRENT);
}

int rig_setup_v2(void **state)
{
	return rig_setup(state, SDSI_GUID_V2, SDSI_ABI_CURRENT);
}

int rig_setup_v1_early(void **state)
{
	return rig_setup(state, SDSI_GUID_V1, SDSI_ABI_EARLY);
}

int rig_teardown(void **state)
{
	rig_free(*state);
	return 0;
}
