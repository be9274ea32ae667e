// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-emu's control commands (emu/control_commands.c) through their real
 * entry point, emu_control_execute(), against two real model sockets behind
 * a real FUSE driver that serves no tree (sdsi_fusedrv_create), so every
 * command is parsed and then applied.  The input is up to 32 request lines;
 * the sockets are made afresh for every input, so a crash replays alone.
 * Invariants, besides no crash and no sanitizer report: every response is
 * "ok ..." or "error E...: ..." (status: one JSON object per socket), ends
 * with a newline and holds no NUL; an error names an errno.
 */
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "emu/control_commands.h"
#include "fuzz_check.h"

#define SOCKETS		2
#define MAX_REQUESTS	32

static void check_response(const char *request, const char *resp)
{
	size_t len;

	FUZZ_CHECK(resp != NULL, "no response to '%s'", request);
	len = strlen(resp);
	FUZZ_CHECK(len > 0 && resp[len - 1] == '\n', "'%s' -> '%s'", request, resp);
	if (strncmp(resp, "error ", 6) == 0)
		FUZZ_CHECK(resp[6] == 'E' && strchr(resp, ':') != NULL,
			   "'%s' -> '%s'", request, resp);
	else
		FUZZ_CHECK(strncmp(resp, "ok ", 3) == 0 || resp[0] == '{',
			   "'%s' -> '%s'", request, resp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdsi_model *models[SOCKETS] = { NULL };
	struct emu_model_clock clocks[SOCKETS];
	struct emu_control_target target;
	struct sdsi_fusedrv *drv = NULL;
	char *text, *line, *save = NULL;
	char err[256];
	int n = 0;

	for (unsigned int i = 0; i < SOCKETS; i++) {
		struct sdsi_model_config cfg = {
			.guid = i ? SDSI_GUID_V1 : SDSI_GUID_V2,
			.socket_index = i,
			.ppin = 0x1000 + i,
			.features = SDSI_MODEL_DEFAULT_FEATURES,
			.clock = emu_model_clock_now,
			.clock_ctx = &clocks[i],
		};

		emu_model_clock_init(&clocks[i], 1.0);
		if (sdsi_model_create(&cfg, &models[i], err, sizeof(err)))
			abort();
	}
	{
		struct sdsi_fusedrv_backend backends[SOCKETS];
		struct sdsi_fusedrv_config dcfg = {
			.abi = SDSI_ABI_CURRENT, .backends = backends, .nsockets = SOCKETS,
		};

		for (unsigned int i = 0; i < SOCKETS; i++)
			backends[i] = inproc_backend_for(models[i]);

		if (sdsi_fusedrv_create(&dcfg, &drv, err, sizeof(err)))
			abort();
	}
	emu_control_target_init(&target, drv, models, clocks, SOCKETS, "/nonexistent/sdsi-fuzz");

	text = strndup((const char *)data, size);
	if (!text)
		abort();
	for (line = strtok_r(text, "\n", &save); line && n < MAX_REQUESTS;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char *resp = emu_control_execute(&target, line);

		check_response(line, resp);
		free(resp);
	}
	free(text);
	sdsi_fusedrv_unmount(drv);
	for (unsigned int i = 0; i < SOCKETS; i++)
		sdsi_model_destroy(models[i]);
	return 0;
}
