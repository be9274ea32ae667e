// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROVISION_AKC and PROVISION_CAP (docs/interface.md §3.4, §3.5 and §4.4): the
 * per-power-cycle limits, then authentication of the blob, then the NVRAM
 * update it asks for.
 */
#include <errno.h>

#include <openssl/evp.h>

#include "model_priv.h"
#include "licensing/sdsi_lic.h"

/* The NVRAM change an authenticated blob asks for. */
struct provision_effect {
	enum { EFFECT_INSTALL_KEY, EFFECT_ADD_LICENSE } kind;
	uint32_t key_rev;
	uint8_t key[MODEL_PUBKEY_SIZE];
	uint8_t license[SDSI_LICENSE_BLOB_MAX];
	size_t license_len;
	bool supersede;		/* an older revision of the licence is stored */
};

/*
 * An AKC signed by the root of trust, whose key revision is not lower than
 * the provisioned one (docs/formats.md section 6).
 */
static int authenticate_akc(const struct sdsi_model *m, const uint8_t *blob,
			    size_t len, struct provision_effect *effect)
{
	struct sdsi_lic_akc akc;
	int ret;

	if (!m->root_key)
		return -EACCES;
	ret = sdsi_lic_akc_verify(blob, len, m->root_key, &akc, NULL);
	if (ret)
		return ret;
	if (m->nv.key_provisioned && akc.key_revision < m->nv.key_rev)
		return -EACCES;
	effect->kind = EFFECT_INSTALL_KEY;
	effect->key_rev = akc.key_revision;
	memcpy(effect->key, akc.licensor_key, MODEL_PUBKEY_SIZE);
	return 0;
}

/*
 * The highest revision stored for a licence ID; false if none.  Entries
 * shorter than a licence header (only tests write those) match nothing.
 */
static bool stored_revision(const struct model_nvram *nv, uint64_t id,
			    uint32_t *revision)
{
	uint32_t off = 0, i;
	bool found = false;

	for (i = 0; i < nv->num_licenses; i++) {
		uint32_t len = (nv->license_words[i] & SDSI_BLOB_SIZE_MASK) * 4;
		const uint8_t *blob = nv->blobs + off;

		off += len;
		if (len < SDSI_BLOB_HEADER_SIZE ||
		    sdsi_le64(blob + SDSI_BLOB_OFF_ID) != id)
			continue;
		if (!found || sdsi_le32(blob + SDSI_BLOB_OFF_REVISION) > *revision)
			*revision = sdsi_le32(blob + SDSI_BLOB_OFF_REVISION);
		found = true;
	}
	return found;
}

/*
 * A CAP, in the order of docs/formats.md section 6: an AKC provisioned, the
 * signature of its licensor key, this socket's PPIN, and a licence ID either
 * new or with a higher revision than any stored.
 */
static int authenticate_cap(const struct sdsi_model *m, const uint8_t *blob,
			    size_t len, struct provision_effect *effect)
{
	const struct sdsi_lic_blob *lic;
	struct sdsi_lic_cap cap;
	EVP_PKEY *licensor;
	uint32_t revision = 0;
	int ret;

	if (!m->nv.key_provisioned || !m->nv.licensor_key_known)
		return -EACCES;
	ret = sdsi_lic_pubkey_from_raw(m->nv.licensor_key, &licensor, NULL);
	if (ret)
		return ret;
	ret = sdsi_lic_cap_verify(blob, sdsi_lic_cap_unpadded_len(blob, len), licensor, &cap,
				  NULL);
	EVP_PKEY_free(licensor);
	if (ret)
		return ret;
	lic = &cap.license;
	if (lic->ppin != m->nv.ppin)
		return -EACCES;
	effect->supersede = stored_revision(&m->nv, lic->id, &revision);
	if (effect->supersede && lic->revision <= revision)
		return -EACCES;
	effect->kind = EFFECT_ADD_LICENSE;
	return sdsi_lic_blob_encode(lic, effect->license,
				    sizeof(effect->license),
				    &effect->license_len, NULL);
}

static int apply(struct sdsi_model *m, const struct provision_effect *effect)
{
	if (effect->kind == EFFECT_INSTALL_KEY)
		return nvram_install_key(m, effect->key_rev, effect->key);
	return nvram_add_license(m, effect->license, effect->license_len,
				 effect->supersede);
}

uint8_t provision_execute(struct sdsi_model *m, uint64_t command,
			  const uint8_t *payload, size_t len)
{
	struct provision_effect effect = { 0 };
	uint8_t *failures, threshold;
	int ret;

	sdsi_assert_held(&m->lock);
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

	if (command == SDSI_CMD_PROVISION_AKC)
		ret = authenticate_akc(m, payload, len, &effect);
	else
		ret = authenticate_cap(m, payload, len, &effect);
	/* Running out of memory says nothing about the blob: not counted. */
	if (ret == -ENOMEM)
		return SDSI_STATUS_FAILURE;
	if (ret) {
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
