// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"

#define ERR_MAX	1024

static int report(int ret, const char *err)
{
	fprintf(stderr, "sdsi-emu: %s\n", err);
	return ret;
}

int emu_session_open(struct emu_session *s, const struct emu_options *opts)
{
	char err[ERR_MAX];
	int ret;

	memset(s, 0, sizeof(*s));
	s->opts = opts;
	s->control.stop_fd = s->control.server.sock.fd = -1;

	ret = cli_state_dir_open(&s->state, "sdsi-emu", opts->pf.state_dir, err, sizeof(err));
	if (ret)
		return report(ret, err);
	ret = emu_control_bind(&s->control, s->state.path, err, sizeof(err));
	if (ret) {
		cli_state_dir_close(&s->state, true);
		return report(ret, err);
	}
	ret = emu_platform_create(&s->platform, opts, s->state.path, err, sizeof(err));
	if (ret) {
		emu_control_close(&s->control);
		cli_state_dir_close(&s->state, true);
		return report(ret, err);
	}
	return 0;
}

int emu_session_serve(struct emu_session *s, const char *mountpoint)
{
	struct sdsi_fusedrv_backend backends[EMU_MAX_SOCKETS];
	struct sdsi_fusedrv_config cfg = {
		.abi = s->opts->abi,
		.backends = backends,
		.nsockets = s->platform.nsockets,
		/*
		 * Root serves every user, as sysfs does; anyone else mounts for
		 * themselves, as fuse.conf allows without user_allow_other,
		 * unless they ask (--allow-other).
		 */
		.allow_other = geteuid() == 0 || s->opts->allow_other,
	};
	char err[ERR_MAX];
	int ret;

	for (unsigned int i = 0; i < s->platform.nsockets; i++)
		backends[i] = inproc_backend_for(s->platform.models[i]);

	if (!realpath(mountpoint, s->tree)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mount point %s: %s", mountpoint, strerror(-ret));
		return report(ret, err);
	}
	ret = sdsi_fusedrv_mount(&cfg, s->tree, &s->drv, err, sizeof(err));
	if (ret)
		return report(ret, err);
	emu_control_target_init(&s->target, s->drv, s->platform.models,
				s->platform.clocks, s->platform.nsockets, s->tree);
	ret = emu_control_start(&s->control, &s->target, err, sizeof(err));
	if (ret)
		return report(ret, err);
	return 0;
}

void emu_session_close(struct emu_session *s, bool failed)
{
	/* The control thread uses the driver, which uses the models. */
	emu_control_close(&s->control);
	if (s->drv) {
		sdsi_fusedrv_unmount(s->drv);
		s->drv = NULL;
	}
	emu_platform_destroy(&s->platform, failed);
	cli_state_dir_close(&s->state, failed);
}
