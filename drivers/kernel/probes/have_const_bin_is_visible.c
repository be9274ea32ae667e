// SPDX-License-Identifier: GPL-2.0-only
/*
 * attribute_group's is_bin_visible takes a const attribute (6.13 on, before
 * read and write did).
 */
#include <linux/build_bug.h>
#include <linux/sysfs.h>

static_assert(__same_type(((struct attribute_group *)0)->is_bin_visible,
			  umode_t (*)(struct kobject *,
				      const struct bin_attribute *, int)),
	      "is_bin_visible takes a mutable attribute");
