/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generation of the Linux intel_sdsi driver whose sysfs ABI and mailbox
 * habits are played (docs/interface.md section 9.1).  Plain integer
 * constants: the driver core includes it in the kernel module too.  The
 * name of each, as sdsi-emu --abi takes it, is in abi_names.h.
 */
#ifndef SDSI_ABI_H
#define SDSI_ABI_H

enum sdsi_abi {
	SDSI_ABI_CURRENT = 0,	/* Linux 6.2+: MSG_SIZE on writes, IB lock checked */
	SDSI_ABI_EARLY = 1,	/* Linux 5.18-6.1: MSG_SIZE left 0, no IB lock check */
};

#endif /* SDSI_ABI_H */
