/* SPDX-License-Identifier: GPL-2.0-only */
/* `sdsi-emu ctl`: send one command to a running emulator, print its answer. */
#ifndef EMU_CTL_CLIENT_H
#define EMU_CTL_CLIENT_H

/*
 * argv[0] is "ctl".  Returns the exit status: 0 when the emulator answered
 * ok, 1 on an error answer or when it cannot be reached, 2 on usage errors.
 */
int emu_ctl_main(int argc, char **argv);

#endif /* EMU_CTL_CLIENT_H */
