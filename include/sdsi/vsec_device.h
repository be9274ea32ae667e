/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct intel_vsec_device as the running kernel's intel_sdsi reads it.
 * From 6.8 on, the kernel exports it in <linux/intel_vsec.h>; before that
 * it lived in a header private to drivers/platform/x86/intel, which no
 * headers package ships.  The early intel_sdsi driver reads only the
 * leading auxiliary device, the PCI device (unused for LOCAL access) and
 * the resource array, so for those kernels those three members suffice;
 * their order is the one both generations share.  SDSI_HAVE_INTEL_VSEC_H
 * comes from the build: rig/Kbuild defines it for the rig's sdsi_window,
 * and for intel_sdsi the compile probes of drivers/kernel/kcompat.sh do,
 * in sdsi_kcompat.h.  Kernel code only, not installed: intel_sdsi
 * (drivers/kernel/sdsi_aux.c) reads such a device, and window_vsec.h,
 * which the rig's sdsi_window includes, also makes one.
 */
#ifndef SDSI_VSEC_DEVICE_H
#define SDSI_VSEC_DEVICE_H

#include <linux/auxiliary_bus.h>
#include <linux/ioport.h>

#ifdef SDSI_HAVE_INTEL_VSEC_H
#include <linux/intel_vsec.h>
#else
struct pci_dev;

struct intel_vsec_device {
	struct auxiliary_device auxdev;
	struct pci_dev *pcidev;
	struct resource *resource;
};
#endif

#endif /* SDSI_VSEC_DEVICE_H */
