/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command `sdsi-emu run` runs: started with the emulator's variables in
 * its environment, sent the termination signals the emulator receives, and
 * waited for.
 */
#ifndef SDSI_EMU_CHILD_H
#define SDSI_EMU_CHILD_H

#include <signal.h>

/* Signals the emulator forwards to the command; blocked in every thread. */
void emu_forwarded_signals(sigset_t *set);

/*
 * Run argv (argv[0] looked up in PATH) with SDSI_EMU_CTL=ctl_path and
 * SDSI_EMU_STATE=state_dir added to the environment and exec_mask as its
 * signal mask.  The caller has SIGCHLD and emu_forwarded_signals() blocked.
 * Returns the status to exit with: the command's exit status, 128+N if
 * signal N killed it, 127 if it could not be executed (reported on stderr).
 */
int emu_child_run(char *const argv[], const char *ctl_path,
		  const char *state_dir, const sigset_t *exec_mask);

#endif /* SDSI_EMU_CHILD_H */
