// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control probe: nothing but a header every kernel has.  If this fails
 * the compiler or the headers are broken, and every other probe's failure
 * would mean nothing, so kcompat.sh stops instead of guessing.
 */
#include <linux/module.h>

int sdsi_probe_sanity(void);

int sdsi_probe_sanity(void)
{
	return 0;
}
