// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mailbox throughput of the driver core over the in-process hardware model,
 * with Linux's timing and no injected latency: the cost of the protocol
 * itself (ownership, command, packets, release) and of certificate
 * generation, without FUSE.  Prints one line per operation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "backends/inproc/inproc_mbox.h"
#include "drivers/core/sdsi_mbox.h"
#include "model/sdsi_model.h"
#include "util/util_time.h"

enum bench_op { OP_STATE, OP_METER, OP_METER_CURRENT, OP_REGISTERS, OP_PROVISION };

static int run_once(struct sdsi_mbox *mb, enum bench_op op, uint8_t *buf)
{
	size_t len;

	switch (op) {
	case OP_STATE:
		return sdsi_mbox_read(mb, SDSI_CMD_READ_STATE, false, buf, &len);
	case OP_METER:
		return sdsi_mbox_read(mb, SDSI_CMD_READ_METER, false, buf, &len);
	case OP_METER_CURRENT:
		return sdsi_mbox_read(mb, SDSI_CMD_READ_METER, true, buf, &len);
	case OP_REGISTERS:
		sdsi_mbox_read_registers(mb, buf);
		return 0;
	case OP_PROVISION:
		/* The model refuses the blob (EIO); the transaction is what we time. */
		return sdsi_mbox_write(mb, SDSI_CMD_PROVISION_CAP, buf, 512);
	}
	return -EINVAL;
}

static void bench(struct sdsi_model *model, struct sdsi_mbox *mb,
		  const char *name, enum bench_op op, int expect, unsigned int n)
{
	static uint8_t buf[SDSI_READ_MSG_MAX];
	uint64_t t0, t1;
	unsigned int i;

	t0 = util_now_ns();
	for (i = 0; i < n; i++) {
		int ret = run_once(mb, op, buf);

		if (ret != expect) {
			fprintf(stderr, "bench: %s returned %d, expected %d\n",
				name, ret, expect);
			exit(1);
		}
		/* Provisioning failures count up to the threshold; keep them from
		 * turning the measured path into the early refusal. */
		if (op == OP_PROVISION)
			sdsi_model_power_cycle(model);
	}
	t1 = util_now_ns();
	printf("%-22s %8u ops  %10.0f ops/s  %8.2f us/op\n", name, n,
	       n / ((t1 - t0) / 1e9), (t1 - t0) / 1e3 / n);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 20000;
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2,
		.features = SDSI_MODEL_DEFAULT_FEATURES,
	};
	struct sdsi_mbox_params params;
	struct sdsi_model *model;
	struct sdsi_mbox mb;
	char err[256];

	if (n == 0) {
		fprintf(stderr, "usage: bench_mbox [ITERATIONS>0]\n");
		return 2;
	}
	if (sdsi_model_create(&cfg, &model, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	sdsi_mbox_default_params(&params);
	if (sdsi_mbox_init(&mb, SDSI_GUID_V2, &inproc_mbox_ops, model, &params)) {
		fprintf(stderr, "bench: driver core refused the model's GUID\n");
		return 1;
	}
	printf("driver core over the in-process model (GUID V2, no injected latency)\n");
	bench(model, &mb, "registers copy", OP_REGISTERS, 0, n * 10);
	bench(model, &mb, "state_certificate", OP_STATE, 0, n);
	bench(model, &mb, "meter_certificate", OP_METER, 0, n);
	bench(model, &mb, "meter_current", OP_METER_CURRENT, 0, n);
	bench(model, &mb, "provision_cap (refused)", OP_PROVISION, -EIO, n / 10 ? n / 10 : 1);
	sdsi_model_destroy(model);
	return 0;
}
