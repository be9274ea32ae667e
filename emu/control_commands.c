// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-emu's control commands are the front end's table (cli/cli_ctl.c);
 * this is how they reach the sockets: model changes through the FUSE
 * driver, under the socket's mailbox lock and between transactions, bind
 * and unbind as the driver's own files do them, time through the socket's
 * model clock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "control_commands.h"
#include "sdsi/hw.h"
#include "cli/cli_ctl.h"

static int with_model(void *ctx, unsigned int s, bool reprobe, cli_model_fn fn, void *arg)
{
	struct emu_control_target *t = ctx;

	return inproc_backend_with_socket(t->drv, s, reprobe, fn, arg);
}

static int bind_socket(void *ctx, unsigned int s, bool bind)
{
	struct emu_control_target *t = ctx;

	return bind ? sdsi_fusedrv_bind(t->drv, s) : sdsi_fusedrv_unbind(t->drv, s);
}

static int advance(void *ctx, unsigned int s, uint64_t ns)
{
	struct emu_control_target *t = ctx;

	return emu_model_clock_advance(&t->clocks[s], ns);
}

static int socket_bound(void *ctx, unsigned int s)
{
	struct emu_control_target *t = ctx;
	char path[4096];
	struct stat st;

	/* The driver link exists exactly while the socket is bound, however it
	 * was unbound (here or through drivers/intel_sdsi/unbind). */
	snprintf(path, sizeof(path), "%s/devices/" SDSI_DEVICE_PREFIX "%u/driver", t->tree, s);
	return lstat(path, &st) == 0;
}

char *emu_control_execute(struct emu_control_target *t, const char *request)
{
	const struct cli_ctl_sockets backend = {
		.daemon = "sdsi-emu",
		.nsockets = t->nsockets,
		.ctx = t,
		.with_model = with_model,
		.bind = bind_socket,
		.advance = advance,
		.bound = socket_bound,
	};

	return cli_ctl_execute(&backend, request, CLI_REPLY_ERRNO);
}

void emu_control_target_init(struct emu_control_target *t, struct sdsi_fusedrv *drv,
			     struct sdsi_model **models,
			     struct emu_model_clock *clocks, unsigned int nsockets,
			     const char *tree)
{
	memset(t, 0, sizeof(*t));
	t->drv = drv;
	t->models = models;
	t->clocks = clocks;
	t->nsockets = nsockets;
	t->tree = tree;
}
