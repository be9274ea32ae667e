// SPDX-License-Identifier: GPL-2.0-only
/*
 * The meters (docs/interface.md §3.2) against model time.  MMRC counts
 * powered-up time and each feature code of an active metered licence counts
 * the powered-up time it was in effect, both in counter units.  Like a billing
 * meter they never reset: nv holds them as of m->metered_until and they are
 * saved at every power cycle, at destroy, and at the first access after an
 * 8-hour latch point.  The copy READ_METER returns without meter_current is
 * the one latched at the last 8-hour boundary of powered-up time.
 */
#include "model_priv.h"

/* The metered codes of the licences in effect at power-on. */
static int meter_slot(struct model_nvram *nv, uint32_t code)
{
	uint32_t i;

	for (i = 0; i < nv->num_meters; i++)
		if (nv->meters[i].code == code)
			return (int)i;
	if (nv->num_meters == MODEL_MAX_METERS)
		return -1;
	nv->meters[nv->num_meters] = (struct model_meter){ .code = code };
	return (int)nv->num_meters++;
}

static void activate_metered_codes(struct sdsi_model *m, const uint8_t *blob,
				   uint32_t len)
{
	uint32_t bundles, k;

	if (len < SDSI_BLOB_HEADER_SIZE ||
	    sdsi_le32(blob + SDSI_BLOB_OFF_TYPE) != SDSI_BLOB_TYPE_METERED)
		return;
	bundles = sdsi_le32(blob + SDSI_BLOB_OFF_NUM_BUNDLES);
	/* A blob too short for the bundles it announces meters those it holds. */
	for (k = 0; k < bundles; k++) {
		uint32_t off = SDSI_BLOB_HEADER_SIZE + k * SDSI_BUNDLE_SIZE;
		int slot;

		if (off + 4 > len)
			break;
		slot = meter_slot(&m->nv, sdsi_le32(blob + off));
		if (slot >= 0)
			m->meter_active[slot] = true;
	}
}

void meter_power_on(struct sdsi_model *m, uint64_t now)
{
	struct model_nvram *nv = &m->nv;
	uint32_t off = 0, i;

	sdsi_assert_held(&m->lock);
	memset(m->license_active, 0, sizeof(m->license_active));
	memset(m->meter_active, 0, sizeof(m->meter_active));
	for (i = 0; i < nv->num_licenses; i++) {
		uint32_t word = nv->license_words[i];
		uint32_t len = (word & SDSI_BLOB_SIZE_MASK) * 4;

		m->license_active[i] = word & SDSI_BLOB_VALID;
		if (m->license_active[i])
			activate_metered_codes(m, nv->blobs + off, len);
		off += len;
	}
	m->metered_until = now;
}

/* The meters, in nanoseconds, live or as latched at the last boundary. */
static void meter_ns(const struct sdsi_model *m, uint64_t now, bool latched,
		     uint64_t *powered, uint64_t *feature)
{
	const struct model_nvram *nv = &m->nv;
	uint64_t live = now > m->metered_until ? now - m->metered_until : 0;
	uint64_t total = nv->powered_ns + live, boundary, ran;
	uint32_t i;

	if (!latched) {
		*powered = total;
		for (i = 0; i < nv->num_meters; i++)
			feature[i] = nv->meters[i].total_ns +
				     (m->meter_active[i] ? live : 0);
		return;
	}
	boundary = total - total % MODEL_LATCH_PERIOD_NS;
	if (boundary <= nv->latched_powered_ns) {
		*powered = nv->latched_powered_ns;
		for (i = 0; i < nv->num_meters; i++)
			feature[i] = nv->meters[i].latched_ns;
		return;
	}
	/*
	 * A boundary passed since metered_until; nv->latched_powered_ns is the
	 * last one at or before nv->powered_ns, so this one lies after it.
	 */
	ran = boundary - nv->powered_ns;
	*powered = boundary;
	for (i = 0; i < nv->num_meters; i++)
		feature[i] = nv->meters[i].total_ns +
			     (m->meter_active[i] ? ran : 0);
}

void meter_sync(struct sdsi_model *m, uint64_t now)
{
	struct model_nvram *nv = &m->nv;
	uint64_t feature[MODEL_MAX_METERS];
	uint32_t i;

	sdsi_assert_held(&m->lock);
	meter_ns(m, now, true, &nv->latched_powered_ns, feature);
	for (i = 0; i < nv->num_meters; i++)
		nv->meters[i].latched_ns = feature[i];
	meter_ns(m, now, false, &nv->powered_ns, feature);
	for (i = 0; i < nv->num_meters; i++)
		nv->meters[i].total_ns = feature[i];
	if (now > m->metered_until)
		m->metered_until = now;
}

void meter_tick(struct sdsi_model *m, uint64_t now)
{
	uint64_t live = now > m->metered_until ? now - m->metered_until : 0;
	uint64_t total = m->nv.powered_ns + live;

	sdsi_assert_held(&m->lock);
	if (total - total % MODEL_LATCH_PERIOD_NS <= m->nv.latched_powered_ns)
		return;
	meter_sync(m, now);
	/* A failed save is reported; the counters stay right in memory. */
	nvram_save_meters(m);
}

static uint32_t units(uint64_t ns)
{
	uint64_t n = ns / MODEL_METER_UNIT_NS;

	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

uint32_t meter_read(const struct sdsi_model *m, uint64_t now, bool latched,
		    uint32_t *mmrc, uint32_t *codes, uint32_t *counters)
{
	uint64_t powered, feature[MODEL_MAX_METERS];
	uint32_t n = 0, i;

	meter_ns(m, now, latched, &powered, feature);
	*mmrc = units(powered);
	for (i = 0; i < m->nv.num_meters; i++) {
		if (!m->meter_active[i])
			continue;
		codes[n] = m->nv.meters[i].code;
		counters[n++] = units(feature[i]);
	}
	return n;
}
