// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sockets and their binding: the driver core's view of a socket's backend,
 * probe, bind, unbind and with_socket.  The driver's creation and teardown
 * around the session are sdsi_fusedrv.c's; the bind and unbind files
 * (fusedrv_files.c) come here without going back through the session.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "fusedrv_internal.h"
#include "util/util_time.h"

/*
 * The driver core sees these operations, with the socket as context: they
 * pass each access to the socket's backend and supply real time and the
 * device's name where the backend leaves them out.
 */
static uint64_t mbox_read64(void *ctx, uint32_t offset)
{
	const struct fusedrv_socket *s = ctx;

	/* Transactions hold mbox_lock; register-file reads state_lock. */
	sdsi_assert_held_either(&s->mbox_lock, &s->state_lock);
	return s->backend.ops->read64(s->backend.ctx, offset);
}

static void mbox_write64(void *ctx, uint32_t offset, uint64_t value)
{
	const struct fusedrv_socket *s = ctx;

	sdsi_assert_held(&s->mbox_lock);
	s->backend.ops->write64(s->backend.ctx, offset, value);
}

static void mbox_sleep_us(void *ctx, uint32_t us)
{
	const struct fusedrv_socket *s = ctx;
	struct timespec ts = { .tv_sec = us / 1000000u,
			       .tv_nsec = (long)(us % 1000000u) * 1000 };

	if (s->backend.ops->sleep_us) {
		s->backend.ops->sleep_us(s->backend.ctx, us);
		return;
	}
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static uint64_t mbox_now_us(void *ctx)
{
	const struct fusedrv_socket *s = ctx;

	if (s->backend.ops->now_us)
		return s->backend.ops->now_us(s->backend.ctx);
	return util_now_us();
}

static void mbox_log(void *ctx, enum sdsi_mbox_level level, const char *msg)
{
	const struct fusedrv_socket *s = ctx;

	if (s->backend.ops->log)
		s->backend.ops->log(s->backend.ctx, level, msg);
	else
		fprintf(stderr, "sdsi_fusedrv: " SDSI_DEVICE_PREFIX "%u: %s: %s\n",
			s->index, level == SDSI_MBOX_ERR ? "error" : "warning",
			msg);
}

static const struct sdsi_mbox_ops mbox_ops = {
	.read64 = mbox_read64,
	.write64 = mbox_write64,
	.sleep_us = mbox_sleep_us,
	.now_us = mbox_now_us,
	.log = mbox_log,
};

/*
 * Change the binding state; caller holds both locks.  Attributes that stop
 * being visible get a new generation, which kills the handles open on them.
 * Returns the nodes that vanished (FUSEDRV_HIDDEN_*), for the caller to
 * pass to fusedrv_tree_invalidate() once it has dropped the locks.
 */
static unsigned int socket_set_state(struct sdsi_fusedrv *drv, struct fusedrv_socket *s,
				     bool bound, uint64_t features)
{
	bool was[SDSI_FILE_COUNT], was_spdm = fusedrv_spdm_visible(drv, s);
	unsigned int hidden = s->bound && !bound ? FUSEDRV_HIDDEN_LINKS : 0;

	sdsi_assert_held(&s->mbox_lock);
	sdsi_assert_held(&s->state_lock);
	for (int a = 0; a < SDSI_FILE_COUNT; a++)
		was[a] = fusedrv_attr_visible(drv, s, (enum sdsi_sysfs_file)a);
	s->bound = bound;
	s->features = features;
	for (int a = 0; a < SDSI_FILE_COUNT; a++) {
		if (was[a] && !fusedrv_attr_visible(drv, s, (enum sdsi_sysfs_file)a)) {
			s->attr_gen[a]++;
			hidden |= FUSEDRV_HIDDEN_ATTR(a);
		}
	}
	/* handles open on isdsiN fail with ENODEV from now on, as after a misc_deregister */
	if (was_spdm && !fusedrv_spdm_visible(drv, s))
		s->spdm_gen++;
	return hidden;
}

/* Features are sampled from the register file, as the Linux probe does. */
static uint64_t socket_read_features(const struct fusedrv_socket *s)
{
	uint8_t regs[SDSI_REGS_SIZE_V2];
	uint64_t features = 0;

	sdsi_assert_held_either(&s->mbox_lock, &s->state_lock);
	sdsi_mbox_read_registers(&s->mb, regs);
	for (int i = 7; i >= 0; i--)
		features = features << 8 | regs[SDSI_REG_FEATURES + i];
	return features;
}

int fusedrv_socket_probe(struct sdsi_fusedrv *drv, struct fusedrv_socket *s)
{
	struct sdsi_mbox mb;
	uint64_t features;
	uint32_t guid;
	int ret;

	sdsi_assert_held(&s->mbox_lock);
	ret = s->backend.discover(s->backend.ctx, &guid);
	if (ret == 0)
		ret = sdsi_mbox_init(&mb, guid, &mbox_ops, s, &drv->params);
	if (ret)
		return ret;
	sdsi_lock_take(&s->state_lock);
	s->mb = mb;
	features = socket_read_features(s);
	/* nothing hides: the socket was unbound, so nothing was visible */
	(void)socket_set_state(drv, s, true, features);
	sdsi_lock_release(&s->state_lock);
	return 0;
}

int sdsi_fusedrv_bind(struct sdsi_fusedrv *drv, unsigned int socket)
{
	struct fusedrv_socket *s = fusedrv_socket_at(drv, socket);
	int ret;

	if (!s)
		return -ENODEV;
	sdsi_lock_take(&s->mbox_lock);
	ret = s->bound ? -EBUSY : fusedrv_socket_probe(drv, s);
	sdsi_lock_release(&s->mbox_lock);
	return ret;
}

/* Waits for a transaction in flight, as the kernel drains active files. */
int sdsi_fusedrv_unbind(struct sdsi_fusedrv *drv, unsigned int socket)
{
	struct fusedrv_socket *s = fusedrv_socket_at(drv, socket);
	unsigned int hidden = 0;
	int ret = 0;

	if (!s)
		return -ENODEV;
	sdsi_lock_take(&s->mbox_lock);
	if (!s->bound) {
		ret = -ENODEV;
	} else {
		sdsi_lock_take(&s->state_lock);
		hidden = socket_set_state(drv, s, false, 0);
		sdsi_lock_release(&s->state_lock);
	}
	sdsi_lock_release(&s->mbox_lock);
	fusedrv_tree_invalidate(drv, socket, hidden);
	return ret;
}

int sdsi_fusedrv_with_socket(struct sdsi_fusedrv *drv, unsigned int socket,
			     bool reprobe, int (*fn)(void *ctx, void *arg),
			     void *arg)
{
	struct fusedrv_socket *s = fusedrv_socket_at(drv, socket);
	unsigned int hidden = 0;
	int ret;

	if (!s || !fn)
		return -ENODEV;
	sdsi_lock_take(&s->mbox_lock);
	ret = fn(s->backend.ctx, arg);
	if (reprobe && s->bound) {
		sdsi_lock_take(&s->state_lock);
		hidden = socket_set_state(drv, s, true, socket_read_features(s));
		sdsi_lock_release(&s->state_lock);
	}
	sdsi_lock_release(&s->mbox_lock);
	fusedrv_tree_invalidate(drv, socket, hidden);
	return ret;
}

const struct sdsi_lock *sdsi_fusedrv_socket_lock(const struct sdsi_fusedrv *drv,
						 unsigned int socket)
{
	const struct fusedrv_socket *s = fusedrv_socket_at(drv, socket);

	return s ? &s->mbox_lock : NULL;
}
