// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROVISION_AKC and PROVISION_CAP (reference sections 3.4, 3.5 and 4.4): the
 * per-power-cycle limits, then authentication of the blob, then the NVRAM
 * update it asks for.
 */
#include <errno.h>

#include "model_priv.h"

/* The NVRAM change an authenticated blob asks for. */
struct provision_effect {
	enum { EFFECT_INSTALL_KEY, EFFECT_APPEND_LICENCE } kind;
	uint32_t key_rev;
	uint8_t key_image[SDSI_STATE_KEY_IMAGE_SIZE];
	const uint8_t *licence;
	size_t licence_len;
};

/*
 * Verify a blob against the part's root of trust and say what it installs.
 * The AKC and CAP formats and their ECDSA P-384 signatures are project-
 * defined and arrive with the licensing work (reference section 10).  Until
 * then this part has no root of trust to verify against, so no blob
 * authenticates: -EACCES, as for a blob signed by an unknown key.
 */
static int authenticate(const struct sdsi_model *m, uint64_t command,
			const uint8_t *blob, size_t len,
			struct provision_effect *effect)
{
	return -EACCES;
}

static int apply(struct sdsi_model *m, const struct provision_effect *effect)
{
	if (effect->kind == EFFECT_INSTALL_KEY)
		return nvram_install_key(m, effect->key_rev, effect->key_image);
	return nvram_append_licence(m, effect->licence, effect->licence_len);
}

uint8_t provision_execute(struct sdsi_model *m, uint64_t command,
			  const uint8_t *payload, size_t len)
{
	struct provision_effect effect;
	uint8_t *failures, threshold;

	if (command == SDSI_CMD_PROVISION_AKC) {
		failures = &m->akc_failures;
		threshold = m->akc_threshold;
	} else if (command == SDSI_CMD_PROVISION_CAP) {
		failures = &m->cap_failures;
		threshold = m->cap_threshold;
	} else {
		return SDSI_STATUS_FAILURE;
	}

	/*
	 * Refusals that evaluate nothing and count nothing: provisioning off
	 * in the BIOS (or locked in-band), no update left in this power
	 * cycle, or this kind of blob already failed as often as allowed.
	 */
	if (!(m->features & SDSI_FEATURE_ON_DEMAND) || m->iblock)
		return SDSI_STATUS_FAILURE;
	if (!m->updates_available || *failures >= threshold)
		return SDSI_STATUS_FAILURE;

	if (authenticate(m, command, payload, len, &effect)) {
		/* threshold <= 7 keeps the count within its 3-bit field. */
		(*failures)++;
		m->content_auth_error = true;
		return SDSI_STATUS_FAILURE;
	}
	if (apply(m, &effect))
		return SDSI_STATUS_FAILURE;
	m->updates_available--;
	return SDSI_STATUS_SUCCESS;
}
