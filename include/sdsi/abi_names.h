/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The name of each generation of abi.h, as sdsi-emu --abi takes it and the
 * layout tests print it.  User space only: the kernel module, which plays
 * the current generation alone, has no use for the names.
 */
#ifndef SDSI_ABI_NAMES_H
#define SDSI_ABI_NAMES_H

#include "sdsi/abi.h"

/* X(generation, name) */
#define SDSI_ABI_TABLE(X) \
	X(SDSI_ABI_CURRENT, "current") \
	X(SDSI_ABI_EARLY, "early")

#endif /* SDSI_ABI_NAMES_H */
