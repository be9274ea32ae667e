// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shape of the tree: inode numbers, names, modes, which nodes exist in
 * the current binding state, and the names the kernel caches (lookup and
 * their invalidation).  The other requests on nodes, and the refusals of
 * sysfs, are in fusedrv_node_ops.c.
 *
 * Inode numbers are fixed, so the kernel may keep any of them cached: 1-8 are
 * the fixed nodes, socket N owns 16 numbers from 16 + 16 * N.
 *
 * What the kernel caches: every name it looked up and every node's
 * attributes, for FUSEDRV_CACHE_S.  A node's attributes never change (modes,
 * sizes and times are fixed by the ABI and the mount), and the directories
 * and the driver's own files (bind, unbind, uevent, module) exist for the
 * life of the mount.  Attribute files and the
 * driver links come and go with the binding state; whoever hides them calls
 * fusedrv_tree_invalidate(), which drops the names from the kernel's cache
 * before unbind (or the reprobe) returns, so the next path lookup asks
 * lookup() again and gets ENOENT at once, as in sysfs.  A failed lookup is
 * never cached, so a file that appears is seen at once too.  File contents
 * are never cached (direct_io, fusedrv_files.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fusedrv_internal.h"
#include "sdsi/spdm_ioctl.h"

#define INO_ROOT		1u
#define INO_DEVICES		2u
#define INO_DRIVERS		3u
#define INO_DRIVER_DIR		4u
#define INO_BIND		5u
#define INO_UNBIND		6u
#define INO_DRIVER_UEVENT	7u
#define INO_DRIVER_MODULE	8u
#define INO_FIXED_LAST		INO_DRIVER_MODULE
#define INO_SOCKET_BASE		16u
#define INO_SOCKET_STRIDE	16u
#define SLOT_DEVICE_DIR		0u
#define SLOT_DEVICE_DRIVER	1u
#define SLOT_DRIVER_DEVICE	2u
#define SLOT_ATTR0		3u
#define SLOT_SPDM		(SLOT_ATTR0 + SDSI_FILE_COUNT)	/* isdsiN */
/* drivers/intel_sdsi/ lists its own files first, then one link per bound device */
#define DRIVER_DIR_OWN_FILES	4u

#define SYSFS_BLOCK_SIZE	4096

bool fusedrv_attr_visible(const struct sdsi_fusedrv *drv,
			  const struct fusedrv_socket *s, enum sdsi_sysfs_file attr)
{
	sdsi_assert_held_either(&s->state_lock, &s->mbox_lock);
	return s->bound && sdsi_sysfs_file_mode(attr, s->features, drv->abi) != 0;
}

fuse_ino_t fusedrv_node_ino(const struct fusedrv_node *node)
{
	fuse_ino_t base = INO_SOCKET_BASE + (fuse_ino_t)node->socket * INO_SOCKET_STRIDE;

	switch (node->kind) {
	case FUSEDRV_NODE_ROOT:		return INO_ROOT;
	case FUSEDRV_NODE_DEVICES:	return INO_DEVICES;
	case FUSEDRV_NODE_DRIVERS:	return INO_DRIVERS;
	case FUSEDRV_NODE_DRIVER_DIR:	return INO_DRIVER_DIR;
	case FUSEDRV_NODE_BIND:		return INO_BIND;
	case FUSEDRV_NODE_UNBIND:	return INO_UNBIND;
	case FUSEDRV_NODE_DRIVER_UEVENT: return INO_DRIVER_UEVENT;
	case FUSEDRV_NODE_DRIVER_MODULE: return INO_DRIVER_MODULE;
	case FUSEDRV_NODE_DEVICE_DIR:	return base + SLOT_DEVICE_DIR;
	case FUSEDRV_NODE_DEVICE_DRIVER: return base + SLOT_DEVICE_DRIVER;
	case FUSEDRV_NODE_DRIVER_DEVICE: return base + SLOT_DRIVER_DEVICE;
	case FUSEDRV_NODE_ATTR:		return base + SLOT_ATTR0 + node->attr;
	case FUSEDRV_NODE_SPDM:		return base + SLOT_SPDM;
	}
	return 0;
}

bool fusedrv_node_from_ino(const struct sdsi_fusedrv *drv, fuse_ino_t ino,
			   struct fusedrv_node *node)
{
	static const enum fusedrv_node_kind fixed[] = {
		[INO_ROOT] = FUSEDRV_NODE_ROOT,
		[INO_DEVICES] = FUSEDRV_NODE_DEVICES,
		[INO_DRIVERS] = FUSEDRV_NODE_DRIVERS,
		[INO_DRIVER_DIR] = FUSEDRV_NODE_DRIVER_DIR,
		[INO_BIND] = FUSEDRV_NODE_BIND,
		[INO_UNBIND] = FUSEDRV_NODE_UNBIND,
		[INO_DRIVER_UEVENT] = FUSEDRV_NODE_DRIVER_UEVENT,
		[INO_DRIVER_MODULE] = FUSEDRV_NODE_DRIVER_MODULE,
	};
	fuse_ino_t slot;

	memset(node, 0, sizeof(*node));
	if (ino >= INO_ROOT && ino <= INO_FIXED_LAST) {
		node->kind = fixed[ino];
		return true;
	}
	if (ino < INO_SOCKET_BASE)
		return false;
	if ((ino - INO_SOCKET_BASE) / INO_SOCKET_STRIDE >= drv->nsockets)
		return false;
	node->socket = (unsigned int)((ino - INO_SOCKET_BASE) / INO_SOCKET_STRIDE);
	slot = (ino - INO_SOCKET_BASE) % INO_SOCKET_STRIDE;
	if (slot == SLOT_DEVICE_DIR) {
		node->kind = FUSEDRV_NODE_DEVICE_DIR;
	} else if (slot == SLOT_DEVICE_DRIVER) {
		node->kind = FUSEDRV_NODE_DEVICE_DRIVER;
	} else if (slot == SLOT_DRIVER_DEVICE) {
		node->kind = FUSEDRV_NODE_DRIVER_DEVICE;
	} else if (slot == SLOT_SPDM) {
		node->kind = FUSEDRV_NODE_SPDM;
	} else if (slot - SLOT_ATTR0 < SDSI_FILE_COUNT) {
		node->kind = FUSEDRV_NODE_ATTR;
		node->attr = (enum sdsi_sysfs_file)(slot - SLOT_ATTR0);
	} else {
		return false;
	}
	return true;
}

bool fusedrv_req_node(fuse_req_t req, const struct sdsi_fusedrv *drv, fuse_ino_t ino,
		      struct fusedrv_node *node)
{
	if (fusedrv_node_from_ino(drv, ino, node))
		return true;
	fuse_reply_err(req, ENOENT);
	return false;
}

/* Whether a node is there now: links need a binding, attributes visibility. */
bool fusedrv_node_present(struct sdsi_fusedrv *drv, const struct fusedrv_node *node)
{
	struct fusedrv_socket *s;
	bool present;

	switch (node->kind) {
	case FUSEDRV_NODE_DEVICE_DRIVER:
	case FUSEDRV_NODE_DRIVER_DEVICE:
	case FUSEDRV_NODE_ATTR:
	case FUSEDRV_NODE_SPDM:
		break;
	default:
		return true;
	}
	s = &drv->sockets[node->socket];
	sdsi_lock_take(&s->state_lock);
	if (node->kind == FUSEDRV_NODE_SPDM)
		present = fusedrv_spdm_visible(drv, s);
	else if (node->kind == FUSEDRV_NODE_ATTR)
		present = fusedrv_attr_visible(drv, s, node->attr);
	else
		present = s->bound;
	sdsi_lock_release(&s->state_lock);
	return present;
}

void fusedrv_node_name(const struct fusedrv_node *node, char *buf, size_t len)
{
	switch (node->kind) {
	case FUSEDRV_NODE_ROOT:		snprintf(buf, len, "/"); break;
	case FUSEDRV_NODE_DEVICES:	snprintf(buf, len, "devices"); break;
	case FUSEDRV_NODE_DRIVERS:	snprintf(buf, len, "drivers"); break;
	case FUSEDRV_NODE_DRIVER_DIR:	snprintf(buf, len, FUSEDRV_DRIVER_NAME); break;
	case FUSEDRV_NODE_BIND:		snprintf(buf, len, "bind"); break;
	case FUSEDRV_NODE_UNBIND:	snprintf(buf, len, "unbind"); break;
	case FUSEDRV_NODE_DRIVER_UEVENT: snprintf(buf, len, "uevent"); break;
	case FUSEDRV_NODE_DRIVER_MODULE: snprintf(buf, len, "module"); break;
	case FUSEDRV_NODE_DEVICE_DRIVER: snprintf(buf, len, "driver"); break;
	case FUSEDRV_NODE_DEVICE_DIR:
	case FUSEDRV_NODE_DRIVER_DEVICE:
		snprintf(buf, len, SDSI_DEVICE_PREFIX "%u", node->socket);
		break;
	case FUSEDRV_NODE_ATTR:
		snprintf(buf, len, "%s", sdsi_sysfs_file_name(node->attr));
		break;
	case FUSEDRV_NODE_SPDM:
		snprintf(buf, len, SDSI_SPDM_DEVICE_PREFIX "%u", node->socket);
		break;
	}
}

/*
 * The idx-th possible child of a directory, present or not; false past the
 * end.  Indexes are stable across bind/unbind, so they serve as readdir
 * offsets.
 */
bool fusedrv_dir_child(const struct sdsi_fusedrv *drv, const struct fusedrv_node *dir,
		       size_t idx, struct fusedrv_node *child)
{
	memset(child, 0, sizeof(*child));
	switch (dir->kind) {
	case FUSEDRV_NODE_ROOT:
		if (idx > 1)
			return false;
		child->kind = idx == 0 ? FUSEDRV_NODE_DEVICES : FUSEDRV_NODE_DRIVERS;
		return true;
	case FUSEDRV_NODE_DRIVERS:
		child->kind = FUSEDRV_NODE_DRIVER_DIR;
		return idx == 0;
	case FUSEDRV_NODE_DEVICES:
		child->kind = FUSEDRV_NODE_DEVICE_DIR;
		child->socket = (unsigned int)idx;
		return idx < drv->nsockets;
	case FUSEDRV_NODE_DRIVER_DIR: {
		static const enum fusedrv_node_kind own[DRIVER_DIR_OWN_FILES] = {
			FUSEDRV_NODE_BIND, FUSEDRV_NODE_DRIVER_MODULE,
			FUSEDRV_NODE_DRIVER_UEVENT, FUSEDRV_NODE_UNBIND,
		};

		if (idx < DRIVER_DIR_OWN_FILES) {
			child->kind = own[idx];
			return true;
		}
		child->kind = FUSEDRV_NODE_DRIVER_DEVICE;
		child->socket = (unsigned int)(idx - DRIVER_DIR_OWN_FILES);
		return idx - DRIVER_DIR_OWN_FILES < drv->nsockets;
	}
	case FUSEDRV_NODE_DEVICE_DIR:
		child->socket = dir->socket;
		if (idx == 0) {
			child->kind = FUSEDRV_NODE_DEVICE_DRIVER;
			return true;
		}
		child->kind = FUSEDRV_NODE_ATTR;
		child->attr = (enum sdsi_sysfs_file)(idx - 1);
		return idx - 1 < SDSI_FILE_COUNT;
	default:
		return false;
	}
}

void fusedrv_node_stat(const struct sdsi_fusedrv *drv, const struct fusedrv_node *node,
		       struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = fusedrv_node_ino(node);
	st->st_uid = 0;
	st->st_gid = 0;
	st->st_blksize = SYSFS_BLOCK_SIZE;
	st->st_atim = drv->mount_time;
	st->st_mtim = drv->mount_time;
	st->st_ctim = drv->mount_time;
	st->st_nlink = 1;
	switch (node->kind) {
	case FUSEDRV_NODE_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 4;
		break;
	case FUSEDRV_NODE_DEVICES:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2 + drv->nsockets;
		break;
	case FUSEDRV_NODE_DRIVERS:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 3;
		break;
	case FUSEDRV_NODE_DRIVER_DIR:
	case FUSEDRV_NODE_DEVICE_DIR:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		break;
	case FUSEDRV_NODE_BIND:
	case FUSEDRV_NODE_UNBIND:
	case FUSEDRV_NODE_DRIVER_UEVENT:
		st->st_mode = S_IFREG | 0200;
		st->st_size = 4096;
		break;
	case FUSEDRV_NODE_DRIVER_MODULE:
	case FUSEDRV_NODE_DEVICE_DRIVER:
	case FUSEDRV_NODE_DRIVER_DEVICE:
		/* sysfs reports 0 for the size of its links, too */
		st->st_mode = S_IFLNK | 0777;
		break;
	case FUSEDRV_NODE_ATTR:
		st->st_mode = S_IFREG | sdsi_sysfs_file(node->attr)->mode;
		st->st_size = sdsi_sysfs_file_size(node->attr, drv->abi);
		break;
	case FUSEDRV_NODE_SPDM:
		/* root's alone, as Intel's misc device is */
		st->st_mode = S_IFREG | 0600;
		break;
	}
}

/* "isdsiN" in canonical decimal, N a socket of this driver. */
static bool spdm_parse_name(const struct sdsi_fusedrv *drv, const char *name,
			    unsigned int *socket)
{
	const size_t plen = strlen(SDSI_SPDM_DEVICE_PREFIX);
	unsigned long n = 0;
	const char *p;

	if (strncmp(name, SDSI_SPDM_DEVICE_PREFIX, plen) != 0 || !name[plen])
		return false;
	p = name + plen;
	if (p[0] == '0' && p[1])
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		n = n * 10 + (unsigned long)(*p - '0');
		if (n >= drv->nsockets)
			return false;
	}
	*socket = (unsigned int)n;
	return true;
}

/*
 * isdsiN in the root: the attestation transport (fusedrv_spdm.c), found only
 * by the driver's own process, so that sdsi-emu run can bind it at
 * /dev/isdsiN and the sysfs tree shows nothing more than Linux's.  Its
 * lookups are never cached, so once it is bound nobody else reaches it by
 * that name.  True once req was answered.
 */
static bool spdm_lookup(fuse_req_t req, struct sdsi_fusedrv *drv, const char *name)
{
	struct fusedrv_node node = { .kind = FUSEDRV_NODE_SPDM };
	struct fusedrv_socket *s;
	struct fuse_entry_param e;
	bool visible;

	if (!spdm_parse_name(drv, name, &node.socket))
		return false;
	/* the main thread's id is the process's: sdsi-emu binds from there */
	if (fuse_req_ctx(req)->pid != getpid()) {
		fuse_reply_err(req, ENOENT);
		return true;
	}
	s = &drv->sockets[node.socket];
	sdsi_lock_take(&s->state_lock);
	visible = fusedrv_spdm_visible(drv, s);
	sdsi_lock_release(&s->state_lock);
	if (!visible) {
		fuse_reply_err(req, ENOENT);
		return true;
	}
	memset(&e, 0, sizeof(e));
	e.ino = fusedrv_node_ino(&node);
	e.entry_timeout = 0;	/* never cached: the next lookup is asked again */
	e.attr_timeout = FUSEDRV_CACHE_S;
	fusedrv_node_stat(drv, &node, &e.attr);
	fuse_reply_entry(req, &e);
	return true;
}

void fusedrv_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_node dir, child;
	struct fuse_entry_param e;
	char child_name[64];

	if (!fusedrv_req_node(req, drv, parent, &dir))
		return;
	if (dir.kind == FUSEDRV_NODE_ROOT && spdm_lookup(req, drv, name))
		return;
	for (size_t idx = 0; fusedrv_dir_child(drv, &dir, idx, &child); idx++) {
		fusedrv_node_name(&child, child_name, sizeof(child_name));
		if (strcmp(child_name, name) != 0)
			continue;
		if (!fusedrv_node_present(drv, &child))
			break;
		memset(&e, 0, sizeof(e));
		e.ino = fusedrv_node_ino(&child);
		e.attr_timeout = FUSEDRV_CACHE_S;
		e.entry_timeout = FUSEDRV_CACHE_S;
		fusedrv_node_stat(drv, &child, &e.attr);
		fuse_reply_entry(req, &e);
		return;
	}
	fuse_reply_err(req, ENOENT);
}

static void invalidate_name(struct sdsi_fusedrv *drv, const struct fusedrv_node *parent,
			    const struct fusedrv_node *child)
{
	char name[64];
	int ret;

	fusedrv_node_name(child, name, sizeof(name));
	ret = fuse_lowlevel_notify_inval_entry(drv->se, fusedrv_node_ino(parent), name,
					       strlen(name));
	/* ENOENT: the kernel never looked the parent up; ENOTCONN: unmounted */
	if (ret && ret != -ENOENT && ret != -ENOTCONN)
		fprintf(stderr, "sdsi_fusedrv: cannot drop %s from the kernel's cache: %s\n",
			name, strerror(-ret));
}

/*
 * Runs in the thread that hid the nodes, which may be a FUSE worker serving
 * a write to unbind: the kernel takes the parent directory's lock for each
 * name, and waits for a lookup in flight there, which another worker
 * answers without any lock this thread could hold.
 */
void fusedrv_tree_invalidate(struct sdsi_fusedrv *drv, unsigned int socket,
			     unsigned int hidden)
{
	struct fusedrv_node dev = { .kind = FUSEDRV_NODE_DEVICE_DIR, .socket = socket };
	struct fusedrv_node drvdir = { .kind = FUSEDRV_NODE_DRIVER_DIR };
	struct fusedrv_node child = { .socket = socket };

	if (!hidden || !drv->se)
		return;
	for (int a = 0; a < SDSI_FILE_COUNT; a++) {
		if (!(hidden & FUSEDRV_HIDDEN_ATTR(a)))
			continue;
		child.kind = FUSEDRV_NODE_ATTR;
		child.attr = (enum sdsi_sysfs_file)a;
		invalidate_name(drv, &dev, &child);
	}
	if (hidden & FUSEDRV_HIDDEN_LINKS) {
		child.kind = FUSEDRV_NODE_DEVICE_DRIVER;
		invalidate_name(drv, &dev, &child);
		child.kind = FUSEDRV_NODE_DRIVER_DEVICE;
		invalidate_name(drv, &drvdir, &child);
	}
}
