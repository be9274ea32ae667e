// SPDX-License-Identifier: GPL-2.0-only
/*
 * The requests on the tree's nodes other than lookup and file contents:
 * attributes (getattr, setattr), the driver links (readlink), directory
 * listings (readdir), and the changes to the namespace that sysfs refuses.
 * What each node is and whether it is there comes from fusedrv_tree.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fusedrv_internal.h"

/*
 * Attributes of a node that has vanished are still served: fstat() on a
 * handle opened before unbind works on sysfs too.  Path lookups go through
 * lookup, which refuses them.
 */
void fusedrv_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_node node;
	struct stat st;

	if (!fusedrv_req_node(req, drv, ino, &node))
		return;
	fusedrv_node_stat(drv, &node, &st);
	fuse_reply_attr(req, &st, FUSEDRV_CACHE_S);
}

/*
 * Like kernfs for a driver without its own setattr: truncation (the O_TRUNC
 * of `echo name > unbind`) and time updates are accepted and change nothing.
 * Modes and owners are part of the ABI, so changing them is refused.
 */
void fusedrv_op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			int to_set, struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_node node;
	struct stat st;

	if (!fusedrv_req_node(req, drv, ino, &node))
		return;
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fusedrv_node_stat(drv, &node, &st);
	fuse_reply_attr(req, &st, FUSEDRV_CACHE_S);
}

void fusedrv_op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_node node;
	char target[64];

	if (!fusedrv_node_from_ino(drv, ino, &node) || !fusedrv_node_present(drv, &node)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (node.kind == FUSEDRV_NODE_DEVICE_DRIVER)
		snprintf(target, sizeof(target), "../../drivers/" FUSEDRV_DRIVER_NAME);
	else if (node.kind == FUSEDRV_NODE_DRIVER_MODULE)
		snprintf(target, sizeof(target), FUSEDRV_MODULE_LINK);
	else if (node.kind == FUSEDRV_NODE_DRIVER_DEVICE)
		snprintf(target, sizeof(target), "../../devices/" SDSI_DEVICE_PREFIX "%u",
			 node.socket);
	else {
		fuse_reply_err(req, EINVAL);
		return;
	}
	fuse_reply_readlink(req, target);
}

/* Offsets: 1 after ".", 2 after "..", 3 + idx after the child idx. */
void fusedrv_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_node dir, child;
	char buf[4096], name[64];
	size_t used = 0, want;
	struct stat st;

	if (!fusedrv_req_node(req, drv, ino, &dir))
		return;
	if (size > sizeof(buf))
		size = sizeof(buf);
	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR;
	for (off_t pos = off < 0 ? 0 : off;; pos++) {
		if (pos < 2) {
			st.st_ino = ino;	/* the kernel ignores d_ino of ".." */
			want = fuse_add_direntry(req, buf + used, size - used,
						 pos == 0 ? "." : "..", &st, pos + 1);
		} else {
			if (!fusedrv_dir_child(drv, &dir, (size_t)(pos - 2), &child))
				break;
			if (!fusedrv_node_present(drv, &child))
				continue;
			fusedrv_node_stat(drv, &child, &st);
			fusedrv_node_name(&child, name, sizeof(name));
			want = fuse_add_direntry(req, buf + used, size - used, name,
						 &st, pos + 1);
		}
		if (want > size - used)
			break;
		used += want;
	}
	fuse_reply_buf(req, buf, used);
}

/*
 * sysfs refuses to change its namespace from user space: creating a file
 * fails in the VFS with EACCES (no create operation), everything else with
 * EPERM.
 */
void fusedrv_op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		       mode_t mode, struct fuse_file_info *fi)
{
	fuse_reply_err(req, EACCES);
}

void fusedrv_op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, dev_t rdev)
{
	fuse_reply_err(req, EPERM);
}

void fusedrv_op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	fuse_reply_err(req, EPERM);
}

void fusedrv_op_remove(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

void fusedrv_op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
			const char *name)
{
	fuse_reply_err(req, EPERM);
}

void fusedrv_op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		       fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	fuse_reply_err(req, EPERM);
}

void fusedrv_op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		     const char *newname)
{
	fuse_reply_err(req, EPERM);
}
