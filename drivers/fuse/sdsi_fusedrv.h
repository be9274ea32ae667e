/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user-space driver: serves the sysfs ABI of the Linux intel_sdsi driver
 * (docs/interface.md §9.2) through FUSE, on top of the driver core, for a set
 * of sockets.  Each socket is reached only through the driver core's
 * transport seam (struct sdsi_mbox_ops): an in-process hardware model
 * (sdsi-emu), a shared memory window played by sdsi-shmem, or one day a
 * real MMIO region.  Nothing here knows which.
 *
 * The tree is mounted where /sys/bus/auxiliary would be:
 *   devices/intel_vsec.sdsi.N/{guid,registers,state_certificate,
 *        meter_certificate,meter_current,provision_akc,provision_cap}
 *   devices/intel_vsec.sdsi.N/driver -> ../../drivers/intel_sdsi   (while bound)
 *   drivers/intel_sdsi/{bind,unbind}
 */
#ifndef SDSI_DRIVERS_FUSE_FUSEDRV_H
#define SDSI_DRIVERS_FUSE_FUSEDRV_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "lock/sdsi_lock.h"
#include "drivers/core/sdsi_mbox.h"

/*
 * One socket as the driver reaches it.  ops->read64 and ops->write64 are
 * required; sleep_us and now_us may be NULL (the driver's real-time ones,
 * which is what Linux's timeouts run on), and log too (stderr, naming the
 * device).  ctx is passed to every operation and hook.
 */
struct sdsi_fusedrv_backend {
	const struct sdsi_mbox_ops *ops;
	void *ctx;
	/*
	 * Read the socket's discovery table, as the Linux probe does: 0 and
	 * the GUID that names the register layout, or -errno, which leaves the
	 * device present and unbound.  Called at every probe (mount, bind).
	 */
	int (*discover)(void *ctx, uint32_t *guid);
};

struct sdsi_fusedrv_config {
	enum sdsi_abi abi;
	/* Socket N is backends[N]; copied, the contexts are not owned. */
	const struct sdsi_fusedrv_backend *backends;
	unsigned int nsockets;
	/* NULL: Linux's timing for the ABI (sdsi_mbox_default_params). */
	const struct sdsi_mbox_params *params;
	/*
	 * Mount with allow_other, so that users other than the one mounting
	 * see the tree.  A user other than root may mount with it only where
	 * /etc/fuse.conf says user_allow_other (Debian's does not).
	 */
	bool allow_other;
};

struct sdsi_fusedrv;

/*
 * Probe every socket, mount the tree at mountpoint (an existing directory)
 * and serve it from background threads.  Returns 0 or -errno with err filled.
 */
int sdsi_fusedrv_mount(const struct sdsi_fusedrv_config *cfg,
		       const char *mountpoint, struct sdsi_fusedrv **out,
		       char *err, size_t errlen);

/*
 * The driver with every socket probed and no tree served: what mount does
 * before it mounts, for callers that drive bind, unbind and
 * sdsi_fusedrv_with_socket() without a FUSE mount (the fuzz harness of the
 * control commands).  Free with sdsi_fusedrv_unmount().  Returns 0 or
 * -EINVAL/-ENOMEM with err filled.
 */
int sdsi_fusedrv_create(const struct sdsi_fusedrv_config *cfg, struct sdsi_fusedrv **out,
			char *err, size_t errlen);

/* Unmount, stop the threads, free.  Safe on NULL. */
void sdsi_fusedrv_unmount(struct sdsi_fusedrv *drv);

/*
 * Unbind / bind a socket, as writing its name to drivers/intel_sdsi/unbind
 * or bind does.  Unbind: the attribute files disappear and handles already
 * open fail with ENODEV.  Bind probes again (features are sampled at probe).
 * Return 0, -ENODEV (no such socket, or unbind of an unbound one), -EBUSY
 * (bind of a bound one).
 */
int sdsi_fusedrv_unbind(struct sdsi_fusedrv *drv, unsigned int socket);
int sdsi_fusedrv_bind(struct sdsi_fusedrv *drv, unsigned int socket);

/*
 * Run fn(ctx, arg), ctx being the socket's backend context, with that
 * socket's mailbox lock held, so that it never interleaves with a
 * transaction in flight (power cycle, fault injection, BIOS settings).
 * When reprobe is true and the socket is bound, the driver samples the
 * features again afterwards, as a fresh boot would.  Returns what fn
 * returns, or -ENODEV for no such socket or no fn.
 */
int sdsi_fusedrv_with_socket(struct sdsi_fusedrv *drv, unsigned int socket,
			     bool reprobe, int (*fn)(void *ctx, void *arg),
			     void *arg);

/*
 * The attestation transport of a socket: the name of its file in the root
 * of the mounted tree ("isdsiN"), which only this process can look up, so
 * that sdsi-emu run can bind it at /dev/isdsiN and nobody finds it in the
 * sysfs tree.  Writing one struct sdsi_spdm_command there, then reading
 * one, is one SPDM exchange through sdsi_mbox_exchange()
 * (<sdsi/spdm_ioctl.h>).  Returns 0, or -ENODEV when the socket is unbound
 * or its ENABLED_FEATURES lacks bit 12 (no transport, as in Linux).
 */
int sdsi_fusedrv_spdm_name(struct sdsi_fusedrv *drv, unsigned int socket,
			   char *buf, size_t len);

/*
 * The lock sdsi_fusedrv_with_socket() runs fn under, for fn to check that it
 * does (sdsi_assert_held); NULL for a socket that does not exist.
 */
const struct sdsi_lock *sdsi_fusedrv_socket_lock(const struct sdsi_fusedrv *drv,
						 unsigned int socket);

#endif /* SDSI_DRIVERS_FUSE_FUSEDRV_H */
