// SPDX-License-Identifier: GPL-2.0-only
/* -l: the On Demand devices under the sysfs root; none is not an error. */
#include <stdlib.h>

#include "commands.h"
#include "sysfs_root.h"

enum sdsi_exit cmd_list(const struct cli *cli, struct output *out)
{
	struct sdsi_device **devs;
	util_scoped_error err = tool_error_new();
	size_t count;

	if (sdsi_device_list(cli->sysfs_root, &devs, &count, err))
		return report_error(out, NULL, err);
	out_note(out, "%zu On Demand device(s) under %s", count,
		 cli->sysfs_root ? cli->sysfs_root : sdsi_sysfs_root());
	out->ops->devices(out, devs, count);
	if (count == 0)
		warn_no_devices(cli, out);
	sdsi_device_list_free(devs, count);
	return SDSI_EXIT_OK;
}
