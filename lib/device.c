// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device discovery: the sysfs root, DEVNO validation, the device directory
 * and its guid attribute.  A DEVNO only ever becomes the decimal suffix of
 * "intel_vsec.sdsi.", so no argument can steer a path elsewhere.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/sysfs_files.h"
#include "sdsi_internal.h"

#define DEVNO_MAX_DIGITS 9

const char *sdsi_sysfs_root(void)
{
	const char *root = getenv(SDSI_SYSFS_ROOT_ENV);

	return root && *root ? root : SDSI_DEFAULT_SYSFS_ROOT;
}

static bool parse_digits(const char *text, unsigned int *value)
{
	unsigned int v = 0;
	size_t n = 0;

	for (; text[n]; n++) {
		if (text[n] < '0' || text[n] > '9' || n == DEVNO_MAX_DIGITS)
			return false;
		v = v * 10 + (unsigned int)(text[n] - '0');
	}
	if (n == 0)
		return false;
	*value = v;
	return true;
}

int sdsi_parse_devno(const char *text, unsigned int *devno, struct sdsi_error *err)
{
	sdsi_clear_error(err);
	if (!text || !parse_digits(text, devno))
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1,
				 "invalid DEVNO '%s': expected the decimal N of %sN (1 to %d digits)",
				 text ? text : "", SDSI_DEVICE_PREFIX, DEVNO_MAX_DIGITS);
	return 0;
}

static int fill_device(const char *root, unsigned int devno, struct sdsi_device *dev,
		       struct sdsi_error *err)
{
	int n;

	memset(dev, 0, sizeof(*dev));
	dev->dirfd = -1;
	dev->devno = devno;
	snprintf(dev->name, sizeof(dev->name), SDSI_DEVICE_PREFIX "%u", devno);
	n = snprintf(dev->path, sizeof(dev->path), "%s/%s", root, dev->name);
	if (n < 0 || (size_t)n >= sizeof(dev->path))
		return sdsi_fail(err, ENAMETOOLONG, SDSI_ERR_USAGE, -1,
				 "sysfs root '%s' is too long", root);
	return 0;
}

int sdsi_read_guid(const struct sdsi_device *dev, uint32_t *guid, struct sdsi_error *err)
{
	const char *file = sdsi_sysfs_file_name(SDSI_FILE_GUID);
	char path[SDSI_PATH_SIZE + 8], text[32], *end;
	const char *kind;
	unsigned long value;
	ssize_t got;
	int fd, e;

	sdsi_clear_error(err);
	snprintf(path, sizeof(path), "%s/%s", dev->path, file);
	fd = sdsi_open_attr(dev, file, O_RDONLY, &e, &kind);
	if (fd < 0)
		return sdsi_fail_attr_open(err, dev, file, e, kind, false);
	got = read(fd, text, sizeof(text) - 1);
	e = errno;
	close(fd);
	if (got < 0)
		return sdsi_fail(err, e, sdsi_errno_class(e, false), -1, "%s: read: %s",
				 path, sdsi_errno_meaning(e, false));
	text[got] = '\0';
	if (got > 0 && text[got - 1] == '\n')
		text[got - 1] = '\0';
	errno = 0;
	value = strtoul(text, &end, 16);
	if (strncmp(text, "0x", 2) != 0 || text[2] == '\0' || *end != '\0' ||
	    errno != 0 || value > UINT32_MAX)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, 0,
				 "%s: expected '0x' and up to 8 hex digits, got '%s'", path, text);
	*guid = (uint32_t)value;
	return 0;
}

/* Whether the device directory has its driver link, as a bound one does. */
static bool has_driver(const struct sdsi_device *dev)
{
	struct stat st;

	return fstatat(dev->dirfd, "driver", &st, AT_SYMLINK_NOFOLLOW) == 0;
}

unsigned int sdsi_device_devno(const struct sdsi_device *dev)
{
	return dev->devno;
}

const char *sdsi_device_name(const struct sdsi_device *dev)
{
	return dev->name;
}

const char *sdsi_device_path(const struct sdsi_device *dev)
{
	return dev->path;
}

uint32_t sdsi_device_guid(const struct sdsi_device *dev)
{
	return dev->guid;
}

bool sdsi_device_guid_valid(const struct sdsi_device *dev)
{
	return dev->guid_valid;
}

void sdsi_device_close(struct sdsi_device *dev)
{
	if (dev && dev->dirfd >= 0)
		close(dev->dirfd);
	free(dev);
}

void sdsi_device_closep(struct sdsi_device **dev)
{
	sdsi_device_close(*dev);
}

static int open_device(const char *root, const char *devno, struct sdsi_device *dev,
		       struct sdsi_error *err)
{
	unsigned int n;
	int ret, rootfd;

	ret = sdsi_parse_devno(devno, &n, err);
	if (ret)
		return ret;
	ret = fill_device(root, n, dev, err);
	if (ret)
		return ret;
	rootfd = sdsi_open_tree_root(root, err);
	if (rootfd == -ENOENT || rootfd == -ENOTDIR)
		return sdsi_fail(err, ENODEV, SDSI_ERR_NO_DEVICE, -1,
				 "no On Demand device %s under %s", dev->name, root);
	if (rootfd < 0)
		return rootfd;
	ret = sdsi_open_device_dir(rootfd, root, dev, err);
	close(rootfd);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return sdsi_fail(err, ENODEV, SDSI_ERR_NO_DEVICE, -1,
				 "no On Demand device %s under %s", dev->name, root);
	if (ret)
		return ret;
	ret = sdsi_read_guid(dev, &dev->guid, err);
	if (ret == -ENOENT && !has_driver(dev))
		/* The device stays when its driver is unbound; its files go. */
		return sdsi_fail(err, ENODEV, SDSI_ERR_NO_DEVICE, -1,
				 "%s: no driver is bound to it (unbound?): "
				 "its attribute files are gone", dev->path);
	if (ret)
		return ret;
	dev->guid_valid = true;
	return 0;
}

int sdsi_device_open(const char *root, const char *devno, struct sdsi_device **dev,
		     struct sdsi_error *err)
{
	struct sdsi_device *opened = malloc(sizeof(*opened));
	int ret;

	*dev = NULL;
	if (!root)
		root = sdsi_sysfs_root();
	if (!opened)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1,
				 "out of memory opening a device under %s", root);
	opened->dirfd = -1;
	ret = open_device(root, devno, opened, err);
	if (ret) {
		sdsi_device_close(opened);
		return ret;
	}
	*dev = opened;
	return 0;
}

static int by_devno(const void *a, const void *b)
{
	const struct sdsi_device *da = *(struct sdsi_device *const *)a;
	const struct sdsi_device *db = *(struct sdsi_device *const *)b;

	return (da->devno > db->devno) - (da->devno < db->devno);
}

void sdsi_device_list_free(struct sdsi_device **devs, size_t count)
{
	if (!devs)
		return;
	for (size_t i = 0; i < count; i++)
		sdsi_device_close(devs[i]);
	free(devs);
}

/* One more listed device in *list (n entries, room for *cap). */
static int add_device(int rootfd, const char *root, unsigned int devno,
		      struct sdsi_device ***list, size_t n, size_t *cap, struct sdsi_error *err)
{
	struct sdsi_device **grown, *dev;
	int e;

	if (n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		grown = realloc(*list, *cap * sizeof(**list));
		if (!grown)
			goto out_of_memory;
		*list = grown;
	}
	dev = malloc(sizeof(*dev));
	if (!dev)
		goto out_of_memory;
	e = fill_device(root, devno, dev, err);
	if (!e)
		e = sdsi_open_device_dir(rootfd, root, dev, err);
	if (e == -ENOENT || e == -ENOTDIR) {
		sdsi_device_close(dev);	/* gone since listed, or no directory: not a device */
		return 1;
	}
	if (e) {
		sdsi_device_close(dev);
		return e;
	}
	/* A device whose guid cannot be read is still listed. */
	dev->guid_valid = sdsi_read_guid(dev, &dev->guid, NULL) == 0;
	(*list)[n] = dev;
	return 0;

out_of_memory:
	return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory listing %s", root);
}

int sdsi_device_list(const char *root, struct sdsi_device ***devs, size_t *count,
		     struct sdsi_error *err)
{
	const size_t prefix_len = strlen(SDSI_DEVICE_PREFIX);
	struct sdsi_device **list = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	unsigned int devno;
	DIR *dir;
	int e, rootfd;

	sdsi_clear_error(err);
	*devs = NULL;
	*count = 0;
	if (!root)
		root = sdsi_sysfs_root();
	rootfd = sdsi_open_tree_root(root, err);
	if (rootfd == -ENOENT) {
		sdsi_clear_error(err);
		return 0;	/* no auxiliary bus: no device, not an error */
	}
	if (rootfd < 0)
		return rootfd;
	e = dup(rootfd);
	dir = e < 0 ? NULL : fdopendir(e);
	if (!dir) {
		e = errno;
		close(rootfd);
		return sdsi_fail(err, e, sdsi_errno_class(e, false), -1, "%s: %s", root,
				 strerror(e));
	}
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, SDSI_DEVICE_PREFIX, prefix_len) != 0 ||
		    !parse_digits(de->d_name + prefix_len, &devno))
			continue;
		e = add_device(rootfd, root, devno, &list, n, &cap, err);
		if (e < 0) {
			closedir(dir);
			close(rootfd);
			sdsi_device_list_free(list, n);
			return e;
		}
		n += e == 0;
	}
	closedir(dir);
	close(rootfd);
	if (n)
		qsort(list, n, sizeof(*list), by_devno);
	*devs = list;
	*count = n;
	return 0;
}
