// SPDX-License-Identifier: GPL-2.0-only
/*
 * <linux/intel_vsec.h> exports struct intel_vsec_device (6.8 on); before,
 * the structure lived in a header private to drivers/platform/x86/intel.
 */
#include <linux/intel_vsec.h>

struct resource *sdsi_probe_res(struct intel_vsec_device *v);

struct resource *sdsi_probe_res(struct intel_vsec_device *v)
{
	return &v->resource[0];
}
