/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `sdsi-emu mount --window FILE[:OFFSET] DIR`: serve at DIR the sockets
 * that sdsi-shmem plays in a shared memory window, through the FUSE driver
 * and the window backend.  No model runs here, so there is no state
 * directory and no control socket: sdsi-shmem's own control page or socket
 * takes power cycles, faults and BIOS settings; bind and unbind are the
 * tree's drivers/intel_sdsi files.
 */
#ifndef SDSI_EMU_WINDOW_MOUNT_H
#define SDSI_EMU_WINDOW_MOUNT_H

#include "emu_options.h"

/* As emu_mount(): the exit status, after any forwarded signal. */
int emu_window_mount(const struct emu_options *opts);

#endif /* SDSI_EMU_WINDOW_MOUNT_H */
