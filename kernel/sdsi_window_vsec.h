/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct intel_vsec_device as the running kernel's intel_sdsi reads it.
 * From 6.8 on, the kernel exports it in <linux/intel_vsec.h>; before that
 * it lived in a header private to drivers/platform/x86/intel, which no
 * headers package ships.  The early intel_sdsi driver reads only the
 * leading auxiliary device, the PCI device (unused for LOCAL access) and
 * the resource array, so for those kernels those three members suffice;
 * their order is the one both generations share.
 */
#ifndef SDSI_WINDOW_VSEC_H
#define SDSI_WINDOW_VSEC_H

#include <linux/auxiliary_bus.h>
#include <linux/ioport.h>

#ifdef SDSI_HAVE_INTEL_VSEC_H
#include <linux/intel_vsec.h>

static inline void sdsi_window_vsec_set_count(struct intel_vsec_device *v,
					      int count)
{
	v->num_resources = count;
}
#else
struct pci_dev;

struct intel_vsec_device {
	struct auxiliary_device auxdev;
	struct pci_dev *pcidev;
	struct resource *resource;
};

static inline void sdsi_window_vsec_set_count(struct intel_vsec_device *v,
					      int count)
{
}
#endif

#endif /* SDSI_WINDOW_VSEC_H */
