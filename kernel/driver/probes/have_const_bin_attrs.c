// SPDX-License-Identifier: GPL-2.0-only
/*
 * attribute_group's bin_attrs lists const attributes (7.x), so the
 * attributes themselves can be const.
 */
#include <linux/sysfs.h>

_Static_assert(__builtin_types_compatible_p(typeof(((struct attribute_group *)0)->bin_attrs),
					    const struct bin_attribute *const *),
	       "bin_attrs lists mutable attributes");
