// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's entry points: creation, the lock, the MMIO dispatch between
 * control register, mailbox and register file, the discovery table and the
 * BIOS/power controls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/evp.h>

#include "model_priv.h"
#include "sdsi/bitfield.h"
#include "licensing/sdsi_lic.h"
#include "util/util_time.h"

/* Reads nobody decodes return all ones, as a PCIe master abort would. */
#define MMIO_UNCLAIMED	(~0ull)

static uint64_t monotonic_ns(void *ctx)
{
	(void)ctx;
	return util_now_ns();
}

static void reset_volatile(struct sdsi_model *m)
{
	m->akc_failures = 0;
	m->cap_failures = 0;
	m->updates_available = m->updates_threshold;
	m->content_auth_error = false;
	/* Licences provisioned before this power-on are now in effect. */
	meter_power_on(m, model_now(m));
	mailbox_reset(m);
	/* No CACHE: a requester negotiates again after every reset. */
	spdm_reset(&m->spdm);
}

static int pick_threshold(uint8_t configured, uint8_t fallback,
			  const char *what, uint8_t *out, char *err,
			  size_t errlen)
{
	if (configured > SDSI_FIELD3_MASK) {
		snprintf(err, errlen, "%s %u does not fit its 3-bit field",
			 what, configured);
		return -EINVAL;
	}
	*out = configured ? configured : fallback;
	return 0;
}

static int generate_ppin(uint64_t *ppin, char *err, size_t errlen)
{
	do {
		if (getrandom(ppin, sizeof(*ppin), 0) != sizeof(*ppin)) {
			snprintf(err, errlen, "cannot generate a PPIN: %s",
				 strerror(errno));
			return -errno;
		}
	} while (!*ppin);
	return 0;
}

static int load_nvram(struct sdsi_model *m, const struct sdsi_model_config *cfg,
		      char *err, size_t errlen)
{
	int ret;

	if (m->nvram_path) {
		ret = nvram_file_load(m, cfg->ppin, &m->nv, err, errlen);
		if (ret != -ENOENT)
			return ret;
	}
	memset(&m->nv, 0, sizeof(m->nv));
	m->nv.ppin = cfg->ppin;
	if (!m->nv.ppin) {
		ret = generate_ppin(&m->nv.ppin, err, errlen);
		if (ret)
			return ret;
	}
	if (!m->nvram_path)
		return 0;
	return nvram_file_store(m, &m->nv, err, errlen);
}

static int configure(struct sdsi_model *m, const struct sdsi_model_config *cfg,
		     char *err, size_t errlen)
{
	int ret;

	if (cfg->socket_id > SDSI_SOCKET_ID_MASK) {
		snprintf(err, errlen, "socket ID %u does not fit bits 3:0",
			 cfg->socket_id);
		return -EINVAL;
	}
	ret = pick_threshold(cfg->akc_fail_threshold,
			     SDSI_MODEL_DEFAULT_AKC_THRESH,
			     "AKC failure threshold", &m->akc_threshold, err,
			     errlen);
	if (!ret)
		ret = pick_threshold(cfg->cap_fail_threshold,
				     SDSI_MODEL_DEFAULT_CAP_THRESH,
				     "CAP failure threshold", &m->cap_threshold,
				     err, errlen);
	if (!ret)
		ret = pick_threshold(cfg->updates_threshold,
				     SDSI_MODEL_DEFAULT_UPDATES,
				     "updates threshold", &m->updates_threshold,
				     err, errlen);
	if (ret)
		return ret;

	m->guid = cfg->guid;
	/* Any GUID but V2 gets the V1 layout, as the early driver assumed. */
	m->ctrl_size = sdsi_layout_ctrl_size(sdsi_guid_layout_or_v1(cfg->guid));
	m->regs_size = sdsi_layout_regs_size(sdsi_guid_layout_or_v1(cfg->guid));
	m->socket_index = cfg->socket_index;
	m->socket_id = cfg->socket_id;
	m->capid1 = cfg->capid1;
	m->features = cfg->features & SDSI_FEATURES_SETTABLE;
	m->iblock = cfg->iblock;
	m->nvram_endurance = cfg->nvram_endurance ? cfg->nvram_endurance :
			     SDSI_MODEL_DEFAULT_ENDURANCE;
	m->clock = cfg->clock ? cfg->clock : monotonic_ns;
	m->clock_ctx = cfg->clock_ctx;
	if (cfg->root_key) {
		if (!EVP_PKEY_up_ref(cfg->root_key)) {
			snprintf(err, errlen, "root key: out of memory");
			return -ENOMEM;
		}
		m->root_key = cfg->root_key;
	} else if (cfg->root_key_path) {
		struct sdsi_lic_error lerr;

		ret = sdsi_lic_key_load_public(cfg->root_key_path,
					       &m->root_key, &lerr);
		if (ret) {
			snprintf(err, errlen, "root key: %s", lerr.reason);
			return ret;
		}
	}
	if (cfg->state_dir) {
		if (asprintf(&m->nvram_path, "%s/socket%u.nvram",
			     cfg->state_dir, cfg->socket_index) < 0) {
			m->nvram_path = NULL;
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

static void free_parts(struct sdsi_model *m)
{
	spdm_fini(&m->spdm);
	identity_free(&m->identity);
	identity_free(&m->foreign);
	free(m->identity_path);
	EVP_PKEY_free(m->root_key);
	free(m->nvram_path);
	free(m);
}

int sdsi_model_create(const struct sdsi_model_config *cfg,
		      struct sdsi_model **out, char *err, size_t errlen)
{
	struct sdsi_model *m;
	int ret;

	if (errlen)
		err[0] = '\0';
	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = configure(m, cfg, err, errlen);
	if (!ret)
		ret = load_nvram(m, cfg, err, errlen);
	if (!ret)
		ret = identity_load(m, cfg, err, errlen);
	if (!ret && spdm_init(&m->spdm)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	if (ret) {
		free_parts(m);
		return ret;
	}
	sdsi_lock_init(&m->lock);
	/* Creating a socket from its NVRAM is powering it on. */
	sdsi_lock_take(&m->lock);
	reset_volatile(m);
	sdsi_lock_release(&m->lock);
	*out = m;
	return 0;
}

void sdsi_model_destroy(struct sdsi_model *m)
{
	if (!m)
		return;
	/* Switching off: the meters keep the time up to now. */
	sdsi_lock_take(&m->lock);
	meter_sync(m, model_now(m));
	nvram_save_meters(m);
	sdsi_lock_release(&m->lock);
	sdsi_lock_destroy(&m->lock);
	free_parts(m);
}

static uint64_t register_read(const struct sdsi_model *m, uint32_t offset)
{
	switch (offset) {
	case SDSI_REG_PPIN:
		return m->nv.ppin;
	case SDSI_REG_AUTH_ERR:
		return m->content_auth_error ? SDSI_AUTH_ERR_CONTENT : 0;
	case SDSI_REG_FEATURES:
		return m->features;
	case SDSI_REG_KEY_PROV:
		return m->nv.key_provisioned ? SDSI_KEY_PROVISIONED : 0;
	case SDSI_REG_FAIL_COUNT:
		return SDSI_FIELD_PREP(SDSI_FAIL_AKC_COUNT_MASK, m->akc_failures) |
		       SDSI_FIELD_PREP(SDSI_FAIL_AKC_THRESH_MASK, m->akc_threshold) |
		       SDSI_FIELD_PREP(SDSI_FAIL_CAP_COUNT_MASK, m->cap_failures) |
		       SDSI_FIELD_PREP(SDSI_FAIL_CAP_THRESH_MASK, m->cap_threshold);
	case SDSI_REG_AVAILABILITY:
		return SDSI_FIELD_PREP(SDSI_AVAIL_UPDATES_MASK, m->updates_available) |
		       SDSI_FIELD_PREP(SDSI_AVAIL_THRESH_MASK, m->updates_threshold);
	case SDSI_REG_NVRAM_LIMITS:
		return nvram_limit_bits(m);
	case SDSI_REG_CAPID1:
		/* V2 has a 4-byte CAPID1 followed by 4 reserved bytes. */
		if (sdsi_guid_layout(m->guid) == 2)
			return m->capid1 & 0xffffffffull;
		return m->capid1;
	case SDSI_REG_SOCKET_ID:
		return m->socket_id;
	case SDSI_REG_SOCKET_ID_V2_TOOL:
		/* Beyond the V1 file; V2 serves the upstream tool's offset too. */
		return m->socket_id;
	default:
		return 0;
	}
}

/* A read; checked: by the driver, so judged against the protocol. */
static uint64_t model_read(struct sdsi_model *m, uint32_t offset, bool checked)
{
	uint32_t mbox_end = m->ctrl_size + SDSI_MBOX_SIZE;
	enum sdsi_rule rule = SDSI_RULE_COUNT;
	uint64_t value, now;

	if (offset >= sdsi_model_mmio_size(m))
		return MMIO_UNCLAIMED;
	sdsi_lock_take(&m->lock);
	now = model_now(m);
	if (offset % 8) {
		value = MMIO_UNCLAIMED;
		rule = SDSI_RULE_UNALIGNED;
		goto out;
	}
	meter_tick(m, now);
	if (offset == 0) {
		value = mailbox_read_control(m, now);
	} else if (offset < m->ctrl_size) {
		value = SDSI_MODEL_METER_PERIOD & SDSI_CTRL1_METER_PERIOD_MASK;
	} else if (offset < mbox_end) {
		rule = protocol_check_mbox_read(&m->mbox, m->ctrl_size,
						(offset - m->ctrl_size) / 8, now);
		value = mailbox_read(m, (offset - m->ctrl_size) / 8);
	} else {
		value = register_read(m, offset - mbox_end);
	}
out:
	if (checked)
		protocol_record(m, rule, offset, value, false, now);
	sdsi_lock_release(&m->lock);
	return value;
}

uint64_t sdsi_model_read64(struct sdsi_model *m, uint32_t offset)
{
	return model_read(m, offset, true);
}

uint64_t sdsi_model_peek64(struct sdsi_model *m, uint32_t offset)
{
	return model_read(m, offset, false);
}

void sdsi_model_write64(struct sdsi_model *m, uint32_t offset, uint64_t value)
{
	uint32_t mbox_end = m->ctrl_size + SDSI_MBOX_SIZE;
	enum sdsi_rule rule;
	uint64_t now;

	sdsi_lock_take(&m->lock);
	now = model_now(m);
	/* Qword 1 of the V2 control and the register file are read-only. */
	if (offset % 8) {
		rule = SDSI_RULE_UNALIGNED;
	} else if ((offset && offset < m->ctrl_size) || offset >= mbox_end) {
		rule = SDSI_RULE_READ_ONLY;
	} else {
		meter_tick(m, now);
		if (offset == 0) {
			rule = protocol_check_control(&m->mbox, value, now);
			mailbox_write_control(m, value, now);
		} else {
			rule = protocol_check_mbox_write(&m->mbox,
							 (offset - m->ctrl_size) / 8);
			mailbox_write(m, (offset - m->ctrl_size) / 8, value, now);
		}
	}
	protocol_record(m, rule, offset, value, true, now);
	sdsi_lock_release(&m->lock);
}

uint32_t sdsi_model_mmio_size(const struct sdsi_model *m)
{
	return m->ctrl_size + SDSI_MBOX_SIZE + m->regs_size;
}

uint32_t sdsi_model_guid(const struct sdsi_model *m)
{
	return m->guid;
}

/* The table's dwords; dword 2 holds the TBIR in its low bits. */
static void discovery_table(const struct sdsi_model *m, uint32_t access,
			    uint32_t tbir_offset, uint32_t table[4])
{
	uint32_t dwords = sdsi_model_mmio_size(m) / 4;

	table[0] = access |
		   SDSI_DISC_TYPE << SDSI_DISC_TYPE_SHIFT |
		   (dwords & SDSI_DISC_SIZE_MASK) << SDSI_DISC_SIZE_SHIFT;
	table[1] = m->guid;
	table[2] = tbir_offset;
	table[3] = 0;
}

void sdsi_model_discovery(const struct sdsi_model *m, uint32_t mmio_gap,
			  uint32_t table[4])
{
	/* LOCAL access: TBIR 0, the offset counts from the table's end. */
	discovery_table(m, SDSI_DISC_ACCESS_LOCAL,
			mmio_gap & ~SDSI_DISC_TBIR_MASK, table);
}

void sdsi_model_discovery_barid(const struct sdsi_model *m, uint32_t tbir,
				uint32_t bar_offset, uint32_t table[4])
{
	discovery_table(m, SDSI_DISC_ACCESS_BARID,
			(bar_offset & ~SDSI_DISC_TBIR_MASK) |
			(tbir & SDSI_DISC_TBIR_MASK), table);
}

int sdsi_model_power_cycle(struct sdsi_model *m)
{
	int ret;

	sdsi_lock_take(&m->lock);
	meter_sync(m, model_now(m));
	reset_volatile(m);
	/* The meters, and the codes that start counting now, are saved. */
	ret = nvram_save_meters(m);
	sdsi_lock_release(&m->lock);
	return ret;
}

void sdsi_model_set_features(struct sdsi_model *m, uint64_t features)
{
	sdsi_lock_take(&m->lock);
	m->features = features & SDSI_FEATURES_SETTABLE;
	sdsi_lock_release(&m->lock);
}

void sdsi_model_set_iblock(struct sdsi_model *m, bool locked)
{
	sdsi_lock_take(&m->lock);
	m->iblock = locked;
	sdsi_lock_release(&m->lock);
}
