// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's creation and teardown around the session (fusedrv_session.c):
 * each socket is probed once at creation (fusedrv_binding.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fusedrv_internal.h"

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
		fusedrv_socket_probe(drv, &drv->sockets[i]);
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
