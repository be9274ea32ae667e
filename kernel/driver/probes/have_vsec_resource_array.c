// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct intel_vsec_device holds its resources in itself, a flexible array
 * counted by num_resources (7.x), where it used to point at them.
 */
#include <linux/intel_vsec.h>

_Static_assert(__builtin_types_compatible_p(typeof(((struct intel_vsec_device *)0)->resource),
					    struct resource[]),
	       "resource is a pointer");
