/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver core: the discovery table's fields and the bounds a driver checks
 * before it maps or reads anything they point at (docs/interface.md §2.1).
 * Pure arithmetic on decoded fields and lengths, so that every bound is
 * unit tested in user space and the kernel module runs the same code; the
 * module maps, reads and logs, this file only judges.
 */
#ifndef SDSI_DRIVERS_CORE_DISC_H
#define SDSI_DRIVERS_CORE_DISC_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>

#include <sdsi/ktypes.h>
#endif

/* PCI's standard BARs, 0-5 (the kernel's PCI_STD_NUM_BARS). */
#define SDSI_PCI_BARS		6u

/* The discovery table's fields, decoded (include/sdsi/hw.h). */
struct sdsi_disc {
	u32 access;		/* SDSI_DISC_ACCESS_LOCAL or _BARID */
	u32 size_dwords;	/* the MMIO region's size */
	u32 tbir;		/* BAR index, for BARID */
	u32 offset;		/* bytes, in the BAR or past the table */
};

/* What a check found; the first fault in the order below wins. */
enum sdsi_disc_fault {
	SDSI_DISC_OK,
	SDSI_DISC_SHORT_RESOURCE,	/* the resource cannot hold the table */
	SDSI_DISC_SHORT_REGION,		/* size ends before the register file */
	SDSI_DISC_BAR_INDEX,		/* BARID: TBIR names no standard BAR */
	SDSI_DISC_BAR_NOT_MEM,		/* BARID: the BAR is no memory BAR */
	SDSI_DISC_BAR_OVERRUN,		/* BARID: offset + size past the BAR */
};

/* Decode the SDSI_DISC_DWORDS dwords of a table. */
void sdsi_disc_decode(struct sdsi_disc *d, const u32 *table);

/* The region's size in bytes (at most 256 KiB: the field is 16 bits). */
u32 sdsi_disc_region_bytes(const struct sdsi_disc *d);

/*
 * The discovery resource's length (bytes), before it is mapped: it must
 * hold SDSI_DISC_TABLE_BYTES.  SDSI_DISC_OK or SDSI_DISC_SHORT_RESOURCE.
 */
enum sdsi_disc_fault sdsi_disc_check_resource(u64 len);

/*
 * The table's own fields for the GUID's layout (1 or 2), before any MMIO
 * of the region: the size must reach sdsi_layout_region_end(), and a BARID
 * entry's TBIR must name BAR 0-5.  SDSI_DISC_OK, SDSI_DISC_SHORT_REGION or
 * SDSI_DISC_BAR_INDEX.
 */
enum sdsi_disc_fault sdsi_disc_check_table(const struct sdsi_disc *d,
					   unsigned int layout);

/*
 * A BARID entry against the BAR it names: a memory BAR (is_mem) of
 * bar_len bytes that holds the whole region at the table's offset.
 * SDSI_DISC_OK, SDSI_DISC_BAR_NOT_MEM or SDSI_DISC_BAR_OVERRUN.
 */
enum sdsi_disc_fault sdsi_disc_check_bar(const struct sdsi_disc *d,
					 bool is_mem, u64 bar_len);

#endif /* SDSI_DRIVERS_CORE_DISC_H */
