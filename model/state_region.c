// SPDX-License-Identifier: GPL-2.0-only
/*
 * The size of the state certificate region (docs/interface.md §3.1) that an
 * NVRAM content occupies, and the limit it must keep: one read message.
 * certs.c builds the region to this size; nvram.c refuses a change and
 * nvram_file.c a loaded file that would no longer fit.  It stands apart so
 * that the NVRAM code does not depend on the certificate builders, which
 * depend on the meters, which save to the NVRAM.
 */
#include "model_priv.h"

static uint32_t align_up(uint32_t v, uint32_t to)
{
	return (v + to - 1) / to * to;
}

/* Total size counts the whole region, bytes, padded to 16 like the NVRAM. */
uint32_t state_region_size(const struct model_nvram *nv)
{
	return align_up(SDSI_STATE_HEADER_SIZE + 4 * nv->num_licenses +
			SDSI_STATE_KEY_INFO_SIZE + nv->blobs_len,
			SDSI_STATE_REGION_ALIGN);
}

bool state_region_fits(const struct model_nvram *nv)
{
	return state_region_size(nv) <= SDSI_READ_MSG_MAX;
}
