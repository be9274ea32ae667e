/* SPDX-License-Identifier: GPL-2.0-only */
/* `sdsi-emu run`: one command on an emulated platform, in its own namespace. */
#ifndef SDSI_EMU_RUN_H
#define SDSI_EMU_RUN_H

#include <signal.h>

#include "emu_options.h"

/*
 * Returns the exit status of sdsi-emu: CMD's, or for a failure to start, the
 * class of its errno (sdsi_exit_for_errno; docs/exit-codes.md).  The caller has blocked SIGCHLD and
 * the forwarded signals (emu_forwarded_signals) in every thread; exec_mask
 * is the signal mask the command starts with.
 */
int emu_run(const struct emu_options *opts, const sigset_t *exec_mask);

#endif /* SDSI_EMU_RUN_H */
