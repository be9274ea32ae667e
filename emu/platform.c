// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

/* The file name the model documents for socket N's NVRAM. */
static void nvram_path(const struct emu_platform *pf, unsigned int socket,
		       char *path, size_t len)
{
	snprintf(path, len, "%s/socket%u.nvram", pf->state_dir, socket);
}

static void forget_new_nvram(struct emu_platform *pf)
{
	char path[sizeof(pf->state_dir) + 32];

	for (unsigned int i = 0; i < EMU_MAX_SOCKETS; i++) {
		if (!pf->new_nvram[i])
			continue;
		nvram_path(pf, i, path, sizeof(path));
		if (unlink(path) < 0 && errno != ENOENT)
			fprintf(stderr, "sdsi-emu: cannot remove %s: %s\n", path, strerror(errno));
		pf->new_nvram[i] = false;
	}
}

static int create_socket(struct emu_platform *pf, const struct emu_options *opts,
			 unsigned int socket, char *err, size_t errlen)
{
	char path[sizeof(pf->state_dir) + 32];

	emu_model_clock_init(&pf->clocks[socket], opts->time_scale);
	nvram_path(pf, socket, path, sizeof(path));
	pf->new_nvram[socket] = access(path, F_OK) < 0 && errno == ENOENT;

	/* The platform options, as sdsi-shmem reads them too. */
	return cli_platform_model_create(&opts->pf, socket, pf->state_dir, pf->root_key,
					emu_model_clock_now, &pf->clocks[socket],
					&pf->models[socket], err, errlen);
}

int emu_platform_create(struct emu_platform *pf, const struct emu_options *opts,
			const char *state_dir, char *err, size_t errlen)
{
	int ret = 0;

	memset(pf, 0, sizeof(*pf));
	if (snprintf(pf->state_dir, sizeof(pf->state_dir), "%s", state_dir) >=
	    (int)sizeof(pf->state_dir)) {
		snprintf(err, errlen, "state directory name too long");
		return -ENAMETOOLONG;
	}
	if (cli_platform_root_key(&opts->pf, pf->root_key, sizeof(pf->root_key))) {
		snprintf(err, errlen, "root key file name too long");
		return -ENAMETOOLONG;
	}
	for (unsigned int i = 0; i < opts->pf.sockets; i++) {
		ret = create_socket(pf, opts, i, err, errlen);
		if (ret) {
			emu_platform_destroy(pf, true);
			return ret;
		}
		pf->nsockets = i + 1;
	}
	return 0;
}

void emu_platform_destroy(struct emu_platform *pf, bool failed)
{
	for (unsigned int i = 0; i < EMU_MAX_SOCKETS; i++) {
		if (pf->models[i])
			sdsi_model_destroy(pf->models[i]);
		pf->models[i] = NULL;
	}
	pf->nsockets = 0;
	if (failed)
		forget_new_nvram(pf);
}
