// SPDX-License-Identifier: GPL-2.0-only
#include "fuzz_model_ops.h"
#include "model/sdsi_model.h"

uint64_t fuzz_now_ns;

uint64_t fuzz_model_clock(void *ctx)
{
	(void)ctx;
	return fuzz_now_ns;
}

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
	(void)ctx;
	fuzz_now_ns += (uint64_t)us * 1000u;
}

static uint64_t op_now_us(void *ctx)
{
	(void)ctx;
	return fuzz_now_ns / 1000u;
}

const struct sdsi_mbox_ops fuzz_model_ops = {
	.read64 = op_read64, .write64 = op_write64,
	.sleep_us = op_sleep_us, .now_us = op_now_us,
};
