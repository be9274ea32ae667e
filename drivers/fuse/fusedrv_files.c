// SPDX-License-Identifier: GPL-2.0-only
/*
 * The regular files: open with kernfs permission semantics, and the read and
 * write behaviour of every attribute and of bind, unbind and uevent, with the
 * checks in the order kernfs and the Linux driver make them (docs/interface.md
 * §9).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedrv_internal.h"

/* kernfs never hands more than a page to a bin attribute in one call. */
#define KERNFS_IO_MAX		4096u

static struct fusedrv_handle *handle_of(const struct fuse_file_info *fi)
{
	return (struct fusedrv_handle *)(uintptr_t)fi->fh;
}

static void handle_track(struct sdsi_fusedrv *drv, struct fusedrv_handle *h)
{
	pthread_mutex_lock(&drv->handles_lock);
	h->next = drv->handles.next;
	h->prev = &drv->handles;
	h->next->prev = h;
	drv->handles.next = h;
	pthread_mutex_unlock(&drv->handles_lock);
}

static void handle_free(struct sdsi_fusedrv *drv, struct fusedrv_handle *h)
{
	pthread_mutex_lock(&drv->handles_lock);
	h->prev->next = h->next;
	h->next->prev = h->prev;
	pthread_mutex_unlock(&drv->handles_lock);
	free(h);
}

/* Caller holds state_lock or mbox_lock. */
static bool handle_live(const struct sdsi_fusedrv *drv, const struct fusedrv_socket *s,
			const struct fusedrv_handle *h)
{
	sdsi_assert_held_either(&s->state_lock, &s->mbox_lock);
	return fusedrv_attr_visible(drv, s, h->node.attr) &&
	       s->attr_gen[h->node.attr] == h->gen;
}

/*
 * kernfs refuses to open for reading a file that has no read bits, or for
 * writing one without write bits, even for root; the kernel's own checks
 * (default_permissions) cover everybody else.
 */
static bool open_mode_allowed(mode_t mode, int flags)
{
	int acc = flags & O_ACCMODE;

	if ((acc == O_RDONLY || acc == O_RDWR) && !(mode & 0444))
		return false;
	if ((acc == O_WRONLY || acc == O_RDWR) && !(mode & 0222))
		return false;
	return true;
}

void fusedrv_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_handle *h;
	struct fusedrv_node node;
	struct fusedrv_socket *s;
	mode_t mode;

	if (!fusedrv_req_node(req, drv, ino, &node))
		return;
	if (node.kind == FUSEDRV_NODE_BIND || node.kind == FUSEDRV_NODE_UNBIND ||
	    node.kind == FUSEDRV_NODE_DRIVER_UEVENT)
		mode = 0200;
	else if (node.kind == FUSEDRV_NODE_ATTR)
		mode = sdsi_sysfs_file(node.attr)->mode;
	else if (node.kind == FUSEDRV_NODE_SPDM)
		mode = 0600;
	else {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (!open_mode_allowed(mode, fi->flags)) {
		fuse_reply_err(req, EACCES);
		return;
	}
	/* isdsiN's transaction state comes with the handle, and goes with it */
	h = calloc(1, sizeof(*h) + (node.kind == FUSEDRV_NODE_SPDM ?
				    fusedrv_spdm_txn_size() : 0));
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	h->node = node;
	if (node.kind == FUSEDRV_NODE_SPDM) {
		s = &drv->sockets[node.socket];
		h->spdm = (struct fusedrv_spdm_txn *)(h + 1);
		sdsi_lock_take(&s->state_lock);
		if (!fusedrv_spdm_visible(drv, s)) {
			sdsi_lock_release(&s->state_lock);
			free(h);
			fuse_reply_err(req, ENODEV);
			return;
		}
		h->gen = s->spdm_gen;
		sdsi_lock_release(&s->state_lock);
		/* a character device's file: no position, pread and pwrite refused */
		fi->nonseekable = 1;
	}
	if (node.kind == FUSEDRV_NODE_ATTR) {
		s = &drv->sockets[node.socket];
		sdsi_lock_take(&s->state_lock);
		if (!fusedrv_attr_visible(drv, s, node.attr)) {
			/* removed between lookup and open: kernfs says ENODEV */
			sdsi_lock_release(&s->state_lock);
			free(h);
			fuse_reply_err(req, ENODEV);
			return;
		}
		h->gen = s->attr_gen[node.attr];
		sdsi_lock_release(&s->state_lock);
	}
	handle_track(drv, h);
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fi->noflush = 1;
	/* an interrupted open gets no release: the handle is ours to free */
	if (fuse_reply_open(req, fi) == -ENOENT)
		handle_free(drv, h);
}

void fusedrv_op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	handle_free(fuse_req_userdata(req), handle_of(fi));
	fuse_reply_err(req, 0);
}

/*
 * A read of a small attribute that is copied out whole first: ENODEV once
 * the device is gone, else the bytes from off, at most size (none past the end).
 */
static void reply_bytes(fuse_req_t req, bool live, const void *bytes, size_t len,
			size_t size, off_t off)
{
	if (!live) {
		fuse_reply_err(req, ENODEV);
		return;
	}
	if ((uint64_t)off >= len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	len -= (size_t)off;
	fuse_reply_buf(req, (const char *)bytes + off, size < len ? size : len);
}

static void read_guid(fuse_req_t req, struct sdsi_fusedrv *drv,
		      const struct fusedrv_handle *h, size_t size, off_t off)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	char text[16];
	size_t len;
	bool live;

	sdsi_lock_take(&s->state_lock);
	live = handle_live(drv, s, h);
	len = (size_t)snprintf(text, sizeof(text), "0x%x\n", s->mb.guid);
	sdsi_lock_release(&s->state_lock);
	reply_bytes(req, live, text, len, size, off);
}

/* The register file is not a mailbox transaction: it does not wait for one. */
static void read_registers(fuse_req_t req, struct sdsi_fusedrv *drv,
			   const struct fusedrv_handle *h, size_t size, off_t off)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	uint8_t regs[SDSI_REGS_SIZE_V2];
	size_t regs_size = 0;
	bool live;

	sdsi_lock_take(&s->state_lock);
	live = handle_live(drv, s, h);
	if (live) {
		regs_size = s->mb.regs_size;
		sdsi_mbox_read_registers(&s->mb, regs);
	}
	sdsi_lock_release(&s->state_lock);
	reply_bytes(req, live, regs, regs_size, size, off);
}

static void read_certificate(fuse_req_t req, struct sdsi_fusedrv *drv,
			     const struct fusedrv_handle *h, size_t size, off_t off)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	const struct sdsi_sysfs_file_desc *file = sdsi_sysfs_file(h->node.attr);
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len = 0;
	int ret;

	sdsi_lock_take(&s->mbox_lock);
	if (!handle_live(drv, s, h))
		ret = -ENODEV;
	else if ((uint64_t)off >= SDSI_READ_MSG_MAX)
		ret = 0;	/* kernfs: at or past st_size */
	else if (drv->abi == SDSI_ABI_EARLY && !(s->features & SDSI_FEATURE_ON_DEMAND))
		ret = -EPERM;	/* the early driver checks before the offset */
	else if (off != 0)
		ret = 0;	/* the whole certificate comes from the read at 0 */
	else
		ret = sdsi_mbox_read(&s->mb, file->command,
				     (file->ctrl & SDSI_CTRL_METER_CURRENT) != 0, buf, &len);
	sdsi_lock_release(&s->mbox_lock);
	if (ret < 0) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (size > KERNFS_IO_MAX)
		size = KERNFS_IO_MAX;
	fuse_reply_buf(req, (const char *)buf, size < len ? size : len);
}

void fusedrv_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_handle *h = handle_of(fi);

	if (h->node.kind == FUSEDRV_NODE_SPDM) {
		fusedrv_spdm_read(req, drv, h, size);
		return;
	}
	if (h->node.kind != FUSEDRV_NODE_ATTR || off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	switch (h->node.attr) {
	case SDSI_FILE_GUID:
		read_guid(req, drv, h, size, off);
		break;
	case SDSI_FILE_REGISTERS:
		read_registers(req, drv, h, size, off);
		break;
	case SDSI_FILE_STATE_CERT:
	case SDSI_FILE_METER_CERT:
	case SDSI_FILE_METER_CURRENT:
		read_certificate(req, drv, h, size, off);
		break;
	default:
		/* write-only files: open refused reading already */
		fuse_reply_err(req, EBADF);
		break;
	}
}

/*
 * Returns the count written or -errno.  Checks in the order of kernfs (end
 * of file, clamp), then of the driver: the current one checks the offset,
 * the size, then the in-band lock; the early one the offset, On Demand, then
 * the size.
 */
static long write_provision(struct sdsi_fusedrv *drv, const struct fusedrv_handle *h,
			    const char *buf, size_t size, off_t off)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	uint64_t command = sdsi_sysfs_file(h->node.attr)->command;
	long ret;

	sdsi_lock_take(&s->mbox_lock);
	if (!handle_live(drv, s, h)) {
		ret = -ENODEV;
		goto out;
	}
	if ((uint64_t)off >= SDSI_MBOX_SIZE) {
		ret = -EFBIG;
		goto out;
	}
	if (size > SDSI_MBOX_SIZE - (size_t)off)
		size = SDSI_MBOX_SIZE - (size_t)off;
	if (size == 0) {
		ret = 0;
		goto out;
	}
	if (off != 0) {
		ret = -ESPIPE;
	} else if (drv->abi == SDSI_ABI_EARLY) {
		if (!(s->features & SDSI_FEATURE_ON_DEMAND))
			ret = -EPERM;
		else if (size > SDSI_WRITE_PAYLOAD_MAX)
			ret = -EOVERFLOW;
		else
			ret = sdsi_mbox_write(&s->mb, command, buf, size);
	} else {
		if (size > SDSI_WRITE_PAYLOAD_MAX)
			ret = -EOVERFLOW;
		else if (sdsi_mbox_iblocked(&s->mb))
			ret = -EPERM;
		else
			ret = sdsi_mbox_write(&s->mb, command, buf, size);
	}
	if (ret == 0)
		ret = (long)size;
out:
	sdsi_lock_release(&s->mbox_lock);
	return ret;
}

int fusedrv_parse_device_name(const char *buf, size_t len, unsigned int *socket)
{
	const size_t prefix_len = strlen(SDSI_DEVICE_PREFIX);
	unsigned long n = 0;
	size_t i;

	const char *nul = memchr(buf, '\0', len);

	/* kernfs ends the text with a NUL and the driver core compares C strings */
	if (nul)
		len = (size_t)(nul - buf);
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len <= prefix_len || memcmp(buf, SDSI_DEVICE_PREFIX, prefix_len) != 0)
		return -ENODEV;
	/* device names are canonical: "01" names nothing */
	if (buf[prefix_len] == '0' && len > prefix_len + 1)
		return -ENODEV;
	for (i = prefix_len; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -ENODEV;
		n = n * 10 + (unsigned long)(buf[i] - '0');
		if (n > UINT32_MAX)
			return -ENODEV;
	}
	*socket = (unsigned int)n;
	return 0;
}

static long write_bind_file(struct sdsi_fusedrv *drv, bool bind, const char *buf,
			    size_t size)
{
	unsigned int socket;
	int ret;

	ret = fusedrv_parse_device_name(buf, size, &socket);
	if (ret == 0)
		ret = bind ? sdsi_fusedrv_bind(drv, socket) : sdsi_fusedrv_unbind(drv, socket);
	return ret < 0 ? ret : (long)size;
}

void fusedrv_op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		      size_t size, off_t off, struct fuse_file_info *fi)
{
	struct sdsi_fusedrv *drv = fuse_req_userdata(req);
	struct fusedrv_handle *h = handle_of(fi);
	long ret;

	if (h->node.kind == FUSEDRV_NODE_SPDM) {
		ret = fusedrv_spdm_write(drv, h, buf, size);
		if (ret < 0)
			fuse_reply_err(req, (int)-ret);
		else
			fuse_reply_write(req, (size_t)ret);
		return;
	}
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	/*
	 * The driver's own files are plain sysfs attributes: kernfs hands
	 * their store at most a page from one write, and an empty write
	 * never reaches it.
	 */
	if (h->node.kind == FUSEDRV_NODE_BIND || h->node.kind == FUSEDRV_NODE_UNBIND ||
	    h->node.kind == FUSEDRV_NODE_DRIVER_UEVENT) {
		if (size > KERNFS_IO_MAX)
			size = KERNFS_IO_MAX;
		if (size == 0) {
			fuse_reply_write(req, 0);
			return;
		}
	}
	switch (h->node.kind) {
	case FUSEDRV_NODE_BIND:
	case FUSEDRV_NODE_UNBIND:
		ret = write_bind_file(drv, h->node.kind == FUSEDRV_NODE_BIND, buf, size);
		break;
	case FUSEDRV_NODE_DRIVER_UEVENT:
		ret = fusedrv_check_uevent(buf, size);
		if (ret == 0)
			ret = (long)size;
		break;
	case FUSEDRV_NODE_ATTR:
		if (h->node.attr == SDSI_FILE_PROVISION_AKC ||
		    h->node.attr == SDSI_FILE_PROVISION_CAP)
			ret = write_provision(drv, h, buf, size, off);
		else
			ret = -EBADF;	/* read-only files: open refused writing */
		break;
	default:
		ret = -EBADF;
		break;
	}
	if (ret < 0)
		fuse_reply_err(req, (int)-ret);
	else
		fuse_reply_write(req, (size_t)ret);
}
