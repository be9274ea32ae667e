// SPDX-License-Identifier: GPL-2.0-only
/*
 * Changes to the provisioned NVRAM content and its wear.  A change is made on
 * a copy, persisted, and only then becomes the model's state, so a failed
 * write leaves both the file and the model as they were.
 */
#include <errno.h>
#include <stdio.h>

#include "model_priv.h"
#include "licensing/sdsi_lic.h"

static int commit(struct sdsi_model *m, struct model_nvram *next)
{
	char err[512];
	int ret;

	if (next->wear < UINT32_MAX)
		next->wear++;
	if (m->nvram_path) {
		ret = nvram_file_store(m, next, err, sizeof(err));
		if (ret) {
			/* The mailbox can only say 0x90; keep the reason. */
			fprintf(stderr, "sdsi model: %s\n", err);
			return ret;
		}
	}
	m->nv = *next;
	return 0;
}

int nvram_install_key(struct sdsi_model *m, uint32_t key_rev,
		      const uint8_t key[MODEL_PUBKEY_SIZE])
{
	struct model_nvram next = m->nv;

	if (sdsi_lic_key_image(key, next.key_image))
		return -ENOMEM;
	next.key_provisioned = true;
	next.licensor_key_known = true;
	next.key_rev = key_rev;
	memcpy(next.licensor_key, key, MODEL_PUBKEY_SIZE);
	return commit(m, &next);
}

/* Clear the valid bit of every stored entry whose licence ID is id. */
static void invalidate_id(struct model_nvram *nv, uint64_t id)
{
	uint32_t off = 0, i;

	for (i = 0; i < nv->num_licenses; i++) {
		uint32_t len = (nv->license_words[i] & SDSI_BLOB_SIZE_MASK) * 4;

		if (len >= SDSI_BLOB_OFF_ID + 8 &&
		    sdsi_le64(nv->blobs + off + SDSI_BLOB_OFF_ID) == id)
			nv->license_words[i] &= ~SDSI_BLOB_VALID;
		off += len;
	}
}

/* The blob is stored zero-padded to whole dwords, marked valid. */
int nvram_add_license(struct sdsi_model *m, const void *blob, size_t len,
		      bool supersede)
{
	struct model_nvram next = m->nv;
	uint32_t padded;

	if (!len || (supersede && len < SDSI_BLOB_OFF_ID + 8))
		return -EINVAL;
	if (len > SDSI_READ_MSG_MAX || next.num_licenses >= MODEL_MAX_LICENSES)
		return -ENOSPC;
	padded = ((uint32_t)len + 3) & ~3u;
	if (supersede)
		invalidate_id(&next, sdsi_le64((const uint8_t *)blob +
					      SDSI_BLOB_OFF_ID));
	next.num_licenses++;
	next.blobs_len += padded;
	if (!state_region_fits(&next))
		return -ENOSPC;
	memcpy(next.blobs + m->nv.blobs_len, blob, len);
	memset(next.blobs + m->nv.blobs_len + len, 0, padded - len);
	next.license_words[next.num_licenses - 1] = padded / 4 | SDSI_BLOB_VALID;
	return commit(m, &next);
}

int nvram_save_meters(struct sdsi_model *m)
{
	char err[512];
	int ret;

	sdsi_assert_held(&m->lock);
	if (!m->nvram_path)
		return 0;
	ret = nvram_file_store(m, &m->nv, err, sizeof(err));
	if (ret)
		fprintf(stderr, "sdsi model: %s\n", err);
	return ret;
}

/* NVRAM_UPDATE_LIMITS: share of the endurance the provisioning writes used. */
uint64_t nvram_limit_bits(const struct sdsi_model *m)
{
	uint64_t used = (uint64_t)m->nv.wear * 100u;
	uint64_t bits = 0;

	if (used >= 50ull * m->nvram_endurance)
		bits |= SDSI_NVRAM_50_PCT;
	if (used >= 75ull * m->nvram_endurance)
		bits |= SDSI_NVRAM_75_PCT;
	if (used >= 90ull * m->nvram_endurance)
		bits |= SDSI_NVRAM_90_PCT;
	return bits;
}
