// SPDX-License-Identifier: LGPL-2.1-or-later
/* The monotonic clock (util_time.h). */
#include <time.h>

#include "util_time.h"

/*
 * clock_gettime(CLOCK_MONOTONIC) cannot fail on Linux (the clock always
 * exists and ts is ours), so no caller has an error to handle.
 */
static struct timespec monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

uint64_t util_now_ns(void)
{
	struct timespec ts = monotonic();

	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t util_now_us(void)
{
	struct timespec ts = monotonic();

	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t util_now_ms(void)
{
	struct timespec ts = monotonic();

	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
