// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct sdsi_preflight as an opaque handle: what the pre-flight checks found
 * (preflight.c), read through accessors so that a new check or a longer
 * detail is no change to the ABI.
 */
#include <stdlib.h>

#include "sdsi_internal.h"

struct sdsi_preflight *sdsi_preflight_new(void)
{
	return calloc(1, sizeof(struct sdsi_preflight));
}

void sdsi_preflight_free(struct sdsi_preflight *pf)
{
	free(pf);
}

bool sdsi_preflight_last_attempt(const struct sdsi_preflight *pf)
{
	return pf->last_attempt;
}

const char *sdsi_preflight_warning(const struct sdsi_preflight *pf)
{
	return pf->warning;
}

const struct sdsi_blob_info *sdsi_preflight_blob_info(const struct sdsi_preflight *pf)
{
	return &pf->blob;
}

bool sdsi_preflight_unchanged(const struct sdsi_preflight *pf)
{
	return pf->unchanged;
}

bool sdsi_preflight_forced(const struct sdsi_preflight *pf)
{
	return pf->forced;
}

unsigned int sdsi_preflight_num_checks(const struct sdsi_preflight *pf)
{
	return pf->num_checks;
}

const char *sdsi_preflight_check_name(const struct sdsi_preflight *pf, unsigned int i)
{
	return i < pf->num_checks ? pf->checks[i].name : NULL;
}

enum sdsi_check_status sdsi_preflight_check_status(const struct sdsi_preflight *pf,
						   unsigned int i)
{
	return i < pf->num_checks ? pf->checks[i].status : SDSI_CHECK_SKIP;
}

const char *sdsi_preflight_check_detail(const struct sdsi_preflight *pf, unsigned int i)
{
	return i < pf->num_checks ? pf->checks[i].detail : NULL;
}

/* For __attribute__((cleanup)): the address of a handle, which may be NULL. */
void sdsi_preflight_freep(struct sdsi_preflight **pf)
{
	sdsi_preflight_free(*pf);
}
