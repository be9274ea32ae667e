// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_window: On Demand devices for Linux's intel_sdsi driver, backed by
 * memory that a user-space process plays as the hardware (sdsi-shmem).
 *
 * The memory is a physical range the kernel was told to leave alone with
 * memmap=SIZE$ADDR, laid out as sdsi/window.h says: socket N takes
 * SDSI_WINDOW_SLOT_SIZE bytes of it, the discovery table at the start and
 * the MMIO region further on (access type LOCAL: the driver computes the
 * MMIO base from the table's end plus the table's offset field); a control
 * page follows the last slot.  Each socket becomes an auxiliary device named
 * intel_vsec.sdsi.N, as intel_vsec would create it.  /dev/sdsi_window maps
 * the whole range, because with CONFIG_IO_STRICT_DEVMEM /dev/mem cannot
 * reach a range a driver has claimed.
 *
 * With barid=K the sockets are access type BARID instead (sdsi-shmem
 * --barid K writes their tables): the rig has no PCI device whose BAR
 * covers the window, so the module lends the window to an unused standard
 * BAR slot K of the guest's host bridge (0000:00:00.0, which has no BARs
 * and no driver that reads them), makes that bridge every device's PCI
 * parent, and gives the slot back on unload.  The driver then finds each
 * region at pci_resource_start(bridge, K) + the table's offset, its real
 * BARID path; only the BAR itself is the rig's stand-in.
 */
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/ioport.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "sdsi/hw.h"
#include "sdsi/window.h"
#include "sdsi/window_vsec.h"

static unsigned long phys = 0x10000000;
module_param(phys, ulong, 0444);
MODULE_PARM_DESC(phys, "Physical start of the memmap= reserved range");

static unsigned int sockets = 1;
module_param(sockets, uint, 0444);
MODULE_PARM_DESC(sockets, "Number of intel_vsec.sdsi.N devices (1-8)");

static int barid = -1;
module_param(barid, int, 0444);
MODULE_PARM_DESC(barid, "Lend the window to BAR K (0-5) of 0000:00:00.0 for access type BARID; -1 (default): LOCAL");

static struct device *window_root;
/* barid=K: the host bridge, held, and its BAR slot K as it was. */
static struct pci_dev *window_bridge;
static struct resource window_bar_saved;
static struct intel_vsec_device *window_devs[SDSI_WINDOW_MAX_SOCKETS];

/* The sockets' slots, then sdsi-shmem's control page (window/ctlpage.h). */
static size_t window_bytes(void)
{
	return (size_t)sockets * SDSI_WINDOW_SLOT_SIZE + SDSI_CTLPAGE_SIZE;
}

static int window_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long off = vma->vm_pgoff << PAGE_SHIFT;

	if (off >= window_bytes() || len > window_bytes() - off)
		return -EINVAL;
	/* Uncached, like the driver's ioremap of the same pages. */
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	return remap_pfn_range(vma, vma->vm_start,
			       (phys >> PAGE_SHIFT) + vma->vm_pgoff, len,
			       vma->vm_page_prot);
}

static const struct file_operations window_fops = {
	.owner = THIS_MODULE,
	.mmap = window_mmap,
};

static struct miscdevice window_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "sdsi_window",
	.fops = &window_fops,
	.mode = 0600,
};

static void window_dev_release(struct device *dev)
{
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	kfree(container_of(auxdev, struct intel_vsec_device, auxdev));
}

static int window_add_socket(unsigned int n)
{
	struct intel_vsec_device *vsec;
	struct resource disc = {
		.start = phys + (resource_size_t)n * SDSI_WINDOW_SLOT_SIZE,
		.flags = IORESOURCE_MEM,
	};
	int ret;

	disc.end = disc.start + SDSI_DISC_BYTES - 1;
	vsec = sdsi_window_vsec_alloc(&disc);
	if (!vsec)
		return -ENOMEM;
	sdsi_window_vsec_set_pci(vsec, window_bridge);
	ret = sdsi_window_vsec_add(vsec, n, window_root, window_dev_release);
	if (ret)
		return ret;
	window_devs[n] = vsec;
	return 0;
}

static void window_remove_sockets(void)
{
	unsigned int n;

	for (n = 0; n < SDSI_WINDOW_MAX_SOCKETS; n++) {
		if (!window_devs[n])
			continue;
		auxiliary_device_delete(&window_devs[n]->auxdev);
		auxiliary_device_uninit(&window_devs[n]->auxdev);
		window_devs[n] = NULL;
	}
}

/*
 * barid=K: BAR slot K of the host bridge becomes the window, a memory BAR
 * from phys; refused if the slot holds anything already.
 */
static int window_lend_bar(void)
{
	struct resource *bar;

	if (barid < 0)
		return 0;
	if (barid >= PCI_STD_NUM_BARS) {
		pr_err("sdsi_window: barid=%d: a standard BAR is 0-%d\n",
		       barid, PCI_STD_NUM_BARS - 1);
		return -EINVAL;
	}
	window_bridge = pci_get_domain_bus_and_slot(0, 0, PCI_DEVFN(0, 0));
	if (!window_bridge) {
		pr_err("sdsi_window: barid=%d: no PCI device 0000:00:00.0 to lend a BAR\n",
		       barid);
		return -ENODEV;
	}
	bar = &window_bridge->resource[barid];
	if (bar->flags || bar->start || bar->end || bar->parent) {
		pr_err("sdsi_window: barid=%d: BAR %d of 0000:00:00.0 is in use (%pR)\n",
		       barid, barid, bar);
		pci_dev_put(window_bridge);
		window_bridge = NULL;
		return -EBUSY;
	}
	window_bar_saved = *bar;
	bar->start = phys;
	bar->end = phys + window_bytes() - 1;
	bar->flags = IORESOURCE_MEM;
	pr_info("sdsi_window: BAR %d of 0000:00:00.0 lent: %pR\n", barid, bar);
	return 0;
}

static void window_return_bar(void)
{
	if (!window_bridge)
		return;
	window_bridge->resource[barid] = window_bar_saved;
	pci_dev_put(window_bridge);
	window_bridge = NULL;
}

static int __init sdsi_window_init(void)
{
	unsigned int n;
	int ret;

	if (!sockets || sockets > SDSI_WINDOW_MAX_SOCKETS || !PAGE_ALIGNED(phys)) {
		pr_err("sdsi_window: sockets=%u phys=%#lx: need 1-%u sockets and a page-aligned range\n",
		       sockets, phys, SDSI_WINDOW_MAX_SOCKETS);
		return -EINVAL;
	}
	/* RAM cannot be ioremapped by the driver: insist on memmap=. */
	if (region_intersects(phys, window_bytes(), IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("sdsi_window: %#lx+%#zx is system RAM; boot with memmap=SIZE$ADDR\n",
		       phys, window_bytes());
		return -EINVAL;
	}
	ret = window_lend_bar();
	if (ret)
		return ret;
	window_root = root_device_register("sdsi_window");
	if (IS_ERR(window_root)) {
		window_return_bar();
		return PTR_ERR(window_root);
	}
	ret = misc_register(&window_misc);
	if (ret)
		goto err_root;
	for (n = 0; n < sockets; n++) {
		ret = window_add_socket(n);
		if (ret)
			goto err_sockets;
	}
	return 0;

err_sockets:
	window_remove_sockets();
	misc_deregister(&window_misc);
err_root:
	root_device_unregister(window_root);
	window_return_bar();
	return ret;
}

static void __exit sdsi_window_exit(void)
{
	window_remove_sockets();
	misc_deregister(&window_misc);
	root_device_unregister(window_root);
	window_return_bar();
}

module_init(sdsi_window_init);
module_exit(sdsi_window_exit);
MODULE_DESCRIPTION("On Demand devices in reserved memory, for testing intel_sdsi");
MODULE_LICENSE("GPL");
