// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sysfs_root.h"
#include "tool_error.h"
#include "util/util_array.h"

#define PROC_MODULES	"/proc/modules"
#define DRIVER_NAME	"intel_sdsi"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory named on the command line, else in the environment, else NULL. */
static const char *named_root(const struct cli *cli, const char **source)
{
	const char *env = getenv(SDSI_SYSFS_ROOT_ENV);

	if (cli->sysfs_root) {
		*source = "--sysfs-root";
		return cli->sysfs_root;
	}
	if (env && *env) {
		*source = SDSI_SYSFS_ROOT_ENV;
		return env;
	}
	return NULL;
}

enum sdsi_exit resolve_sysfs_root(struct cli *cli, struct output *out)
{
	/* Resolved once per run; the commands only read it. */
	static char resolved[SDSI_PATH_SIZE];
	static const char *const below[] = { "devices", "bus/auxiliary/devices" };
	util_scoped_error err = NULL;
	const char *source, *dir = named_root(cli, &source);
	struct stat st;
	int n;

	if (!dir)
		return SDSI_EXIT_OK;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		int errnum = stat(dir, &st) == 0 ? ENOTDIR : errno;

		err = tool_error_new();
		sdsi_error_set(err, errnum, SDSI_ERR_USAGE, -1,
			       "%s %s: %s: give the directory of the intel_vsec.sdsi.N devices (%s), or the directory sdsi-emu mount serves",
			       source, dir, strerror(errnum), SDSI_DEFAULT_SYSFS_ROOT);
		return report_error(out, NULL, err);
	}
	/*
	 * A directory named "devices" or "bus" cannot be a device of the
	 * devices directory (they are all intel_vsec.sdsi.N and the like), so
	 * the first that exists says which of the three DIR is.
	 */
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(below); i++) {
		n = snprintf(resolved, sizeof(resolved), "%s/%s", dir, below[i]);
		if (n > 0 && (size_t)n < sizeof(resolved) && is_dir(resolved)) {
			out_note(out, "%s %s: devices under %s", source, dir, resolved);
			cli->sysfs_root = resolved;
			return SDSI_EXIT_OK;
		}
	}
	cli->sysfs_root = dir;
	return SDSI_EXIT_OK;
}

int reopen_listed_device(struct sdsi_device **dev, struct sdsi_error *err)
{
	const size_t root_len = strlen(sdsi_device_path(*dev)) - strlen(sdsi_device_name(*dev)) - 1;
	char root[SDSI_PATH_SIZE], devno[16];
	struct sdsi_device *reopened;
	int ret;

	memcpy(root, sdsi_device_path(*dev), root_len);
	root[root_len] = '\0';
	snprintf(devno, sizeof(devno), "%u", sdsi_device_devno(*dev));
	ret = sdsi_device_open(root, devno, &reopened, err);
	if (ret)
		return ret;
	sdsi_device_close(*dev);
	*dev = reopened;
	return 0;
}

/* Whether /proc/modules lists intel_sdsi: 1, 0, or -1 when it cannot be read. */
static int driver_loaded(void)
{
	char line[512];
	const size_t len = strlen(DRIVER_NAME);
	int found = 0;
	FILE *f = fopen(PROC_MODULES, "re");

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, DRIVER_NAME, len) == 0 && line[len] == ' ';
	fclose(f);
	return found;
}

void warn_no_devices(const struct cli *cli, const struct output *out)
{
	const char *root = cli->sysfs_root ? cli->sysfs_root : sdsi_sysfs_root();

	if (cli->sysfs_root || strcmp(root, SDSI_DEFAULT_SYSFS_ROOT) != 0) {
		out_warn(out, "No On Demand devices found. Searched %s: no intel_vsec.sdsi.N in it "
			 "(is it the devices directory of the auxiliary bus, or the directory sdsi-emu mount serves?)",
			 root);
		return;
	}
	switch (driver_loaded()) {
	case 0:
		out_warn(out, "No On Demand devices found. Searched %s: the %s driver is not loaded "
			 "(not in " PROC_MODULES "): modprobe %s", root, DRIVER_NAME, DRIVER_NAME);
		break;
	case 1:
		out_warn(out, "No On Demand devices found. Searched %s: %s is loaded but has no device: "
			 "is Intel On Demand (SDSi) enabled in the BIOS setup, and does the CPU have it?",
			 root, DRIVER_NAME);
		break;
	default:
		out_warn(out, "No On Demand devices found. Searched %s: is the %s driver built in or loaded, "
			 "and Intel On Demand (SDSi) enabled in the BIOS setup?", root, DRIVER_NAME);
	}
}
