/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What `sdsi-emu mount` says once its tree is served, and when it stops: a
 * line on stdout for people and scripts, and the same news to systemd for a
 * Type=notify unit (systemd/sdsi-emu-mount@.service).
 */
#ifndef SDSI_EMU_READY_H
#define SDSI_EMU_READY_H

/*
 * "sdsi-emu: WHAT mounted at TREE (SDSI_SYSFS_ROOT=TREE/devices); control
 * socket CONTROL" (no control part when CONTROL is NULL), then READY=1 to
 * $NOTIFY_SOCKET when it is set.  Called only once the kernel has
 * initialised the FUSE mount, so a reader that starts on either news finds
 * the tree.
 */
void emu_mount_ready(const char *what, const char *tree, const char *control);

/* STOPPING=1 to $NOTIFY_SOCKET, before the tree goes away. */
void emu_mount_stopping(void);

#endif /* SDSI_EMU_READY_H */
