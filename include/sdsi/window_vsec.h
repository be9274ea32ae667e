/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct intel_vsec_device as the running kernel's intel_sdsi reads it, and
 * how to make one with a single resource (the discovery table).
 * From 6.8 on, the kernel exports it in <linux/intel_vsec.h>; before that
 * it lived in a header private to drivers/platform/x86/intel, which no
 * headers package ships.  The early intel_sdsi driver reads only the
 * leading auxiliary device, the PCI device (unused for LOCAL access) and
 * the resource array, so for those kernels those three members suffice;
 * their order is the one both generations share.  Later kernels (7.x)
 * hold the resources in the device itself, a flexible array counted by
 * num_resources (SDSI_HAVE_VSEC_RESOURCE_ARRAY); before, the device pointed
 * at them.  Both SDSI_HAVE_ macros come from the build: rig/Kbuild
 * defines them for the rig's sdsi_window, and for intel_sdsi the compile
 * probes of drivers/kernel/kcompat.sh do, in sdsi_kcompat.h.
 * Kernel code only: the two modules that make or read such a device
 * include it (drivers/kernel/sdsi_aux.c, rig/sdsi_window.c); it is not
 * installed.
 */
#ifndef SDSI_WINDOW_VSEC_H
#define SDSI_WINDOW_VSEC_H

#include <linux/auxiliary_bus.h>
#include <linux/ioport.h>
#include <linux/overflow.h>
#include <linux/slab.h>

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

/*
 * A zeroed device whose one resource is a copy of RES; the device is the
 * start of the allocation, so kfree() of it frees everything.
 */
static inline struct intel_vsec_device *
sdsi_window_vsec_alloc(const struct resource *res)
{
#ifdef SDSI_HAVE_VSEC_RESOURCE_ARRAY
	struct intel_vsec_device *v;

	v = kzalloc(struct_size(v, resource, 1), GFP_KERNEL);
	if (!v)
		return NULL;
	/* The count first: the array is __counted_by it. */
	v->num_resources = 1;
	v->resource[0] = *res;
	return v;
#else
	struct {
		struct intel_vsec_device vsec;	/* first: freed through it */
		struct resource res;
	} *w;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return NULL;
	w->res = *res;
	w->vsec.resource = &w->res;
#ifdef SDSI_HAVE_INTEL_VSEC_H
	w->vsec.num_resources = 1;
#endif
	return &w->vsec;
#endif
}

#endif /* SDSI_WINDOW_VSEC_H */
