/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where intel_sdsi looks for devices, and what it says when it finds none.
 * --sysfs-root DIR (or $SDSI_SYSFS_ROOT) may name the devices directory
 * itself, the auxiliary bus directory above it (what sdsi-emu mount DIR
 * serves at DIR), or a sysfs root (DIR/bus/auxiliary/devices).
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_SYSFS_ROOT_H
#define SDSI_TOOLS_INTEL_SDSI_SYSFS_ROOT_H

#include "commands.h"
#include "util/util_cleanup.h"

/*
 * For a command that reads devices: resolve the root the user named into
 * cli->sysfs_root (left NULL, libsdsi's default, when none was named).  A
 * named root that is not a directory is a usage error: its status, after
 * reporting it.  SDSI_EXIT_OK otherwise.
 */
enum sdsi_exit resolve_sysfs_root(struct cli *cli, struct output *out);

/*
 * A device of sdsi_device_list() whose guid could not be read, opened again
 * by number as -d N opens it (sdsi_device_open), so that an unbound one is
 * named as such ("no driver is bound", ENODEV) and not as a missing guid
 * file.  Safe in the threads of fleet.h.  0 with *dev replaced by the
 * device opened again, or -errno with err filled and *dev as it was.
 */
int reopen_listed_device(struct sdsi_device **dev, struct sdsi_error *err);

/*
 * "No On Demand devices found." on stderr (unless -q), naming the
 * directory searched and what to check: the driver (from /proc/modules)
 * and the BIOS setting for the default root, the layout for a named one.
 */
void warn_no_devices(const struct cli *cli, const struct output *out);

#endif /* SDSI_TOOLS_INTEL_SDSI_SYSFS_ROOT_H */
