/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the rig's modules (sdsi_window, sdsi_bad_disc) make and register
 * a struct intel_vsec_device (vsec_device.h) with a single resource, the
 * discovery table, as intel_vsec would.  Later
 * kernels (7.x) hold the resources in the device itself, a flexible array
 * counted by num_resources (SDSI_HAVE_VSEC_RESOURCE_ARRAY, which rig/Kbuild
 * defines); before, the device pointed at them.  Kernel code only, not
 * installed, and not part of intel_sdsi, which allocates no such device.
 */
#ifndef SDSI_WINDOW_VSEC_H
#define SDSI_WINDOW_VSEC_H

#include <linux/auxiliary_bus.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "vsec_device.h"

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

/*
 * Name PDEV as the device's PCI parent, where intel_sdsi looks for the BAR
 * of a BARID entry: a pcidev pointer before 7.x, the struct device after.
 * No PDEV leaves the device without one (&pdev->dev of NULL is not NULL).
 */
static inline void sdsi_window_vsec_set_pci(struct intel_vsec_device *vsec,
					    struct pci_dev *pdev)
{
	if (!pdev)
		return;
#if !defined(SDSI_HAVE_INTEL_VSEC_H) || defined(SDSI_HAVE_VSEC_PCIDEV)
	vsec->pcidev = pdev;
#else
	vsec->dev = &pdev->dev;
#endif
}

/*
 * Register VSEC (from sdsi_window_vsec_alloc()) as intel_vsec.sdsi.ID under
 * PARENT, the name intel_vsec gives its devices.  On failure the device is
 * gone: freed directly if init failed, through RELEASE if the add did.
 */
static inline int sdsi_window_vsec_add(struct intel_vsec_device *vsec, u32 id,
				       struct device *parent,
				       void (*release)(struct device *dev))
{
	struct auxiliary_device *auxdev = &vsec->auxdev;
	int ret;

	auxdev->name = "sdsi";
	auxdev->id = id;
	auxdev->dev.parent = parent;
	auxdev->dev.release = release;
	ret = auxiliary_device_init(auxdev);
	if (ret) {
		kfree(vsec);
		return ret;
	}
	ret = __auxiliary_device_add(auxdev, "intel_vsec");
	if (ret)
		auxiliary_device_uninit(auxdev);
	return ret;
}

#endif /* SDSI_WINDOW_VSEC_H */
