// SPDX-License-Identifier: GPL-2.0-only
/*
 * attribute_group's bin_attrs lists const attributes (7.x), so the
 * attributes themselves can be const.
 */
#include <linux/build_bug.h>
#include <linux/sysfs.h>

static_assert(__same_type(((struct attribute_group *)0)->bin_attrs,
			  const struct bin_attribute *const *),
	      "bin_attrs lists mutable attributes");
