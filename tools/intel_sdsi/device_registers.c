// SPDX-License-Identifier: GPL-2.0-only
#include <stdint.h>

#include "device_registers.h"

int read_device_registers(const struct sdsi_device *dev, struct sdsi_registers *regs,
			  size_t *raw_len, struct sdsi_error *err)
{
	uint8_t buf[SDSI_READ_BUF_SIZE];
	size_t len;
	int ret;

	ret = sdsi_read_attr(dev, SDSI_ATTR_REGISTERS, buf, &len, err);
	if (ret)
		return ret;
	ret = sdsi_decode_registers(buf, len, sdsi_device_guid(dev), regs, err);
	if (ret)
		return ret;
	if (raw_len)
		*raw_len = len;
	return 0;
}
