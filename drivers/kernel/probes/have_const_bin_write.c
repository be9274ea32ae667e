// SPDX-License-Identifier: GPL-2.0-only
/* bin_attribute's write callback takes a const attribute (7.x). */
#include <linux/build_bug.h>
#include <linux/sysfs.h>

static_assert(__same_type(((struct bin_attribute *)0)->write,
			  ssize_t (*)(struct file *, struct kobject *,
				      const struct bin_attribute *, char *,
				      loff_t, size_t)),
	      "write takes a mutable attribute");
