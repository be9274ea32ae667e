/* SPDX-License-Identifier: GPL-2.0-only */
/* `sdsi-emu ctl`: send one command to a running emulator, print its answer. */
#ifndef SDSI_EMU_CTL_CLIENT_H
#define SDSI_EMU_CTL_CLIENT_H

/*
 * argv[0] is "ctl".  Returns the exit status (docs/exit-codes.md): 0 when
 * the emulator answered ok; for an error answer "error ENAME: ...", the
 * class of ENAME (EINVAL 2, ENODEV 3, ...); 3 when no emulator listens at
 * the socket, 7 when it does not answer; 2 on usage errors.
 */
int emu_ctl_main(int argc, char **argv);

#endif /* SDSI_EMU_CTL_CLIENT_H */
