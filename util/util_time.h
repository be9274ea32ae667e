/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CLOCK_MONOTONIC, in the units the project's deadlines and intervals use:
 * never set back, so an interval between two readings is never negative.
 */
#ifndef SDSI_UTIL_TIME_H
#define SDSI_UTIL_TIME_H

#include <stdint.h>

uint64_t util_now_ns(void);
uint64_t util_now_us(void);
uint64_t util_now_ms(void);

#endif /* SDSI_UTIL_TIME_H */
