// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct intel_vsec_device holds its resources in itself, a flexible array
 * counted by num_resources (7.x), where it used to point at them.
 */
#include <linux/build_bug.h>
#include <linux/intel_vsec.h>

static_assert(__same_type(((struct intel_vsec_device *)0)->resource,
			  struct resource[]),
	      "resource is a pointer");
