// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_sdsi built from sdsi's own driver core: the auxiliary driver for the
 * intel_vsec.sdsi.N devices with the current (Linux 6.12-level) sysfs ABI of
 * docs/interface.md §9.2, on any kernel it builds for.  Everything the
 * mailbox does is drivers/core/sdsi_mbox.c, compiled here unchanged; this file only
 * finds the MMIO region, serialises transactions with a mutex per device
 * and turns the core's answers into sysfs files and, where ENABLED_FEATURES
 * has bit 12, into the attestation transport /dev/isdsiN
 * (docs/interface.md §2.10).
 */
#include <linux/auxiliary_bus.h>
#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#include "sdsi_kcompat.h"
#include "sdsi/hw.h"
#include "sdsi/spdm_ioctl.h"
#include "sdsi/sysfs_files.h"
#include "sdsi/vsec_device.h"
#include "sdsi_disc.h"
#include "sdsi_mbox.h"

/*
 * The binary attributes' callbacks did not turn const at once: the group's
 * is_bin_visible did in 6.13, read, write and the group's list only later.
 * Each is its own probe (kcompat.sh, probes/), so every kernel in between
 * gets the signature it declares.
 */
#ifdef SDSI_HAVE_CONST_BIN_READ
#define SDSI_READ_CONST const
#else
#define SDSI_READ_CONST
#endif
#ifdef SDSI_HAVE_CONST_BIN_WRITE
#define SDSI_WRITE_CONST const
#else
#define SDSI_WRITE_CONST
#endif
#ifdef SDSI_HAVE_CONST_BIN_IS_VISIBLE
#define SDSI_VISIBLE_CONST const
#else
#define SDSI_VISIBLE_CONST
#endif
#ifdef SDSI_HAVE_CONST_BIN_ATTRS
#define SDSI_ATTRS_CONST const
#else
#define SDSI_ATTRS_CONST
#endif

/* The core's count of BARs is PCI's. */
static_assert(SDSI_PCI_BARS == PCI_STD_NUM_BARS);

/* The ioctl ABI's limits are the mailbox's own. */
static_assert(SDSI_SPDM_REQUEST_MAX == SDSI_ATTEST_REQUEST_MAX);
static_assert(SDSI_SPDM_RESPONSE_MAX == SDSI_ATTEST_RESPONSE_MAX);
static_assert(SDSI_SPDM_MESSAGE_MAX >= SDSI_READ_MSG_MAX);

/*
 * An open /dev/isdsiN outlives an unbind: the misc device goes, the file
 * stays open.  So the structure is counted (the binding holds one
 * reference, each open file one), and gone, set under the lock when the
 * binding ends, keeps a late ioctl away from the unmapped registers.
 */
struct sdsi_dev {
	struct device *dev;
	void __iomem *mmio;
	struct mutex lock;	/* one mailbox transaction at a time; gone */
	struct sdsi_mbox mb;
	u64 features;		/* ENABLED_FEATURES at probe: file visibility */
	u32 id;			/* the auxiliary device's: N of /dev/isdsiN */
	bool gone;		/* unbound: the registers are no longer ours */
	struct kref ref;
	struct miscdevice misc;
	char misc_name[16];	/* "isdsiN" */
};

static u64 sdsi_read64(void *ctx, u32 offset)
{
	struct sdsi_dev *sd = ctx;

	return readq(sd->mmio + offset);
}

static void sdsi_write64(void *ctx, u32 offset, u64 value)
{
	struct sdsi_dev *sd = ctx;

	writeq(value, sd->mmio + offset);
}

/* The core's diagnostics, at the level upstream prints each. */
static void sdsi_log(void *ctx, enum sdsi_mbox_level level, const char *msg)
{
	struct sdsi_dev *sd = ctx;

	if (level == SDSI_MBOX_ERR)
		dev_err(sd->dev, "%s\n", msg);
	else
		dev_warn(sd->dev, "%s\n", msg);
}

static const struct sdsi_mbox_ops sdsi_ops = {
	.read64 = sdsi_read64,
	.write64 = sdsi_write64,
	.log = sdsi_log,
};

static struct sdsi_dev *kobj_to_sdsi(struct kobject *kobj)
{
	return dev_get_drvdata(kobj_to_dev(kobj));
}

static ssize_t guid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct sdsi_dev *sd = dev_get_drvdata(dev);

	return sysfs_emit(buf, "0x%x\n", sd->mb.guid);
}
static DEVICE_ATTR_RO(guid);

static ssize_t sdsi_registers_read(struct sdsi_dev *sd, char *buf, loff_t off,
				   size_t count)
{
	u8 regs[SDSI_REGS_SIZE_V2];

	/* A plain copy of the registers: no mailbox, so no lock. */
	if (off >= sd->mb.regs_size)
		return 0;
	if (count > sd->mb.regs_size - off)
		count = sd->mb.regs_size - off;
	sdsi_mbox_read_registers(&sd->mb, regs);
	memcpy(buf, regs + off, count);
	return count;
}

/*
 * One mailbox read per open-and-read: the whole certificate comes at offset
 * 0, and any later offset is end of file, so a reader never mixes halves of
 * two certificates.
 */
static ssize_t sdsi_cert_read(struct sdsi_dev *sd,
			      const struct sdsi_sysfs_file_desc *file,
			      char *buf, loff_t off, size_t count)
{
	size_t len;
	void *msg;
	int ret;

	if (off)
		return 0;

	msg = kmalloc(SDSI_READ_MSG_MAX, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	ret = mutex_lock_interruptible(&sd->lock);
	if (!ret) {
		ret = sdsi_mbox_read(&sd->mb, file->command,
				     file->ctrl & SDSI_CTRL_METER_CURRENT,
				     msg, &len);
		mutex_unlock(&sd->lock);
	}
	if (!ret) {
		len = min(len, count);
		memcpy(buf, msg, len);
	}
	kfree(msg);
	if (ret)
		return ret;
	return len;
}

/*
 * A blob goes to the device in one write at offset 0.  The size is checked
 * before the in-band lock, and the lock before the mailbox is touched, in
 * the order the upstream driver reports them.
 */
static ssize_t sdsi_provision(struct sdsi_dev *sd, u64 command, char *buf,
			      loff_t off, size_t count)
{
	int ret;

	if (off)
		return -ESPIPE;
	if (count > SDSI_WRITE_PAYLOAD_MAX)
		return -EOVERFLOW;
	if (sdsi_mbox_iblocked(&sd->mb))
		return -EPERM;

	ret = mutex_lock_interruptible(&sd->lock);
	if (ret)
		return ret;
	ret = sdsi_mbox_write(&sd->mb, command, buf, count);
	mutex_unlock(&sd->lock);
	if (ret)
		return ret;
	return count;
}

/*
 * The binary attributes, one per row of include/sdsi/sysfs_files.h at the
 * index of its row, so that the callbacks and is_bin_visible find the row
 * from the attribute.  Every file has both callbacks: kernfs refuses, with
 * EACCES, an open its mode does not allow, and the callbacks refuse what
 * the row's mode does not allow too, should root chmod a file.  guid's row
 * is never listed: guid is a text attribute (above).
 */
static ssize_t sdsi_attr_read(struct file *filp, struct kobject *kobj,
			      SDSI_READ_CONST struct bin_attribute *attr,
			      char *buf, loff_t off, size_t count);
static ssize_t sdsi_attr_write(struct file *filp, struct kobject *kobj,
			       SDSI_WRITE_CONST struct bin_attribute *attr,
			       char *buf, loff_t off, size_t count);

#define SDSI_BIN_ATTR(_file, _name, _mode, _size, ...)			\
	[_file] = {							\
		.attr = { .name = #_name, .mode = (_mode) },		\
		.size = (_size),					\
		.read = sdsi_attr_read,					\
		.write = sdsi_attr_write,				\
	},

static SDSI_ATTRS_CONST struct bin_attribute sdsi_bin_attr[SDSI_FILE_COUNT] = {
	SDSI_SYSFS_FILE_TABLE(SDSI_BIN_ATTR)
};

static enum sdsi_sysfs_file sdsi_bin_file(const struct bin_attribute *attr)
{
	return attr - sdsi_bin_attr;
}

static ssize_t sdsi_attr_read(struct file *filp, struct kobject *kobj,
			      SDSI_READ_CONST struct bin_attribute *attr,
			      char *buf, loff_t off, size_t count)
{
	struct sdsi_dev *sd = kobj_to_sdsi(kobj);
	enum sdsi_sysfs_file file = sdsi_bin_file(attr);

	if (!(sdsi_sysfs_file(file)->mode & 0444))
		return -EACCES;
	if (file == SDSI_FILE_REGISTERS)
		return sdsi_registers_read(sd, buf, off, count);
	return sdsi_cert_read(sd, sdsi_sysfs_file(file), buf, off, count);
}

static ssize_t sdsi_attr_write(struct file *filp, struct kobject *kobj,
			       SDSI_WRITE_CONST struct bin_attribute *attr,
			       char *buf, loff_t off, size_t count)
{
	const struct sdsi_sysfs_file_desc *file;

	file = sdsi_sysfs_file(sdsi_bin_file(attr));
	if (!(file->mode & 0222))
		return -EACCES;
	return sdsi_provision(kobj_to_sdsi(kobj), file->command, buf, off,
			      count);
}

/*
 * As BIOS left the features at probe, by the one rule of
 * sdsi_sysfs_file_mode().  guid needs no feature, so the group has no
 * is_visible for its one text attribute.
 */
static umode_t sdsi_bin_visible(struct kobject *kobj,
				SDSI_VISIBLE_CONST struct bin_attribute *attr,
				int n)
{
	struct sdsi_dev *sd = kobj_to_sdsi(kobj);

	return sdsi_sysfs_file_mode(sdsi_bin_file(attr), sd->features,
				    SDSI_ABI_CURRENT);
}

static struct attribute *sdsi_attrs[] = {
	&dev_attr_guid.attr,
	NULL
};

static SDSI_ATTRS_CONST struct bin_attribute *SDSI_ATTRS_CONST sdsi_bin_attrs[] = {
	&sdsi_bin_attr[SDSI_FILE_REGISTERS],
	&sdsi_bin_attr[SDSI_FILE_STATE_CERT],
	&sdsi_bin_attr[SDSI_FILE_METER_CERT],
	&sdsi_bin_attr[SDSI_FILE_METER_CURRENT],
	&sdsi_bin_attr[SDSI_FILE_PROVISION_AKC],
	&sdsi_bin_attr[SDSI_FILE_PROVISION_CAP],
	NULL
};

static const struct attribute_group sdsi_group = {
	.attrs = sdsi_attrs,
	.bin_attrs = sdsi_bin_attrs,
	.is_bin_visible = sdsi_bin_visible,
};
__ATTRIBUTE_GROUPS(sdsi);

static void sdsi_free(struct kref *ref)
{
	kfree(container_of(ref, struct sdsi_dev, ref));
}

static void sdsi_put(void *data)
{
	struct sdsi_dev *sd = data;

	kref_put(&sd->ref, sdsi_free);
}

/* After this, no caller reaches the registers (devm unmaps them next). */
static void sdsi_retire(void *data)
{
	struct sdsi_dev *sd = data;

	mutex_lock(&sd->lock);
	sd->gone = true;
	mutex_unlock(&sd->lock);
}

static struct sdsi_dev *file_to_sdsi(struct file *file)
{
	/* misc_open() left the miscdevice there. */
	return container_of(file->private_data, struct sdsi_dev, misc);
}

static int sdsi_spdm_open(struct inode *inode, struct file *file)
{
	/*
	 * misc_open() calls this under the lock misc_deregister() takes,
	 * so the binding's reference is still held here.
	 */
	kref_get(&file_to_sdsi(file)->ref);
	return 0;
}

static int sdsi_spdm_release(struct inode *inode, struct file *file)
{
	sdsi_put(file_to_sdsi(file));
	return 0;
}

static long sdsi_spdm_info(struct sdsi_dev *sd, void __user *arg)
{
	struct sdsi_spdm_info info = {
		.api_version = sd->mb.guid,
		.driver_version = SDSI_SPDM_DRIVER_VERSION,
		.dev_no = sd->id,
		.max_request_size = SDSI_SPDM_REQUEST_MAX,
		.max_response_size = SDSI_SPDM_RESPONSE_MAX,
	};

	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/*
 * One SPDM exchange.  The size is checked before anything else is read,
 * so a request too large for the mailbox is EOVERFLOW whatever follows
 * it; the answer replaces the request in the caller's structure, its
 * size first, then exactly its bytes.
 */
static long sdsi_spdm_command(struct sdsi_dev *sd,
			      struct sdsi_spdm_command __user *arg)
{
	size_t rsp_len;
	void *req, *rsp;
	u32 size;
	long ret;

	if (get_user(size, &arg->size))
		return -EFAULT;
	if (size > SDSI_SPDM_REQUEST_MAX)
		return -EOVERFLOW;
	if (!size)
		return -EINVAL;

	req = memdup_user(arg->message, size);
	if (IS_ERR(req))
		return PTR_ERR(req);
	rsp = kmalloc(SDSI_READ_MSG_MAX, GFP_KERNEL);
	if (!rsp) {
		kfree(req);
		return -ENOMEM;
	}

	ret = mutex_lock_interruptible(&sd->lock);
	if (!ret) {
		if (sd->gone)
			ret = -ENODEV;
		else
			ret = sdsi_mbox_exchange(&sd->mb, req, size, rsp,
						 &rsp_len);
		mutex_unlock(&sd->lock);
	}
	if (!ret && (put_user((u32)rsp_len, &arg->size) ||
		     copy_to_user(arg->message, rsp, rsp_len)))
		ret = -EFAULT;
	kfree(rsp);
	kfree(req);
	return ret;
}

/*
 * The numbers are those of Intel's posted series, whose size field is a
 * pointer's; the structures are copied whole all the same.
 */
static long sdsi_spdm_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct sdsi_dev *sd = file_to_sdsi(file);

	switch (cmd) {
	case SDSI_IF_SPDM_INFO:
		return sdsi_spdm_info(sd, (void __user *)arg);
	case SDSI_IF_SPDM_COMMAND:
		return sdsi_spdm_command(sd, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations sdsi_spdm_fops = {
	.owner = THIS_MODULE,
	.open = sdsi_spdm_open,
	.release = sdsi_spdm_release,
	.unlocked_ioctl = sdsi_spdm_ioctl,
	.llseek = noop_llseek,
};

static void sdsi_spdm_remove(void *data)
{
	struct sdsi_dev *sd = data;

	misc_deregister(&sd->misc);
}

/*
 * /dev/isdsiN, root's alone, for a part whose BIOS enabled attestation
 * (sampled at probe, as the sysfs files are).
 */
static int sdsi_spdm_add(struct sdsi_dev *sd)
{
	int ret;

	if (!(sd->features & SDSI_FEATURE_ATTESTATION))
		return 0;
	snprintf(sd->misc_name, sizeof(sd->misc_name), "isdsi%u", sd->id);
	sd->misc.minor = MISC_DYNAMIC_MINOR;
	sd->misc.name = sd->misc_name;
	sd->misc.fops = &sdsi_spdm_fops;
	sd->misc.parent = sd->dev;
	sd->misc.mode = 0600;
	ret = misc_register(&sd->misc);
	if (ret)
		return ret;
	return devm_add_action_or_reset(sd->dev, sdsi_spdm_remove, sd);
}

/*
 * The PCI device whose BAR an access type BARID names, or NULL: the device
 * used to be held as such (pcidev); from 7.x it is the parent struct
 * device, which for a VSEC found through ACPI is no PCI device.
 */
static struct pci_dev *sdsi_vsec_pci(struct intel_vsec_device *vsec)
{
#ifdef SDSI_HAVE_VSEC_DEV
	return vsec->dev && dev_is_pci(vsec->dev) ? to_pci_dev(vsec->dev) : NULL;
#else
	return vsec->pcidev;
#endif
}

/*
 * A BARID entry's region, in the PCI BAR its TBIR names (0-5, checked with
 * the table): a memory BAR that holds the whole region at the offset.
 */
static int sdsi_bar_region(struct sdsi_dev *sd, struct intel_vsec_device *vsec,
			   const struct sdsi_disc *d, struct resource *res)
{
	struct pci_dev *pdev = sdsi_vsec_pci(vsec);
	unsigned long flags;
	u64 len;

	/* A device made without a PCI parent has no BAR to name. */
	if (!pdev) {
		dev_err(sd->dev, "No PCI device for access type %u\n",
			d->access);
		return -EINVAL;
	}
	flags = pci_resource_flags(pdev, d->tbir);
	len = pci_resource_len(pdev, d->tbir);
	switch (sdsi_disc_check_bar(d, flags & IORESOURCE_MEM, len)) {
	case SDSI_DISC_OK:
		break;
	case SDSI_DISC_BAR_NOT_MEM:
		dev_err(sd->dev, "BAR %u is not a memory BAR (flags 0x%lx)\n",
			d->tbir, flags);
		return -EINVAL;
	default:
		dev_err(sd->dev, "Region at offset 0x%x, %u bytes, exceeds BAR %u (%llu bytes)\n",
			d->offset, sdsi_disc_region_bytes(d), d->tbir, len);
		return -EINVAL;
	}
	res->start = pci_resource_start(pdev, d->tbir) + d->offset;
	return 0;
}

/*
 * Where the On Demand region is, from the discovery table: with access
 * type LOCAL it starts just past the table's own resource, with BARID in
 * the PCI BAR the TBIR bits name; either way at the table's offset.  The
 * GUID is checked first, so that a device of unknown layout is refused
 * (and logged: a probe failing with EINVAL is) before anything else of it
 * is mapped, as upstream does.  Nothing the table says is mapped before
 * it is known to fit (drivers/core/sdsi_disc.c): the table in its
 * resource, the register file in the region, the region in its BAR.  Each
 * refusal is EINVAL, as for an unknown GUID: the firmware's table is
 * invalid, and the driver core then logs the failed probe too.
 */
static int sdsi_map(struct sdsi_dev *sd, struct intel_vsec_device *vsec)
{
	struct resource *disc_res = &vsec->resource[0];
	u32 table[SDSI_DISC_DWORDS];
	struct resource res = {};
	void __iomem *disc_addr;
	struct sdsi_disc d;
	unsigned int i;
	int ret;

	if (sdsi_disc_check_resource(resource_size(disc_res)) != SDSI_DISC_OK) {
		dev_err(sd->dev, "Discovery resource of %llu bytes is smaller than the table (%u bytes)\n",
			(u64)resource_size(disc_res), SDSI_DISC_TABLE_BYTES);
		return -EINVAL;
	}
	disc_addr = devm_ioremap_resource(sd->dev, disc_res);
	if (IS_ERR(disc_addr))
		return PTR_ERR(disc_addr);
	for (i = 0; i < SDSI_DISC_DWORDS; i++)
		table[i] = readl(disc_addr + i * sizeof(u32));

	ret = sdsi_mbox_init(&sd->mb, table[1], &sdsi_ops, sd, NULL);
	if (ret == -ENODEV) {
		dev_err(sd->dev, "Unrecognized GUID 0x%x\n", table[1]);
		return -EINVAL;
	}
	if (ret)
		return ret;
	sd->mb.lock = &sd->lock;

	sdsi_disc_decode(&d, table);
	if (d.access != SDSI_DISC_ACCESS_LOCAL &&
	    d.access != SDSI_DISC_ACCESS_BARID) {
		dev_err(sd->dev, "Unrecognized access_type %u\n", d.access);
		return -EINVAL;
	}
	if (d.access == SDSI_DISC_ACCESS_LOCAL && d.tbir) {
		dev_err(sd->dev, "Unsupported BAR index %u for access type %u\n",
			d.tbir, d.access);
		return -EINVAL;
	}
	switch (sdsi_disc_check_table(&d, sdsi_guid_layout(table[1]))) {
	case SDSI_DISC_OK:
		break;
	case SDSI_DISC_SHORT_REGION:
		dev_err(sd->dev, "Discovery size %u bytes is smaller than the register region (%u bytes)\n",
			sdsi_disc_region_bytes(&d),
			sdsi_layout_region_end(sdsi_guid_layout(table[1])));
		return -EINVAL;
	default:
		dev_err(sd->dev, "BAR index %u is out of range (%u BARs)\n",
			d.tbir, SDSI_PCI_BARS);
		return -EINVAL;
	}

	if (d.access == SDSI_DISC_ACCESS_LOCAL) {
		res.start = disc_res->end + 1 + d.offset;
	} else {
		ret = sdsi_bar_region(sd, vsec, &d, &res);
		if (ret)
			return ret;
	}
	res.end = res.start + sdsi_disc_region_bytes(&d) - 1;
	res.flags = IORESOURCE_MEM;
	sd->mmio = devm_ioremap_resource(sd->dev, &res);
	return PTR_ERR_OR_ZERO(sd->mmio);
}

static int sdsi_probe(struct auxiliary_device *auxdev,
		      const struct auxiliary_device_id *id)
{
	struct intel_vsec_device *vsec =
		container_of(auxdev, struct intel_vsec_device, auxdev);
	struct sdsi_dev *sd;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->dev = &auxdev->dev;
	sd->id = auxdev->id;
	mutex_init(&sd->lock);
	kref_init(&sd->ref);
	/* Registered first, so dropped last, after the registers go. */
	ret = devm_add_action_or_reset(sd->dev, sdsi_put, sd);
	if (ret)
		return ret;

	ret = sdsi_map(sd, vsec);
	if (ret)
		return ret;
	/* Registered after the mapping, so run before it is undone. */
	ret = devm_add_action_or_reset(sd->dev, sdsi_retire, sd);
	if (ret)
		return ret;

	/* The one register the probe needs: which files to show. */
	sd->features = readq(sd->mmio + sd->mb.regs_off + SDSI_REG_FEATURES);
	auxiliary_set_drvdata(auxdev, sd);
	return sdsi_spdm_add(sd);
}

static const struct auxiliary_device_id sdsi_aux_ids[] = {
	{ .name = "intel_vsec.sdsi" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, sdsi_aux_ids);

static struct auxiliary_driver sdsi_aux_driver = {
	.driver = {
		.dev_groups = sdsi_groups,
	},
	.id_table = sdsi_aux_ids,
	.probe = sdsi_probe,
};
module_auxiliary_driver(sdsi_aux_driver);

MODULE_DESCRIPTION("Intel On Demand (SDSi) driver built on sdsi's driver core");
MODULE_LICENSE("GPL");
/*
 * The project's one version (meson.build), which Kbuild reads from
 * dkms.conf's PACKAGE_VERSION (scripts/check-versions.sh keeps them equal):
 * with it, DKMS sees ours as newer than the kernel's unversioned module.
 */
#ifndef SDSI_MODULE_VERSION
#error "Kbuild found no PACKAGE_VERSION in dkms.conf"
#endif
MODULE_VERSION(SDSI_MODULE_VERSION);
