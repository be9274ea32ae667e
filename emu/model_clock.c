// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <time.h>

#include "model_clock.h"
#include "util/util_time.h"

void emu_model_clock_init(struct emu_model_clock *c, double scale)
{
	c->scale = scale;
	c->start_ns = util_now_ns();
	c->advanced_ns = 0;
}

/*
 * Model time starts where real time was at creation, so at scale 1 and with
 * no jumps it is CLOCK_MONOTONIC.  Scaling a monotonic value by a positive
 * constant and adding a sum that only grows keeps it monotonic.
 */
uint64_t emu_model_clock_now(void *ctx)
{
	const struct emu_model_clock *c = ctx;
	uint64_t real = util_now_ns() - c->start_ns;
	uint64_t jumps = __atomic_load_n(&c->advanced_ns, __ATOMIC_ACQUIRE);

	return c->start_ns + (uint64_t)((long double)real * c->scale) + jumps;
}

int emu_model_clock_advance(struct emu_model_clock *c, uint64_t ns)
{
	uint64_t old = __atomic_load_n(&c->advanced_ns, __ATOMIC_RELAXED);

	do {
		/* Leave room for a century of scaled running time. */
		if (ns > UINT64_MAX / 4 - old)
			return -EOVERFLOW;
	} while (!__atomic_compare_exchange_n(&c->advanced_ns, &old, old + ns,
					      false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	return 0;
}
