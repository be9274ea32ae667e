/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware model as a backend of the FUSE driver: the driver core's
 * transport seam (struct sdsi_mbox_ops) over an in-process sdsi_model, so
 * each 64-bit access is one of the model's MMIO traps.  The model brings
 * its own lock (every entry point takes it) and its own clock (model time,
 * emu/model_clock.h); the driver core keeps real time for its timeouts.
 */
#ifndef SDSI_BACKENDS_INPROC_BACKEND_H
#define SDSI_BACKENDS_INPROC_BACKEND_H

#include <stdbool.h>

#include "drivers/fuse/sdsi_fusedrv.h"
#include "model/sdsi_model.h"

/* The backend of one socket: its context is the model itself (not owned). */
struct sdsi_fusedrv_backend inproc_backend_for(struct sdsi_model *model);

/*
 * sdsi_fusedrv_with_socket() for a socket whose backend is a model: run
 * fn(model, arg) under the socket's mailbox lock (power cycle, faults,
 * BIOS settings), then reprobe if asked.
 */
int inproc_backend_with_socket(struct sdsi_fusedrv *drv, unsigned int socket,
			  bool reprobe, int (*fn)(struct sdsi_model *model, void *arg),
			  void *arg);

#endif /* SDSI_BACKENDS_INPROC_BACKEND_H */
