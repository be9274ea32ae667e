// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_sdsi built from sdsi's own driver core: the auxiliary driver for the
 * intel_vsec.sdsi.N devices with the current (Linux 6.12-level) sysfs ABI of
 * docs/interface.md §9.2, on any kernel it builds for.  Everything the
 * mailbox does is core/sdsi_mbox.c, compiled here unchanged; this file only
 * finds the MMIO region, serialises transactions with a mutex per device
 * and turns the core's answers into sysfs files.
 */
#include <linux/auxiliary_bus.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "sdsi/hw.h"
#include "sdsi_mbox.h"
#include "sdsi_window_vsec.h"

/*
 * Newer kernels (7.2 among the rig's) pass binary attributes to their
 * callbacks as const and take const groups of them; Kbuild defines
 * SDSI_CONST_BIN_ATTR where the headers' read callback says so.
 */
#ifdef SDSI_CONST_BIN_ATTR
#define SDSI_BIN_CONST const
#else
#define SDSI_BIN_CONST
#endif

/* The register file is served from a fixed-size file; reads are clamped. */
#define SDSI_REGS_FILE_SIZE	SDSI_REGS_SIZE_V2
#define SDSI_DISC_DWORDS	3

struct sdsi_dev {
	struct device *dev;
	void __iomem *mmio;
	struct mutex lock;	/* one mailbox transaction at a time */
	struct sdsi_mbox mb;
	u64 features;		/* ENABLED_FEATURES at probe: file visibility */
};

static uint64_t sdsi_read64(void *ctx, uint32_t offset)
{
	struct sdsi_dev *sd = ctx;

	return readq(sd->mmio + offset);
}

static void sdsi_write64(void *ctx, uint32_t offset, uint64_t value)
{
	struct sdsi_dev *sd = ctx;

	writeq(value, sd->mmio + offset);
}

static void sdsi_sleep_us(void *ctx, uint32_t us)
{
	fsleep(us);
}

static uint64_t sdsi_now_us(void *ctx)
{
	return ktime_to_us(ktime_get());
}

static void sdsi_warn(void *ctx, const char *msg)
{
	struct sdsi_dev *sd = ctx;

	dev_warn(sd->dev, "%s\n", msg);
}

static const struct sdsi_mbox_ops sdsi_ops = {
	.read64 = sdsi_read64,
	.write64 = sdsi_write64,
	.sleep_us = sdsi_sleep_us,
	.now_us = sdsi_now_us,
	.warn = sdsi_warn,
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

/* A plain copy of the registers: no mailbox, so no lock. */
static ssize_t registers_read(struct file *filp, struct kobject *kobj,
			      SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
			      loff_t off, size_t count)
{
	struct sdsi_dev *sd = kobj_to_sdsi(kobj);
	u8 regs[SDSI_REGS_SIZE_V2];

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
static ssize_t sdsi_cert_read(struct sdsi_dev *sd, u64 command,
			      bool meter_current, char *buf, loff_t off,
			      size_t count)
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
		ret = sdsi_mbox_read(&sd->mb, command, meter_current, msg,
				     &len);
		mutex_unlock(&sd->lock);
	}
	if (!ret) {
		len = min(len, count);
		memcpy(buf, msg, len);
	}
	kfree(msg);
	return ret ? ret : len;
}

static ssize_t state_certificate_read(struct file *filp, struct kobject *kobj,
				      SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
				      loff_t off, size_t count)
{
	return sdsi_cert_read(kobj_to_sdsi(kobj), SDSI_CMD_READ_STATE, false,
			      buf, off, count);
}

static ssize_t meter_certificate_read(struct file *filp, struct kobject *kobj,
				      SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
				      loff_t off, size_t count)
{
	return sdsi_cert_read(kobj_to_sdsi(kobj), SDSI_CMD_READ_METER, false,
			      buf, off, count);
}

static ssize_t meter_current_read(struct file *filp, struct kobject *kobj,
				  SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
				  loff_t off, size_t count)
{
	return sdsi_cert_read(kobj_to_sdsi(kobj), SDSI_CMD_READ_METER, true,
			      buf, off, count);
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
	return ret ? ret : count;
}

static ssize_t provision_akc_write(struct file *filp, struct kobject *kobj,
				   SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
				   loff_t off, size_t count)
{
	return sdsi_provision(kobj_to_sdsi(kobj), SDSI_CMD_PROVISION_AKC, buf,
			      off, count);
}

static ssize_t provision_cap_write(struct file *filp, struct kobject *kobj,
				   SDSI_BIN_CONST struct bin_attribute *attr, char *buf,
				   loff_t off, size_t count)
{
	return sdsi_provision(kobj_to_sdsi(kobj), SDSI_CMD_PROVISION_CAP, buf,
			      off, count);
}

#define SDSI_BIN_ATTR(_name, _mode, _size, _op)				\
	static SDSI_BIN_CONST struct bin_attribute bin_attr_##_name = {		\
		.attr = { .name = #_name, .mode = (_mode) },		\
		.size = (_size),					\
		._op = _name##_##_op,					\
	}

SDSI_BIN_ATTR(registers, 0400, SDSI_REGS_FILE_SIZE, read);
SDSI_BIN_ATTR(state_certificate, 0400, SDSI_READ_MSG_MAX, read);
SDSI_BIN_ATTR(meter_certificate, 0400, SDSI_READ_MSG_MAX, read);
SDSI_BIN_ATTR(meter_current, 0400, SDSI_READ_MSG_MAX, read);
SDSI_BIN_ATTR(provision_akc, 0200, SDSI_MBOX_SIZE, write);
SDSI_BIN_ATTR(provision_cap, 0200, SDSI_MBOX_SIZE, write);

/*
 * As BIOS left the features at probe: without On Demand only guid and
 * registers exist, and the meter files also need metering.
 */
static umode_t sdsi_bin_visible(struct kobject *kobj,
				SDSI_BIN_CONST struct bin_attribute *attr, int n)
{
	struct sdsi_dev *sd = kobj_to_sdsi(kobj);

	if (attr == &bin_attr_registers)
		return attr->attr.mode;
	if (!(sd->features & SDSI_FEATURE_ON_DEMAND))
		return 0;
	if ((attr == &bin_attr_meter_certificate ||
	     attr == &bin_attr_meter_current) &&
	    !(sd->features & SDSI_FEATURE_METERING))
		return 0;
	return attr->attr.mode;
}

static struct attribute *sdsi_attrs[] = {
	&dev_attr_guid.attr,
	NULL
};

static SDSI_BIN_CONST struct bin_attribute *SDSI_BIN_CONST sdsi_bin_attrs[] = {
	&bin_attr_registers,
	&bin_attr_state_certificate,
	&bin_attr_meter_certificate,
	&bin_attr_meter_current,
	&bin_attr_provision_akc,
	&bin_attr_provision_cap,
	NULL
};

static const struct attribute_group sdsi_group = {
	.attrs = sdsi_attrs,
	.bin_attrs = sdsi_bin_attrs,
	.is_bin_visible = sdsi_bin_visible,
};
__ATTRIBUTE_GROUPS(sdsi);

/*
 * The discovery table says where the On Demand region is and which GUID
 * (layout) it has.  Only access type LOCAL exists on the parts: the region
 * then starts just past the table's resource, at the table's offset.
 */
static int sdsi_map(struct sdsi_dev *sd, struct resource *disc_res, u32 *guid)
{
	u32 disc[SDSI_DISC_DWORDS], access, bar, offset, size;
	struct resource res = {};
	void __iomem *disc_addr;
	int i;

	disc_addr = devm_ioremap_resource(sd->dev, disc_res);
	if (IS_ERR(disc_addr))
		return PTR_ERR(disc_addr);
	for (i = 0; i < SDSI_DISC_DWORDS; i++)
		disc[i] = readl(disc_addr + i * sizeof(u32));

	access = disc[0] & SDSI_DISC_ACCESS_MASK;
	size = (disc[0] >> SDSI_DISC_SIZE_SHIFT) & SDSI_DISC_SIZE_MASK;
	bar = disc[2] & SDSI_DISC_TBIR_MASK;
	offset = disc[2] & ~SDSI_DISC_TBIR_MASK;
	*guid = disc[1];

	if (access != SDSI_DISC_ACCESS_LOCAL) {
		dev_err(sd->dev, "Unsupported access type %u\n", access);
		return -EINVAL;
	}
	if (bar) {
		dev_err(sd->dev, "Unsupported BAR index %u for local access\n",
			bar);
		return -EINVAL;
	}

	res.start = disc_res->end + 1 + offset;
	res.end = res.start + size * sizeof(u32) - 1;
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
	u64 features;
	u32 guid;
	int ret;

	sd = devm_kzalloc(&auxdev->dev, sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->dev = &auxdev->dev;
	mutex_init(&sd->lock);

	ret = sdsi_map(sd, &vsec->resource[0], &guid);
	if (ret)
		return ret;

	ret = sdsi_mbox_init(&sd->mb, guid, &sdsi_ops, sd, NULL);
	if (ret == -ENODEV)
		dev_err(sd->dev, "Unrecognized GUID 0x%x\n", guid);
	if (ret)
		return ret;

	/* The one register the probe needs: which files to show. */
	features = readq(sd->mmio + sd->mb.regs_off + SDSI_REG_FEATURES);
	sd->features = features;
	auxiliary_set_drvdata(auxdev, sd);
	return 0;
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
MODULE_VERSION(SDSI_VERSION);
