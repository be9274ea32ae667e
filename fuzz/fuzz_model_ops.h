/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver core's transport for the harnesses that drive a model through
 * it (fuzz_model_mmio, fuzz_spdm): straight into the model's MMIO traps, on
 * model time.  fuzz_now_ns is that time: the core's sleeps advance it and
 * the model's clock (fuzz_model_clock, the config's .clock) reads it, so no
 * run waits and the same input runs the same way.
 */
#ifndef SDSI_FUZZ_MODEL_OPS_H
#define SDSI_FUZZ_MODEL_OPS_H

#include <stdint.h>

#include "drivers/core/sdsi_mbox.h"

extern uint64_t fuzz_now_ns;
extern const struct sdsi_mbox_ops fuzz_model_ops;

uint64_t fuzz_model_clock(void *ctx);

#endif /* SDSI_FUZZ_MODEL_OPS_H */
