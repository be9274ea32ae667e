/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model time: the clock each socket's hardware model runs on.  It runs
 * --time-scale times faster than CLOCK_MONOTONIC and jumps forward on
 * `ctl advance`, so meters can be tested without waiting.  Only the model
 * sees it: the driver core's timeouts keep real time.
 */
#ifndef SDSI_EMU_MODEL_CLOCK_H
#define SDSI_EMU_MODEL_CLOCK_H

#include <stdint.h>

struct emu_model_clock {
	double scale;			/* model ns per real ns, > 0 */
	uint64_t start_ns;		/* CLOCK_MONOTONIC at creation */
	uint64_t advanced_ns;		/* atomic: sum of the jumps */
};

void emu_model_clock_init(struct emu_model_clock *c, double scale);
/* An sdsi_model_clock_fn: ctx is a struct emu_model_clock. */
uint64_t emu_model_clock_now(void *ctx);
/* Jump forward; returns -EOVERFLOW if model time would pass 2^64 ns. */
int emu_model_clock_advance(struct emu_model_clock *c, uint64_t ns);

#endif /* SDSI_EMU_MODEL_CLOCK_H */
