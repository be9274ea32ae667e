// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct intel_vsec_device names its parent as a struct device (7.x, where
 * a VSEC may also be found through ACPI), where it used to hold the
 * struct pci_dev (pcidev).
 */
#include <linux/intel_vsec.h>

struct device *sdsi_probe_dev(struct intel_vsec_device *v);

struct device *sdsi_probe_dev(struct intel_vsec_device *v)
{
	return v->dev;
}
