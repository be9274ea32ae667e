// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include <systemd/sd-daemon.h>

#include "ready.h"

/* Where sdsi-emu mount puts the devices, as --sysfs-root and libsdsi want it. */
#define DEVICES_DIR	"devices"

void emu_mount_ready(const char *what, const char *tree, const char *control)
{
	int ret;

	printf("sdsi-emu: %s mounted at %s (SDSI_SYSFS_ROOT=%s/" DEVICES_DIR ")", what, tree,
	       tree);
	if (control)
		printf("; control socket %s", control);
	putchar('\n');
	fflush(stdout);
	/* No-op (0) without $NOTIFY_SOCKET; a manager that went away is not ours to fix. */
	ret = sd_notifyf(0, "READY=1\nSTATUS=%s mounted at %s", what, tree);
	if (ret < 0)
		fprintf(stderr, "sdsi-emu: cannot tell the service manager the mount is ready: %s\n",
			strerror(-ret));
}

void emu_mount_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}
