/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A device's registers, read and decoded as every command that needs more
 * than their raw bytes does: by the GUID the device was opened with, so
 * that the layout is the device's own (V1 or V2), never a guess.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_DEVICE_REGISTERS_H
#define SDSI_TOOLS_INTEL_SDSI_DEVICE_REGISTERS_H

#include <stddef.h>

#include "sdsi/libsdsi.h"

/*
 * Read dev's registers attribute and decode it into *regs; *raw_len, if
 * not NULL, gets the attribute's size in bytes.  0, or -errno with err
 * filled (the read's error, or the decoder's for a malformed attribute).
 */
int read_device_registers(const struct sdsi_device *dev, struct sdsi_registers *regs,
			  size_t *raw_len, struct sdsi_error *err);

#endif /* SDSI_TOOLS_INTEL_SDSI_DEVICE_REGISTERS_H */
