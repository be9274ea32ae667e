/* SPDX-License-Identifier: GPL-2.0-only */
/* `sdsi-emu mount DIR`: serve the tree at DIR until told to stop. */
#ifndef SDSI_EMU_MOUNT_H
#define SDSI_EMU_MOUNT_H

#include "emu_options.h"

/*
 * Returns the exit status of sdsi-emu.  The caller has blocked the signals
 * of emu_forwarded_signals() in every thread; any of them ends the service.
 */
int emu_mount(const struct emu_options *opts);

#endif /* SDSI_EMU_MOUNT_H */
