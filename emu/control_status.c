// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "sdsi/hw.h"
#include "control_status.h"

static bool socket_bound(struct emu_control_target *t, unsigned int socket)
{
	char path[4096];
	struct stat st;

	/* The driver link exists exactly while the socket is bound, however it
	 * was unbound (here or through drivers/intel_sdsi/unbind). */
	snprintf(path, sizeof(path), "%s/devices/intel_vsec.sdsi.%u/driver", t->tree, socket);
	return lstat(path, &st) == 0;
}

/* Registers and faults of one socket, read between transactions. */
struct socket_snapshot {
	uint64_t ppin;
	struct sdsi_fault_state faults[SDSI_FAULT_KIND_COUNT];
};

static int snapshot(struct sdsi_model *m, void *arg)
{
	struct socket_snapshot *snap = arg;
	uint32_t ctrl = sdsi_model_guid(m) == SDSI_GUID_V1 ? SDSI_CTRL_SIZE_V1 : SDSI_CTRL_SIZE_V2;

	snap->ppin = sdsi_model_read64(m, ctrl + SDSI_MBOX_SIZE + SDSI_REG_PPIN);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++)
		sdsi_model_fault_get(m, (enum sdsi_fault_kind)k, &snap->faults[k]);
	return 0;
}

void emu_control_status(struct emu_control_target *t, int argc, char **argv,
			struct emu_response *r)
{
	if (argc != 1) {
		emu_respond_error(r, EINVAL, "usage: status");
		return;
	}
	for (unsigned int i = 0; i < t->nsockets; i++) {
		struct socket_snapshot snap = { 0 };
		bool first = true;

		emu_model_with_socket(t->drv, i, false, snapshot, &snap);
		emu_respond(r, "{\"socket\":%u,\"guid\":\"0x%x\",\"bound\":%s,\"ppin\":\"0x%016llx\",\"faults\":[",
			i, (unsigned int)sdsi_model_guid(t->models[i]),
			socket_bound(t, i) ? "true" : "false", (unsigned long long)snap.ppin);
		for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++) {
			const struct sdsi_fault_state *f = &snap.faults[k];

			if (!f->armed)
				continue;
			emu_respond(r, "%s{\"kind\":\"%s\",\"remaining\":%u,\"param\":%u}",
				first ? "" : ",", sdsi_fault_name((enum sdsi_fault_kind)k),
				f->remaining, f->param);
			first = false;
		}
		emu_respond(r, "]}\n");
	}
}
