// SPDX-License-Identifier: GPL-2.0-only
#include <time.h>

#include "backends/inproc/inproc_mbox.h"
#include "model/sdsi_model.h"
#include "util/util_time.h"

static uint64_t op_read64(void *ctx, uint32_t off)
{
	return sdsi_model_read64(ctx, off);
}

static void op_write64(void *ctx, uint32_t off, uint64_t v)
{
	sdsi_model_write64(ctx, off, v);
}

static void op_sleep_us(void *ctx, uint32_t us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	(void)ctx;
	nanosleep(&ts, NULL);
}

static uint64_t op_now_us(void *ctx)
{
	(void)ctx;
	return util_now_us();
}

const struct sdsi_mbox_ops inproc_mbox_ops = {
	.read64 = op_read64,
	.write64 = op_write64,
	.sleep_us = op_sleep_us,
	.now_us = op_now_us,
};
