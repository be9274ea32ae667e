// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "inproc_backend.h"

static uint64_t model_read64(void *ctx, uint32_t offset)
{
	return sdsi_model_read64(ctx, offset);
}

static void model_write64(void *ctx, uint32_t offset, uint64_t value)
{
	sdsi_model_write64(ctx, offset, value);
}

/* The discovery table a probe would read names the model's GUID. */
static int model_discover(void *ctx, uint32_t *guid)
{
	*guid = sdsi_model_guid(ctx);
	return 0;
}

/* Sleep, clock and warnings: the FUSE driver's real-time defaults. */
static const struct sdsi_mbox_ops model_ops = {
	.read64 = model_read64,
	.write64 = model_write64,
};

struct sdsi_fusedrv_backend inproc_backend_for(struct sdsi_model *model)
{
	return (struct sdsi_fusedrv_backend){
		.ops = &model_ops,
		.ctx = model,
		.discover = model_discover,
	};
}

struct model_call {
	const struct sdsi_lock *lock;	/* the socket's, which fn needs */
	int (*fn)(struct sdsi_model *model, void *arg);
	void *arg;
};

static int call_on_model(void *ctx, void *arg)
{
	const struct model_call *call = arg;

	/* Between transactions: never beside a driver thread's mailbox use. */
	sdsi_assert_held(call->lock);
	return call->fn(ctx, call->arg);
}

int inproc_backend_with_socket(struct sdsi_fusedrv *drv, unsigned int socket,
			  bool reprobe, int (*fn)(struct sdsi_model *model, void *arg),
			  void *arg)
{
	struct model_call call = { .lock = sdsi_fusedrv_socket_lock(drv, socket),
				   .fn = fn, .arg = arg };

	if (!fn || !call.lock)
		return -ENODEV;
	return sdsi_fusedrv_with_socket(drv, socket, reprobe, call_on_model, &call);
}
