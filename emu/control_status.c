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

static int read_ppin(struct sdsi_model *m, void *arg)
{
	uint32_t ctrl = sdsi_model_guid(m) == SDSI_GUID_V1 ? SDSI_CTRL_SIZE_V1 : SDSI_CTRL_SIZE_V2;

	*(uint64_t *)arg = sdsi_model_read64(m, ctrl + SDSI_MBOX_SIZE + SDSI_REG_PPIN);
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
		uint64_t ppin = 0;
		bool first = true;

		sdsi_fusedrv_with_socket(t->drv, i, false, read_ppin, &ppin);
		emu_respond(r, "{\"socket\":%u,\"guid\":\"0x%x\",\"bound\":%s,\"ppin\":\"0x%016llx\",\"faults\":[",
			i, (unsigned int)sdsi_model_guid(t->models[i]),
			socket_bound(t, i) ? "true" : "false", (unsigned long long)ppin);
		pthread_mutex_lock(&t->faults_lock);
		for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++) {
			const struct emu_fault_record *f = &t->faults[i][k];

			if (!f->armed)
				continue;
			emu_respond(r, "%s{\"kind\":\"%s\",\"count\":%u,\"param\":%u}", first ? "" : ",",
				sdsi_fault_name((enum sdsi_fault_kind)k), f->count, f->param);
			first = false;
		}
		pthread_mutex_unlock(&t->faults_lock);
		emu_respond(r, "]}\n");
	}
}

void emu_record_fault(struct emu_control_target *t, unsigned int socket,
		      const struct emu_fault_request *f, bool armed)
{
	pthread_mutex_lock(&t->faults_lock);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++) {
		struct emu_fault_record *rec = &t->faults[socket][k];

		if (!f->all && k != (int)f->kind)
			continue;
		rec->armed = armed;
		rec->param = armed ? f->param : 0;
		rec->count = armed ? f->count : 0;
	}
	pthread_mutex_unlock(&t->faults_lock);
}
