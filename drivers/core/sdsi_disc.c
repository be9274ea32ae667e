// SPDX-License-Identifier: GPL-2.0-only
/*
 * The discovery table's bounds (sdsi_disc.h).  A table comes from firmware
 * (or from whatever wrote the VSEC), so nothing it says is mapped or read
 * before it is known to fit: the table in its resource, the register file
 * in the region, the region in its BAR.
 */
#include "sdsi_disc.h"

#include <sdsi/bitfield.h>
#include <sdsi/hw.h>

void sdsi_disc_decode(struct sdsi_disc *d, const u32 *table)
{
	d->access = (u32)SDSI_FIELD_GET(SDSI_DISC_ACCESS_MASK, table[0]);
	d->size_dwords = (u32)SDSI_FIELD_GET(SDSI_DISC_SIZE_MASK <<
					     SDSI_DISC_SIZE_SHIFT, table[0]);
	d->tbir = (u32)SDSI_FIELD_GET(SDSI_DISC_TBIR_MASK, table[2]);
	d->offset = table[2] & SDSI_DISC_OFFSET_MASK;
}

u32 sdsi_disc_region_bytes(const struct sdsi_disc *d)
{
	return d->size_dwords * 4u;
}

enum sdsi_disc_fault sdsi_disc_check_resource(u64 len)
{
	return len < SDSI_DISC_TABLE_BYTES ? SDSI_DISC_SHORT_RESOURCE :
					     SDSI_DISC_OK;
}

enum sdsi_disc_fault sdsi_disc_check_table(const struct sdsi_disc *d,
					   unsigned int layout)
{
	if (sdsi_disc_region_bytes(d) < sdsi_layout_region_end(layout))
		return SDSI_DISC_SHORT_REGION;
	if (d->access == SDSI_DISC_ACCESS_BARID && d->tbir >= SDSI_PCI_BARS)
		return SDSI_DISC_BAR_INDEX;
	return SDSI_DISC_OK;
}

enum sdsi_disc_fault sdsi_disc_check_bar(const struct sdsi_disc *d,
					 bool is_mem, u64 bar_len)
{
	if (!is_mem)
		return SDSI_DISC_BAR_NOT_MEM;
	/* 64-bit sums: a 32-bit offset plus the size cannot wrap. */
	if ((u64)d->offset + sdsi_disc_region_bytes(d) > bar_len)
		return SDSI_DISC_BAR_OVERRUN;
	return SDSI_DISC_OK;
}
