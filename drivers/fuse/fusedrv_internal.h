/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between the files of the FUSE driver: the per-socket binding state,
 * the inode scheme of the tree and the request handlers.
 *
 * Locking: each socket has two mutexes.  mbox_lock serialises mailbox
 * transactions, sdsi_fusedrv_with_socket() and bind/unbind (the ABI allows one
 * transaction per socket at a time).  state_lock guards the binding state
 * (bound, features, mb, attr_gen) for readers that must not wait behind a
 * transaction (lookup, getattr, guid, registers).  Whoever changes the
 * binding state holds both, mbox_lock first, so holding either one is enough
 * to read it.  The functions with such a rule check it (sdsi_assert_held).
 */
#ifndef SDSI_DRIVERS_FUSE_FUSEDRV_INTERNAL_H
#define SDSI_DRIVERS_FUSE_FUSEDRV_INTERNAL_H

#define FUSE_USE_VERSION 35

#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "sdsi/hw.h"
#include "sdsi/sysfs_files.h"
#include "lock/sdsi_lock.h"
#include "sdsi_fusedrv.h"

/* Node kinds of the tree; see fusedrv_tree.c for the inode numbers. */
enum fusedrv_node_kind {
	FUSEDRV_NODE_ROOT,
	FUSEDRV_NODE_DEVICES,		/* devices/ */
	FUSEDRV_NODE_DRIVERS,		/* drivers/ */
	FUSEDRV_NODE_DRIVER_DIR,	/* drivers/intel_sdsi/ */
	FUSEDRV_NODE_BIND,		/* drivers/intel_sdsi/bind */
	FUSEDRV_NODE_UNBIND,		/* drivers/intel_sdsi/unbind */
	FUSEDRV_NODE_DRIVER_UEVENT,	/* drivers/intel_sdsi/uevent */
	FUSEDRV_NODE_DRIVER_MODULE,	/* drivers/intel_sdsi/module */
	FUSEDRV_NODE_DEVICE_DIR,	/* devices/intel_vsec.sdsi.N/ */
	FUSEDRV_NODE_DEVICE_DRIVER,	/* devices/intel_vsec.sdsi.N/driver */
	FUSEDRV_NODE_DRIVER_DEVICE,	/* drivers/intel_sdsi/intel_vsec.sdsi.N */
	FUSEDRV_NODE_ATTR,		/* devices/intel_vsec.sdsi.N/<attr>: the
					   sysfs_files.h row in attr */
	/*
	 * isdsiN: the attestation transport, bound at /dev/isdsiN by sdsi-emu
	 * run; only the driver's own process finds it (fusedrv_spdm.c).
	 */
	FUSEDRV_NODE_SPDM,
};

struct fusedrv_node {
	enum fusedrv_node_kind kind;
	unsigned int socket;
	enum sdsi_sysfs_file attr;
};

/*
 * What an open file remembers; fi->fh points to one.  Handles are also on
 * the driver's list, because an unmount with files still open never gets
 * their release.
 */
struct fusedrv_handle {
	struct fusedrv_node node;
	uint64_t gen;			/* attr_gen (spdm_gen) at open */
	struct fusedrv_spdm_txn *spdm;	/* isdsiN only, freed with the handle */
	struct fusedrv_handle *prev, *next;
};

/* FUSE opcodes are small numbers; slot 0 (no opcode) counts the others. */
#define FUSEDRV_OPCODE_SLOTS	64

struct fusedrv_socket {
	struct sdsi_lock mbox_lock;
	struct sdsi_lock state_lock;
	unsigned int index;
	struct sdsi_fusedrv_backend backend;
	struct sdsi_mbox mb;		/* valid while bound */
	bool bound;
	uint64_t features;		/* ENABLED_FEATURES sampled at probe */
	/*
	 * Bumped whenever an attribute file disappears (unbind, or a reprobe
	 * that hides it), so that handles opened before fail with ENODEV even
	 * if the file comes back.
	 */
	uint64_t attr_gen[SDSI_FILE_COUNT];
	uint64_t spdm_gen;		/* the same for isdsiN */
};

struct sdsi_fusedrv {
	enum sdsi_abi abi;
	struct sdsi_mbox_params params;
	unsigned int nsockets;
	struct fusedrv_socket *sockets;
	struct timespec mount_time;

	struct fuse_session *se;
	struct fusedrv_worker *workers;	/* fusedrv_session.c */
	unsigned int nworkers;
	unsigned int workers_started;
	int stop_fd;			/* eventfd: tells the workers to leave */

	pthread_mutex_t handles_lock;
	struct fusedrv_handle handles;	/* list head of the open handles */

	pthread_mutex_t init_lock;
	pthread_cond_t init_cond;
	bool init_done;

	/* request counters, kept only when stats_path is set (fusedrv_stats.c) */
	char *stats_path;
	uint64_t requests[FUSEDRV_OPCODE_SLOTS];
};

#define FUSEDRV_DRIVER_NAME	"intel_sdsi"
/* drivers/intel_sdsi/module: where /sys/module/intel_sdsi is from the driver's directory */
#define FUSEDRV_MODULE_LINK	"../../../../module/" FUSEDRV_DRIVER_NAME

/*
 * Mount the tree and start the workers; 0 or -errno with err filled, after
 * which fusedrv_session_stop() still has to run.  Stop: stop the workers,
 * unmount; safe when start failed or never ran (fusedrv_session.c).
 */
int fusedrv_session_start(struct sdsi_fusedrv *drv, const char *mountpoint,
			  bool allow_other, char *err, size_t errlen);
void fusedrv_session_stop(struct sdsi_fusedrv *drv);

/*
 * Socket number socket of drv, or NULL where drv has none: the public
 * calls answer that -ENODEV.  Inline, so that a file taking a socket by
 * number calls into no other for it.
 */
static inline struct fusedrv_socket *fusedrv_socket_at(const struct sdsi_fusedrv *drv,
							unsigned int socket)
{
	return drv && socket < drv->nsockets ? &drv->sockets[socket] : NULL;
}

/*
 * Probe a socket as the Linux driver does at bind: discover, initialise the
 * driver core, sample the features; caller holds mbox_lock (fusedrv_binding.c).
 */
int fusedrv_socket_probe(struct sdsi_fusedrv *drv, struct fusedrv_socket *s);

/* Request counters for measurements (fusedrv_stats.c). */
void fusedrv_stats_init(struct sdsi_fusedrv *drv);
void fusedrv_stats_count(struct sdsi_fusedrv *drv, const struct fuse_buf *buf);
void fusedrv_stats_write(struct sdsi_fusedrv *drv);

/*
 * What the kernel may cache of the tree (fusedrv_tree.c).  Names and
 * attributes are kept for FUSEDRV_CACHE_S; a node that vanishes (unbind,
 * or a reprobe that hides an attribute) is dropped from the kernel's cache
 * by fusedrv_tree_invalidate() before the change is reported done.
 */
/* long enough never to expire in practice: validity is kept by invalidation */
#define FUSEDRV_CACHE_S		86400.0
#define FUSEDRV_HIDDEN_ATTR(a)	(1u << (a))
#define FUSEDRV_HIDDEN_LINKS	(1u << SDSI_FILE_COUNT)
/* Caller holds neither socket lock: the kernel may wait for a lookup. */
void fusedrv_tree_invalidate(struct sdsi_fusedrv *drv, unsigned int socket,
			     unsigned int hidden);

/* Inode scheme and presence (fusedrv_tree.c). */
fuse_ino_t fusedrv_node_ino(const struct fusedrv_node *node);
bool fusedrv_node_from_ino(const struct sdsi_fusedrv *drv, fuse_ino_t ino,
			   struct fusedrv_node *node);
/* A request's first step: the node of ino, or false once req got ENOENT. */
bool fusedrv_req_node(fuse_req_t req, const struct sdsi_fusedrv *drv, fuse_ino_t ino,
		      struct fusedrv_node *node);
/* Caller holds the socket's state_lock or mbox_lock. */
bool fusedrv_attr_visible(const struct sdsi_fusedrv *drv,
			  const struct fusedrv_socket *s, enum sdsi_sysfs_file attr);
/* Whether a node is there now: links need a binding, attributes visibility. */
bool fusedrv_node_present(struct sdsi_fusedrv *drv, const struct fusedrv_node *node);
void fusedrv_node_name(const struct fusedrv_node *node, char *buf, size_t len);
/* The idx-th child a directory can have, present or not; false past the last. */
bool fusedrv_dir_child(const struct sdsi_fusedrv *drv, const struct fusedrv_node *dir,
		       size_t idx, struct fusedrv_node *child);
/* A node's attributes, fixed by the ABI and the mount. */
void fusedrv_node_stat(const struct sdsi_fusedrv *drv, const struct fusedrv_node *node,
		       struct stat *st);

/*
 * Parse what was written to bind/unbind: "intel_vsec.sdsi.N" with at most one
 * trailing newline, N in canonical decimal.  As the kernel compares the
 * written text as a C string, anything from the first NUL on is ignored.
 * Returns 0 and the socket number, or -ENODEV for anything that cannot name
 * a device.
 */
int fusedrv_parse_device_name(const char *buf, size_t len, unsigned int *socket);

/*
 * Check what was written to the driver's uevent file as the kernel parses a
 * synthetic uevent: "ACTION [UUID [KEY=VALUE]...]" (fusedrv_uevent.c).
 * Returns 0 or -EINVAL.  Nothing is sent: there is no uevent socket here.
 */
int fusedrv_check_uevent(const char *buf, size_t len);

/*
 * The attestation transport, isdsiN (fusedrv_spdm.c).  Visible while the
 * socket is bound with ENABLED_FEATURES bit 12, under the current ABI only
 * (the early driver never had one); caller holds a socket lock.
 */
bool fusedrv_spdm_visible(const struct sdsi_fusedrv *drv, const struct fusedrv_socket *s);
/* The per-open transaction state allocated with the handle. */
size_t fusedrv_spdm_txn_size(void);
void fusedrv_spdm_read(fuse_req_t req, struct sdsi_fusedrv *drv,
		       struct fusedrv_handle *h, size_t size);
long fusedrv_spdm_write(struct sdsi_fusedrv *drv, struct fusedrv_handle *h,
			const char *buf, size_t size);

/* Request handlers. */
void fusedrv_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void fusedrv_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fusedrv_op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			int to_set, struct fuse_file_info *fi);
void fusedrv_op_readlink(fuse_req_t req, fuse_ino_t ino);
void fusedrv_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			struct fuse_file_info *fi);
/* Namespace changes, all refused as sysfs refuses them. */
void fusedrv_op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		       mode_t mode, struct fuse_file_info *fi);
void fusedrv_op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, dev_t rdev);
void fusedrv_op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode);
void fusedrv_op_remove(fuse_req_t req, fuse_ino_t parent, const char *name);
void fusedrv_op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
			const char *name);
void fusedrv_op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		       fuse_ino_t newparent, const char *newname, unsigned int flags);
void fusedrv_op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		     const char *newname);
void fusedrv_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fusedrv_op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fusedrv_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi);
void fusedrv_op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		      size_t size, off_t off, struct fuse_file_info *fi);

#endif /* SDSI_DRIVERS_FUSE_FUSEDRV_INTERNAL_H */
