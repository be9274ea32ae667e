// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The device tree, opened once.  A device directory is opened when the
 * device is, and every attribute relative to it with O_NOFOLLOW, checked
 * by its descriptor to be a regular file: a tree given by --sysfs-root
 * could otherwise have provision_akc lead to a file of root's, which the
 * AKC would overwrite, or registers to a secret, which would be printed.
 *
 * The kernel's tree (a root under /sys) is made of the kernel's own links
 * (devices/intel_vsec.sdsi.N -> ../../../devices/...), followed there.
 * Any other root is walked as sdsi_path.h walks a path that matters: from
 * "/", no link followed, every directory owned by root or the caller and
 * closed to others' writes, the device directories included.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/input_file.h"
#include "sdsi_internal.h"
#include "paths/sdsi_path.h"

/* "/sys" or below it, without ".." to climb out. */
static bool is_kernel_tree(const char *root)
{
	if (strncmp(root, "/sys", 4) != 0 || (root[4] != '\0' && root[4] != '/'))
		return false;
	for (const char *p = root; (p = strstr(p, "/..")); p += 3)
		if (p[3] == '\0' || p[3] == '/')
			return false;
	return true;
}

/* The class of a failure to open a tree's directory: not there, refused, or other. */
static enum sdsi_error_class dir_class(int e)
{
	if (e == EPERM || e == ELOOP)
		return SDSI_ERR_REFUSED;
	if (e == ENOENT || e == ENOTDIR)
		return SDSI_ERR_NO_DEVICE;
	return sdsi_errno_class(e, false);
}

int sdsi_open_tree_root(const char *root, struct sdsi_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	struct stat st;
	int fd, rc;

	if (!is_kernel_tree(root)) {
		fd = sdsi_path_open_dir(root, "sysfs root", msg, sizeof(msg));
		if (fd < 0)
			return sdsi_fail(err, -fd, dir_class(-fd), -1, "%s", msg);
		return fd;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		rc = errno;
		return sdsi_fail(err, rc, dir_class(rc), -1, "%s: %s", root, strerror(rc));
	}
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else
		rc = sdsi_path_check_owner(&st, true, "sysfs root", root, root, msg, sizeof(msg));
	if (rc) {
		close(fd);
		return sdsi_fail(err, -rc, dir_class(-rc), -1, "%s", msg);
	}
	return fd;
}

int sdsi_open_device_dir(int rootfd, const char *root, struct sdsi_device *dev,
			 struct sdsi_error *err)
{
	const int follow = is_kernel_tree(root) ? 0 : O_NOFOLLOW;
	char msg[SDSI_PATH_ERR_SIZE];
	struct stat st;
	int fd, rc;

	fd = openat(rootfd, dev->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | follow);
	if (fd < 0) {
		rc = errno;
		if (rc == ENOTDIR && follow &&
		    fstatat(rootfd, dev->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
			return sdsi_fail(err, ELOOP, SDSI_ERR_REFUSED, -1,
					 "%s: a symbolic link, not followed outside /sys (its target could be swapped)",
					 dev->path);
		return sdsi_fail(err, rc, dir_class(rc), -1, "%s: %s", dev->path, strerror(rc));
	}
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else
		rc = sdsi_path_check_owner(&st, true, "device directory", dev->path, dev->path, msg,
					   sizeof(msg));
	if (rc) {
		close(fd);
		return sdsi_fail(err, -rc, dir_class(-rc), -1, "%s", msg);
	}
	dev->dirfd = fd;
	return 0;
}

int sdsi_open_attr(const struct sdsi_device *dev, const char *name, int oflags, int *errnum,
		   const char **kind)
{
	struct stat st;
	int fd;

	*kind = NULL;
	fd = openat(dev->dirfd, name, oflags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*errnum = errno;
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*errnum = S_ISREG(st.st_mode) ? errno : -sdsi_refuse_kind(st.st_mode, kind);
		close(fd);
		return -1;
	}
	return fd;
}

int sdsi_fail_attr_open(struct sdsi_error *err, const struct sdsi_device *dev, const char *name,
			int errnum, const char *kind, bool provisioning)
{
	if (kind)
		return sdsi_fail(err, errnum, SDSI_ERR_IO, -1,
				 "%s/%s: not a regular file: it is %s", dev->path, name, kind);
	if (errnum == ELOOP)
		return sdsi_fail(err, errnum, SDSI_ERR_REFUSED, -1,
				 "%s/%s: a symbolic link, not followed (an attribute is a file of the device's own)",
				 dev->path, name);
	return sdsi_fail(err, errnum, sdsi_errno_class(errnum, provisioning), -1, "%s/%s: open: %s",
			 dev->path, name, sdsi_errno_meaning(errnum, provisioning));
}
