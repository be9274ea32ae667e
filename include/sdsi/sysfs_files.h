/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files of an On Demand device's sysfs directory
 * (/sys/bus/auxiliary/devices/intel_vsec.sdsi.N/, docs/interface.md
 * sections 9.1 and 9.2), described once: name, mode, st_size, the mailbox
 * command behind it, the ENABLED_FEATURES bits that show it, and what the
 * early driver had instead.  The kernel module builds its attributes from
 * the table, the FUSE driver its tree, libsdsi and the blob kinds take the
 * names from it, and sdsi_sysfs_file_mode() is the one visibility rule, as
 * Linux's sdsi.c has one attribute list and one is_visible.
 *
 * Like hw.h it is compiled into the kernel module too: integer constants,
 * string literals and static inline functions, no libc.
 */
#ifndef SDSI_SYSFS_FILES_H
#define SDSI_SYSFS_FILES_H

#include "sdsi/abi.h"
#include "sdsi/hw.h"

/*
 * X(file, name, mode, st_size, command, ctrl, needs, early_size), in the
 * order a device directory lists them.
 *   name	the file's name, a bare token (the kernel pastes it)
 *   command	mailbox command a read or write of it runs; 0: none
 *   ctrl	control bits the command takes besides it (meter_current)
 *   needs	ENABLED_FEATURES bits, all set at probe, that show it
 *   early_size	st_size under the early driver, which shows it whatever
 *		the features; 0: the early driver has no such file
 * guid is a text attribute: its st_size is the page sysfs gives it.  Reads
 * of registers are clamped to the layout's register file (hw.h).
 */
#define SDSI_SYSFS_FILE_TABLE(X) \
	X(SDSI_FILE_GUID, guid, 0444, 4096, 0, 0, 0, 4096) \
	X(SDSI_FILE_REGISTERS, registers, 0400, SDSI_REGS_SIZE_V2, 0, 0, 0, \
	  SDSI_REGS_SIZE_V1) \
	X(SDSI_FILE_STATE_CERT, state_certificate, 0400, SDSI_READ_MSG_MAX, \
	  SDSI_CMD_READ_STATE, 0, SDSI_FEATURE_ON_DEMAND, SDSI_READ_MSG_MAX) \
	X(SDSI_FILE_METER_CERT, meter_certificate, 0400, SDSI_READ_MSG_MAX, \
	  SDSI_CMD_READ_METER, 0, \
	  SDSI_FEATURE_ON_DEMAND | SDSI_FEATURE_METERING, 0) \
	X(SDSI_FILE_METER_CURRENT, meter_current, 0400, SDSI_READ_MSG_MAX, \
	  SDSI_CMD_READ_METER, SDSI_CTRL_METER_CURRENT, \
	  SDSI_FEATURE_ON_DEMAND | SDSI_FEATURE_METERING, 0) \
	X(SDSI_FILE_PROVISION_AKC, provision_akc, 0200, SDSI_MBOX_SIZE, \
	  SDSI_CMD_PROVISION_AKC, 0, SDSI_FEATURE_ON_DEMAND, SDSI_MBOX_SIZE) \
	X(SDSI_FILE_PROVISION_CAP, provision_cap, 0200, SDSI_MBOX_SIZE, \
	  SDSI_CMD_PROVISION_CAP, 0, SDSI_FEATURE_ON_DEMAND, SDSI_MBOX_SIZE)

#define SDSI_SYSFS_FILE_ENUM_(file, ...) file,
enum sdsi_sysfs_file {
	SDSI_SYSFS_FILE_TABLE(SDSI_SYSFS_FILE_ENUM_)
	SDSI_FILE_COUNT
};

#undef SDSI_SYSFS_FILE_ENUM_

struct sdsi_sysfs_file_desc {
	const char *name;
	unsigned int mode;
	unsigned int size;
	unsigned long long command;
	unsigned long long ctrl;
	unsigned long long needs;
	unsigned int early_size;
};

/* The row of file; a value outside the enum gets guid's, never a crash. */
static inline const struct sdsi_sysfs_file_desc *
sdsi_sysfs_file(enum sdsi_sysfs_file file)
{
#define SDSI_SYSFS_FILE_DESC_(file, name, mode, size, command, ctrl, needs, \
			      early_size) \
	[file] = { #name, mode, size, command, ctrl, needs, early_size },
	static const struct sdsi_sysfs_file_desc files[] = {
		SDSI_SYSFS_FILE_TABLE(SDSI_SYSFS_FILE_DESC_)
	};
#undef SDSI_SYSFS_FILE_DESC_
	unsigned int i = (unsigned int)file;

	return &files[i < SDSI_FILE_COUNT ? i : SDSI_FILE_GUID];
}

/* "guid", "registers", ... */
static inline const char *sdsi_sysfs_file_name(enum sdsi_sysfs_file file)
{
	return sdsi_sysfs_file(file)->name;
}

/*
 * The visibility rule: the mode file shows with the features the driver
 * sampled at probe, 0 while it is hidden.  The current driver hides a file
 * until every bit it needs is set; the early one shows its files always
 * and never had the meter files.
 */
static inline unsigned int sdsi_sysfs_file_mode(enum sdsi_sysfs_file file,
						unsigned long long features,
						enum sdsi_abi abi)
{
	const struct sdsi_sysfs_file_desc *d = sdsi_sysfs_file(file);

	if (abi == SDSI_ABI_EARLY)
		return d->early_size ? d->mode : 0;
	return (features & d->needs) == d->needs ? d->mode : 0;
}

/* st_size under abi (the early driver's registers file is the V1 one). */
static inline unsigned int sdsi_sysfs_file_size(enum sdsi_sysfs_file file,
						enum sdsi_abi abi)
{
	const struct sdsi_sysfs_file_desc *d = sdsi_sysfs_file(file);

	return abi == SDSI_ABI_EARLY && d->early_size ? d->early_size : d->size;
}

#endif /* SDSI_SYSFS_FILES_H */
