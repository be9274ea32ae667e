/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver core straight over an in-process sdsi_model, with no FUSE
 * driver between: each 64-bit access one of the model's MMIO traps, real
 * sleeps and the monotonic clock for the core's timeouts.  The programs
 * that drive one model socket through sdsi_mbox_*() (the benchmarks, the
 * transcript test's sdsi-spdm-pipe) share it, so that what they time or
 * record is the one transport.  The context is the model (not owned).
 */
#ifndef SDSI_BACKENDS_INPROC_MBOX_H
#define SDSI_BACKENDS_INPROC_MBOX_H

#include "drivers/core/sdsi_mbox.h"

extern const struct sdsi_mbox_ops inproc_mbox_ops;

#endif /* SDSI_BACKENDS_INPROC_MBOX_H */
