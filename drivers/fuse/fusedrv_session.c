// SPDX-License-Identifier: GPL-2.0-only
/*
 * The life of the mount: the FUSE session, its worker threads, teardown.
 *
 * The workers are our own rather than fuse_session_loop_mt(): each waits on
 * the FUSE device together with an eventfd, so that unmount can stop them
 * even while a client keeps files open (the kernel then never wakes a reader
 * blocked on the device).
 *
 * Each worker waits in its own epoll set, where the device is registered
 * with EPOLLEXCLUSIVE: a request wakes one idle worker, not all of them.
 * With a plain poll() every worker woke for every request and all but one
 * lost the race for it, which on a small machine cost more than the request
 * itself.  The stop eventfd is registered without it, so it wakes everybody.
 * The device stays non-blocking for the rare request that two workers still
 * race for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fusedrv_internal.h"

/*
 * A worker answering a mailbox read or provisioning write stays with it for
 * the whole transaction, up to the firmware's RDY latency (hundreds of ms),
 * holding only its socket's mbox_lock.  With at least one worker per socket
 * beyond the minimum, every socket can have a transaction in flight at once
 * (intel_sdsi --all runs them so, as sockets are independent hardware) while
 * the other workers still answer lookups, getattrs and register reads: the
 * emulated platform is as parallel as a real one.  WORKERS_MAX is above
 * WORKERS_MIN + CLI_MAX_SOCKETS (16) for the same reason.
 */
#define WORKERS_MIN		4u
#define WORKERS_PER_SOCKET	2u
#define WORKERS_MAX		32u
#define INIT_WAIT_S		10

struct fusedrv_worker {
	struct sdsi_fusedrv *drv;
	pthread_t thread;
	int epfd;
};

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	struct sdsi_fusedrv *drv = userdata;

	/* every byte must come from the device: no page cache at all */
	conn->want &= ~(unsigned int)(FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_AUTO_INVAL_DATA);
	pthread_mutex_lock(&drv->init_lock);
	drv->init_done = true;
	pthread_cond_broadcast(&drv->init_cond);
	pthread_mutex_unlock(&drv->init_lock);
}

static const struct fuse_lowlevel_ops fusedrv_ops = {
	.init = op_init,
	.lookup = fusedrv_op_lookup,
	.getattr = fusedrv_op_getattr,
	.setattr = fusedrv_op_setattr,
	.readlink = fusedrv_op_readlink,
	.mknod = fusedrv_op_mknod,
	.mkdir = fusedrv_op_mkdir,
	.unlink = fusedrv_op_remove,
	.rmdir = fusedrv_op_remove,
	.symlink = fusedrv_op_symlink,
	.rename = fusedrv_op_rename,
	.link = fusedrv_op_link,
	.open = fusedrv_op_open,
	.read = fusedrv_op_read,
	.write = fusedrv_op_write,
	.release = fusedrv_op_release,
	.readdir = fusedrv_op_readdir,
	.create = fusedrv_op_create,
};

static void *worker_main(void *arg)
{
	struct fusedrv_worker *w = arg;
	struct sdsi_fusedrv *drv = w->drv;
	struct fuse_buf fbuf = { .mem = NULL };
	struct epoll_event ev[2];
	int n, res;

	while (!fuse_session_exited(drv->se)) {
		bool stop = false, request = false;

		n = epoll_wait(w->epfd, ev, 2, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < n; i++) {
			if (ev[i].data.fd == drv->stop_fd)
				stop = true;
			else
				request = true;
		}
		if (stop)
			break;
		if (!request)
			continue;
		/* 0 when the kernel closed the connection (it exits the session) */
		res = fuse_session_receive_buf(drv->se, &fbuf);
		if (res == -EINTR || res == -EAGAIN)
			continue;
		if (res <= 0)
			break;
		if (drv->stats_path)
			fusedrv_stats_count(drv, &fbuf);
		fuse_session_process_buf(drv->se, &fbuf);
	}
	free(fbuf.mem);
	return NULL;
}

static int worker_epoll(struct sdsi_fusedrv *drv, struct fusedrv_worker *w)
{
	struct epoll_event stop = { .events = EPOLLIN, .data.fd = drv->stop_fd };
	struct epoll_event dev = { .events = EPOLLIN | EPOLLEXCLUSIVE,
				   .data.fd = fuse_session_fd(drv->se) };

	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0 ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, drv->stop_fd, &stop) < 0 ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, dev.data.fd, &dev) < 0)
		return -errno;
	return 0;
}

static int start_workers(struct sdsi_fusedrv *drv, const char *mountpoint,
			 char *err, size_t errlen)
{
	int flags, ret;

	drv->nworkers = WORKERS_MIN + WORKERS_PER_SOCKET * drv->nsockets;
	if (drv->nworkers > WORKERS_MAX)
		drv->nworkers = WORKERS_MAX;
	drv->workers = calloc(drv->nworkers, sizeof(*drv->workers));
	if (!drv->workers) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < drv->nworkers; i++)
		drv->workers[i].epfd = -1;
	flags = fcntl(fuse_session_fd(drv->se), F_GETFL);
	drv->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (flags < 0 || fcntl(fuse_session_fd(drv->se), F_SETFL, flags | O_NONBLOCK) < 0 ||
	    drv->stop_fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot set up the FUSE workers for %s: %s",
			 mountpoint, strerror(errno));
		return ret;
	}
	for (unsigned int i = 0; i < drv->nworkers; i++) {
		struct fusedrv_worker *w = &drv->workers[i];

		w->drv = drv;
		ret = worker_epoll(drv, w);
		if (ret == 0)
			ret = -pthread_create(&w->thread, NULL, worker_main, w);
		if (ret) {
			snprintf(err, errlen, "cannot start FUSE worker thread: %s",
				 strerror(-ret));
			return ret;
		}
		drv->workers_started++;
	}
	return 0;
}

static void stop_workers(struct sdsi_fusedrv *drv)
{
	uint64_t one = 1;

	if (drv->stop_fd >= 0 && write(drv->stop_fd, &one, sizeof(one)) < 0)
		fprintf(stderr, "sdsi_fusedrv: cannot signal the workers: %s\n",
			strerror(errno));
	for (unsigned int i = 0; i < drv->workers_started; i++)
		pthread_join(drv->workers[i].thread, NULL);
	drv->workers_started = 0;
	for (unsigned int i = 0; drv->workers && i < drv->nworkers; i++)
		if (drv->workers[i].epfd >= 0)
			close(drv->workers[i].epfd);
	free(drv->workers);
	drv->workers = NULL;
	if (drv->stop_fd >= 0)
		close(drv->stop_fd);
	drv->stop_fd = -1;
}

void fusedrv_session_stop(struct sdsi_fusedrv *drv)
{
	if (!drv->se)
		return;
	/*
	 * Workers first: once nobody reads the device, closing it in
	 * fuse_session_unmount() aborts the connection, so clients holding
	 * files open get ENOTCONN instead of hanging, and the lazy unmount
	 * completes.
	 */
	fuse_session_exit(drv->se);
	stop_workers(drv);
	fuse_session_unmount(drv->se);
	fuse_session_destroy(drv->se);
	drv->se = NULL;
	fusedrv_stats_write(drv);
}

int fusedrv_session_start(struct sdsi_fusedrv *drv, const char *mountpoint,
			  bool allow_other, char *err, size_t errlen)
{
	char *argv[] = { "sdsi-fusedrv", "-o",
		allow_other ? "default_permissions,allow_other,fsname=sdsi,subtype=sdsi_sysfs"
			    : "default_permissions,fsname=sdsi,subtype=sdsi_sysfs", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	struct timespec deadline;
	int ret;

	drv->se = fuse_session_new(&args, &fusedrv_ops, sizeof(fusedrv_ops), drv);
	fuse_opt_free_args(&args);
	if (!drv->se) {
		snprintf(err, errlen, "cannot create the FUSE session for %s", mountpoint);
		return -ENOMEM;
	}
	if (fuse_session_mount(drv->se, mountpoint) != 0) {
		fuse_session_destroy(drv->se);
		drv->se = NULL;
		snprintf(err, errlen, "cannot mount FUSE on %s (is /dev/fuse usable%s?)",
			 mountpoint, allow_other ? ", and allow_other permitted to this user" : "");
		return -EIO;
	}
	ret = start_workers(drv, mountpoint, err, errlen);
	if (ret)
		return ret;
	/* the kernel sends INIT at mount: once answered, the tree is live */
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += INIT_WAIT_S;
	pthread_mutex_lock(&drv->init_lock);
	while (!drv->init_done && ret == 0)
		ret = -pthread_cond_timedwait(&drv->init_cond, &drv->init_lock, &deadline);
	pthread_mutex_unlock(&drv->init_lock);
	if (!drv->init_done) {
		snprintf(err, errlen, "the kernel did not initialise the FUSE mount on %s "
			 "within %d s", mountpoint, INIT_WAIT_S);
		return -ETIMEDOUT;
	}
	return 0;
}
