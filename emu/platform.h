/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated platform: one hardware model per socket, configured from the
 * command line, with its NVRAM in the state directory.
 */
#ifndef SDSI_EMU_PLATFORM_H
#define SDSI_EMU_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "model_clock.h"
#include "emu_options.h"
#include "model/sdsi_model.h"

struct emu_platform {
	struct sdsi_model *models[EMU_MAX_SOCKETS];
	/* Each socket's model time; outlives the model it drives. */
	struct emu_model_clock clocks[EMU_MAX_SOCKETS];
	unsigned int nsockets;
	/* NVRAM files this run created, removed again if startup fails. */
	bool new_nvram[EMU_MAX_SOCKETS];
	char state_dir[4096];
	char root_key[4096];		/* "": no root of trust */
};

/*
 * Create opts->sockets models; socket N gets socket ID N.  On failure nothing
 * is left (no model, no new NVRAM file) and err holds the model's message.
 */
int emu_platform_create(struct emu_platform *pf, const struct emu_options *opts,
			const char *state_dir, char *err, size_t errlen);

/* Destroy the models; with failed, also remove the NVRAM files created. */
void emu_platform_destroy(struct emu_platform *pf, bool failed);

#endif /* SDSI_EMU_PLATFORM_H */
