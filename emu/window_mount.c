// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "ready.h"
#include "backends/window/window_backend.h"
#include "window_mount.h"

#define ERR_MAX		1024
/* How long a server that is still starting gets to announce its page. */
#define SERVER_WAIT_MS	10000u

static int failed(int ret, const char *err)
{
	fprintf(stderr, "sdsi-emu: %s\n", err);
	return sdsi_exit_for_errno(ret);
}

int emu_window_mount(const struct emu_options *opts)
{
	struct sdsi_fusedrv_backend backends[WINDOW_BACKEND_MAX_SOCKETS];
	struct sdsi_fusedrv_config cfg = { .abi = opts->abi, .backends = backends,
					   .nsockets = opts->pf.sockets,
					   .allow_other = geteuid() == 0 ||
							  opts->allow_other };
	static struct window_backend win;
	static char file[PATH_MAX];
	struct sdsi_fusedrv *drv;
	char tree[PATH_MAX], err[ERR_MAX], what[PATH_MAX + 64];
	uint64_t offset;
	sigset_t stop;
	int ret;

	if (window_backend_parse(opts->window, file, sizeof(file), &offset, err, sizeof(err)))
		return emu_usage_error("--window: %s", err);
	if (!realpath(opts->mountpoint, tree)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mount point %s: %s", opts->mountpoint,
			 strerror(-ret));
		return failed(ret, err);
	}
	ret = window_backend_open(&win, file, offset, opts->pf.sockets,
			      SERVER_WAIT_MS, err, sizeof(err));
	if (ret)
		return failed(ret, err);
	for (unsigned int i = 0; i < opts->pf.sockets; i++)
		backends[i] = window_backend_for(&win, i);
	ret = sdsi_fusedrv_mount(&cfg, tree, &drv, err, sizeof(err));
	if (ret) {
		window_backend_close(&win);
		return failed(ret, err);
	}
	snprintf(what, sizeof(what), "%u socket%s of window %s", opts->pf.sockets,
		 opts->pf.sockets == 1 ? "" : "s", win.path);
	/* A window truncated under us stops the mount (SIGTERM): no dead tree left. */
	window_backend_stop_on_loss(&win);
	if (window_backend_is_lost(&win))
		raise(SIGTERM);		/* lost while the tree was mounted */
	emu_mount_ready(what, tree, NULL);

	emu_forwarded_signals(&stop);
	while (sigwaitinfo(&stop, NULL) < 0)
		;
	emu_mount_stopping();
	sdsi_fusedrv_unmount(drv);
	window_backend_close(&win);
	if (window_backend_is_lost(&win)) {
		fprintf(stderr, "sdsi-emu: window %s: lost (the file shrank): unmounted %s\n",
			win.path, tree);
		return SDSI_EXIT_IO;
	}
	return 0;
}
