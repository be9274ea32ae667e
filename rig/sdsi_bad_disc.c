// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_bad_disc: intel_vsec.sdsi.N devices whose discovery entry is wrong
 * in one way each, for the rig's test that a validating intel_sdsi refuses
 * them before it touches their region (rig/tests/test_bad_discovery.py).
 * No model plays them: the module writes each table itself, a page each
 * past sdsi_window's largest window (SDSI_WINDOW_BAD_OFFSET) in the same
 * reserved range, and no entry has a region worth reading.  Loaded by the
 * test beside sdsi_window and removed by it again, so that no other test
 * sees these devices.
 */
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "sdsi/hw.h"
#include "sdsi/window.h"
#include "sdsi/window_vsec.h"

/* Device numbers from here on: never one of sdsi_window's sockets. */
#define BAD_FIRST_ID	16u

static unsigned long phys = 0x10000000;
module_param(phys, ulong, 0444);
MODULE_PARM_DESC(phys, "Physical start of the memmap= reserved range (sdsi_window's)");

/*
 * The two BARID entries whose TBIR is in range need a PCI parent with a
 * real BAR: one that is no memory BAR (an I/O BAR) and a memory BAR too
 * short for the region at the entry's offset.  The test picks them from
 * /sys/bus/pci/devices; without them those two devices are not made.
 */
static char *io_dev = "";
module_param(io_dev, charp, 0444);
MODULE_PARM_DESC(io_dev, "PCI device (DDDD:BB:DD.F) with an I/O BAR");
static unsigned int io_bar;
module_param(io_bar, uint, 0444);
MODULE_PARM_DESC(io_bar, "Its I/O BAR");
static char *mem_dev = "";
module_param(mem_dev, charp, 0444);
MODULE_PARM_DESC(mem_dev, "PCI device (DDDD:BB:DD.F) with a memory BAR");
static unsigned int mem_bar;
module_param(mem_bar, uint, 0444);
MODULE_PARM_DESC(mem_bar, "Its memory BAR");

/*
 * One bad entry: its resource's length and its table's fields.  The order
 * is the test's: intel_vsec.sdsi.16 is the first (test_bad_discovery.py
 * names what each must be refused for).
 */
enum bad_parent {
	BAD_NO_PCI,
	BAD_IO_BAR,		/* io_dev, TBIR io_bar */
	BAD_MEM_BAR,		/* mem_dev, TBIR mem_bar, offset past its end */
};

struct bad_entry {
	enum bad_parent parent;
	u32 res_bytes;
	unsigned int layout;	/* 1 or 2: the GUID's */
	u32 access;
	u32 size_short;		/* bytes below sdsi_layout_region_end() */
	u32 tbir;
};

static const struct bad_entry bad_entries[] = {
	/* A resource a byte short of the table; the table itself is good. */
	{ BAD_NO_PCI, SDSI_DISC_TABLE_BYTES - 1, 2, SDSI_DISC_ACCESS_LOCAL, 0, 0 },
	/* Sizes a dword short of the register file's end. */
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 1, SDSI_DISC_ACCESS_LOCAL, 4, 0 },
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_LOCAL, 4, 0 },
	/* BAR indexes PCI does not have. */
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_BARID, 0, 6 },
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_BARID, 0, 7 },
	/* BARs of real PCI devices: an I/O BAR, a memory BAR too short. */
	{ BAD_IO_BAR, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_BARID, 0, 0 },
	{ BAD_MEM_BAR, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_BARID, 0, 0 },
	/* An access type intel_vsec never offers SDSi (1), well sized. */
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 2, 1, 0, 0 },
	/* A LOCAL entry naming a BAR: LOCAL means "after the table". */
	{ BAD_NO_PCI, SDSI_DISC_BYTES, 2, SDSI_DISC_ACCESS_LOCAL, 0, 1 },
};

static struct device *bad_root;
static struct intel_vsec_device *bad_devs[ARRAY_SIZE(bad_entries)];
static struct pci_dev *bad_io_pdev, *bad_mem_pdev;

/* The PCI device NAME (DDDD:BB:DD.F), held; NULL for "" or none. */
static struct pci_dev *bad_find_pci(const char *name)
{
	unsigned int domain, bus, slot, fn;

	if (sscanf(name, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return NULL;
	return pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(slot, fn));
}

/*
 * Entry N's PCI parent, TBIR and offset: for the memory BAR, the first
 * offset (a multiple of 8) at which the V2 region ends 8 bytes past the
 * BAR, so that only the length is wrong.
 */
static struct pci_dev *bad_parent(unsigned int n, u32 *tbir, u32 *offset)
{
	const struct bad_entry *e = &bad_entries[n];
	u64 len, end = sdsi_layout_region_end(2);

	*tbir = e->tbir;
	/* The offset of a LOCAL entry: where sdsi_window has its regions. */
	*offset = SDSI_WINDOW_MMIO_OFFSET - SDSI_DISC_BYTES;
	switch (e->parent) {
	case BAD_IO_BAR:
		*tbir = io_bar;
		*offset = 0;
		return bad_io_pdev;
	case BAD_MEM_BAR:
		*tbir = mem_bar;
		len = pci_resource_len(bad_mem_pdev, mem_bar);
		*offset = len >= end ? (u32)(len - end + 8) : 0;
		return bad_mem_pdev;
	default:
		return NULL;
	}
}

static phys_addr_t bad_table_phys(unsigned int n)
{
	return phys + SDSI_WINDOW_BAD_OFFSET + (phys_addr_t)n * PAGE_SIZE;
}

/* Write entry N's table where its resource starts. */
static int bad_write_table(unsigned int n, u32 tbir, u32 offset)
{
	const struct bad_entry *e = &bad_entries[n];
	void __iomem *table;
	u32 size;

	table = ioremap(bad_table_phys(n), PAGE_SIZE);
	if (!table)
		return -ENOMEM;
	size = sdsi_layout_region_end(e->layout) - e->size_short;
	writel(e->access | SDSI_DISC_TYPE << SDSI_DISC_TYPE_SHIFT |
	       (size / 4) << SDSI_DISC_SIZE_SHIFT, table);
	writel(e->layout == 2 ? SDSI_GUID_V2 : SDSI_GUID_V1, table + 4);
	writel(tbir | offset, table + 8);
	writel(0, table + 12);
	iounmap(table);
	return 0;
}

static void bad_dev_release(struct device *dev)
{
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	kfree(container_of(auxdev, struct intel_vsec_device, auxdev));
}

static int bad_add(unsigned int n)
{
	struct resource disc = {
		.start = bad_table_phys(n),
		.flags = IORESOURCE_MEM,
	};
	struct intel_vsec_device *vsec;
	struct pci_dev *pdev;
	u32 tbir, offset;
	int ret;

	pdev = bad_parent(n, &tbir, &offset);
	if (bad_entries[n].parent != BAD_NO_PCI && !pdev)
		return 0;
	ret = bad_write_table(n, tbir, offset);
	if (ret)
		return ret;
	disc.end = disc.start + bad_entries[n].res_bytes - 1;
	vsec = sdsi_window_vsec_alloc(&disc);
	if (!vsec)
		return -ENOMEM;
	sdsi_window_vsec_set_pci(vsec, pdev);
	ret = sdsi_window_vsec_add(vsec, BAD_FIRST_ID + n, bad_root,
				   bad_dev_release);
	if (ret)
		return ret;
	bad_devs[n] = vsec;
	return 0;
}

static void bad_remove_all(void)
{
	unsigned int n;

	for (n = 0; n < ARRAY_SIZE(bad_devs); n++) {
		if (!bad_devs[n])
			continue;
		auxiliary_device_delete(&bad_devs[n]->auxdev);
		auxiliary_device_uninit(&bad_devs[n]->auxdev);
		bad_devs[n] = NULL;
	}
}

static int __init sdsi_bad_disc_init(void)
{
	phys_addr_t end = bad_table_phys(ARRAY_SIZE(bad_entries));
	unsigned int n;
	int ret;

	if (!PAGE_ALIGNED(phys) ||
	    region_intersects(phys, end - phys, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("sdsi_bad_disc: %#lx+%#llx is not a page-aligned memmap= range\n",
		       phys, (unsigned long long)(end - phys));
		return -EINVAL;
	}
	bad_io_pdev = bad_find_pci(io_dev);
	bad_mem_pdev = bad_find_pci(mem_dev);
	if ((bad_io_pdev && (io_bar >= PCI_STD_NUM_BARS ||
			     !(pci_resource_flags(bad_io_pdev, io_bar) & IORESOURCE_IO))) ||
	    (bad_mem_pdev && (mem_bar >= PCI_STD_NUM_BARS ||
			      !(pci_resource_flags(bad_mem_pdev, mem_bar) & IORESOURCE_MEM)))) {
		pr_err("sdsi_bad_disc: io_dev=%s io_bar=%u mem_dev=%s mem_bar=%u: not an I/O and a memory BAR\n",
		       io_dev, io_bar, mem_dev, mem_bar);
		ret = -EINVAL;
		goto err_pci;
	}
	bad_root = root_device_register("sdsi_bad_disc");
	if (IS_ERR(bad_root)) {
		ret = PTR_ERR(bad_root);
		goto err_pci;
	}
	for (n = 0; n < ARRAY_SIZE(bad_entries); n++) {
		ret = bad_add(n);
		if (ret)
			goto err_devs;
	}
	return 0;

err_devs:
	bad_remove_all();
	root_device_unregister(bad_root);
err_pci:
	pci_dev_put(bad_mem_pdev);
	pci_dev_put(bad_io_pdev);
	return ret;
}

static void __exit sdsi_bad_disc_exit(void)
{
	bad_remove_all();
	root_device_unregister(bad_root);
	pci_dev_put(bad_mem_pdev);
	pci_dev_put(bad_io_pdev);
}

module_init(sdsi_bad_disc_init);
module_exit(sdsi_bad_disc_exit);
MODULE_DESCRIPTION("intel_vsec.sdsi devices with bad discovery entries, for testing intel_sdsi");
MODULE_LICENSE("GPL");
