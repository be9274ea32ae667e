// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sockets and their binding (probe, bind, unbind, with_socket), and the
 * driver's creation and teardown around the session (fusedrv_session.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fusedrv_internal.h"

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
	struct timespec ts;

	if (s->backend.ops->now_us)
		return s->backend.ops->now_us(s->backend.ctx);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void mbox_warn(void *ctx, const char *msg)
{
	const struct fusedrv_socket *s = ctx;

	if (s->backend.ops->warn)
		s->backend.ops->warn(s->backend.ctx, msg);
	else
		fprintf(stderr, "sdsi_fusedrv: " SDSI_DEVICE_PREFIX "%u: %s\n",
			s->index, msg);
}

static const struct sdsi_mbox_ops mbox_ops = {
	.read64 = mbox_read64,
	.write64 = mbox_write64,
	.sleep_us = mbox_sleep_us,
	.now_us = mbox_now_us,
	.warn = mbox_warn,
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
	bool was[FUSEDRV_ATTR_COUNT];
	unsigned int hidden = s->bound && !bound ? FUSEDRV_HIDDEN_LINKS : 0;

	sdsi_assert_held(&s->mbox_lock);
	sdsi_assert_held(&s->state_lock);
	for (int a = 0; a < FUSEDRV_ATTR_COUNT; a++)
		was[a] = fusedrv_attr_visible(drv, s, (enum fusedrv_attr)a);
	s->bound = bound;
	s->features = features;
	for (int a = 0; a < FUSEDRV_ATTR_COUNT; a++) {
		if (was[a] && !fusedrv_attr_visible(drv, s, (enum fusedrv_attr)a)) {
			s->attr_gen[a]++;
			hidden |= FUSEDRV_HIDDEN_ATTR(a);
		}
	}
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

/* Caller holds mbox_lock. */
static int socket_probe(struct sdsi_fusedrv *drv, struct fusedrv_socket *s)
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
	struct fusedrv_socket *s;
	int ret;

	if (!drv || socket >= drv->nsockets)
		return -ENODEV;
	s = &drv->sockets[socket];
	sdsi_lock_take(&s->mbox_lock);
	ret = s->bound ? -EBUSY : socket_probe(drv, s);
	sdsi_lock_release(&s->mbox_lock);
	return ret;
}

/* Waits for a transaction in flight, as the kernel drains active files. */
int sdsi_fusedrv_unbind(struct sdsi_fusedrv *drv, unsigned int socket)
{
	struct fusedrv_socket *s;
	unsigned int hidden = 0;
	int ret = 0;

	if (!drv || socket >= drv->nsockets)
		return -ENODEV;
	s = &drv->sockets[socket];
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
	struct fusedrv_socket *s;
	unsigned int hidden = 0;
	int ret;

	if (!drv || socket >= drv->nsockets || !fn)
		return -ENODEV;
	s = &drv->sockets[socket];
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
	if (!drv || socket >= drv->nsockets)
		return NULL;
	return &drv->sockets[socket].mbox_lock;
}

/* Called with the workers stopped: no request can use a handle any more. */
static void drv_free(struct sdsi_fusedrv *drv)
{
	while (drv->handles.next != &drv->handles) {
		struct fusedrv_handle *h = drv->handles.next;

		drv->handles.next = h->next;
		free(h);
	}
	pthread_mutex_destroy(&drv->handles_lock);
	for (unsigned int i = 0; i < drv->nsockets; i++) {
		sdsi_lock_destroy(&drv->sockets[i].mbox_lock);
		sdsi_lock_destroy(&drv->sockets[i].state_lock);
	}
	pthread_mutex_destroy(&drv->init_lock);
	pthread_cond_destroy(&drv->init_cond);
	free(drv->stats_path);
	free(drv->sockets);
	free(drv);
}

void sdsi_fusedrv_unmount(struct sdsi_fusedrv *drv)
{
	if (!drv)
		return;
	fusedrv_session_stop(drv);
	drv_free(drv);
}

static struct sdsi_fusedrv *drv_alloc(const struct sdsi_fusedrv_config *cfg)
{
	struct sdsi_fusedrv *drv = calloc(1, sizeof(*drv));

	if (!drv)
		return NULL;
	drv->stop_fd = -1;
	pthread_mutex_init(&drv->handles_lock, NULL);
	drv->handles.next = drv->handles.prev = &drv->handles;
	pthread_mutex_init(&drv->init_lock, NULL);
	pthread_cond_init(&drv->init_cond, NULL);
	drv->abi = cfg->abi;
	if (cfg->params)
		drv->params = *cfg->params;
	else
		sdsi_mbox_default_params(&drv->params);
	/* the ABI names the driver generation; the params only its timing */
	/* A generation outside the enum plays the current one, not an error. */
	drv->params.flavor = cfg->abi == SDSI_ABI_EARLY ? SDSI_ABI_EARLY : SDSI_ABI_CURRENT;
	clock_gettime(CLOCK_REALTIME, &drv->mount_time);
	fusedrv_stats_init(drv);
	drv->sockets = calloc(cfg->nsockets ? cfg->nsockets : 1, sizeof(*drv->sockets));
	if (!drv->sockets) {
		drv_free(drv);
		return NULL;
	}
	drv->nsockets = cfg->nsockets;
	for (unsigned int i = 0; i < cfg->nsockets; i++) {
		struct fusedrv_socket *s = &drv->sockets[i];

		sdsi_lock_init(&s->mbox_lock);
		sdsi_lock_init(&s->state_lock);
		s->index = i;
		s->backend = cfg->backends[i];
	}
	return drv;
}

int sdsi_fusedrv_create(const struct sdsi_fusedrv_config *cfg, struct sdsi_fusedrv **out,
			char *err, size_t errlen)
{
	struct sdsi_fusedrv *drv;

	if (!cfg || !out || (cfg->nsockets && !cfg->backends)) {
		snprintf(err, errlen, "invalid FUSE driver configuration");
		return -EINVAL;
	}
	for (unsigned int i = 0; i < cfg->nsockets; i++) {
		const struct sdsi_fusedrv_backend *b = &cfg->backends[i];

		if (!b->ops || !b->ops->read64 || !b->ops->write64 || !b->discover) {
			snprintf(err, errlen, "socket %u has no backend (it needs read64, "
				 "write64 and discover)", i);
			return -EINVAL;
		}
	}
	drv = drv_alloc(cfg);
	if (!drv) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* a failed probe leaves the device present and unbound, as in Linux */
	for (unsigned int i = 0; i < drv->nsockets; i++) {
		sdsi_lock_take(&drv->sockets[i].mbox_lock);
		socket_probe(drv, &drv->sockets[i]);
		sdsi_lock_release(&drv->sockets[i].mbox_lock);
	}
	*out = drv;
	return 0;
}

int sdsi_fusedrv_mount(const struct sdsi_fusedrv_config *cfg,
		       const char *mountpoint, struct sdsi_fusedrv **out,
		       char *err, size_t errlen)
{
	struct sdsi_fusedrv *drv;
	struct stat st;
	int ret;

	if (!cfg || !mountpoint || !out) {
		snprintf(err, errlen, "invalid FUSE driver configuration");
		return -EINVAL;
	}
	if (stat(mountpoint, &st) != 0) {
		ret = -errno;
		snprintf(err, errlen, "mount point %s: %s", mountpoint, strerror(errno));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "mount point %s: not a directory", mountpoint);
		return -ENOTDIR;
	}
	ret = sdsi_fusedrv_create(cfg, &drv, err, errlen);
	if (ret)
		return ret;
	ret = fusedrv_session_start(drv, mountpoint, cfg->allow_other, err, errlen);
	if (ret) {
		sdsi_fusedrv_unmount(drv);
		return ret;
	}
	*out = drv;
	return 0;
}
