// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoder of the sysfs "registers" file (docs/interface.md §2.3 and §2.7).
 * The socket ID is read at offset 0x40 on both layouts: Intel's corrected V2
 * layout puts it there, while the upstream tool reads V2 at 0x48 (the
 * pre-correction layout).  docs/intel_sdsi.md records the choice.
 */
#include <errno.h>
#include <string.h>

#include "sdsi/bitfield.h"
#include "sdsi/hw.h"
#include "sdsi_internal.h"

int sdsi_decode_registers(const uint8_t *buf, size_t len, uint32_t guid,
			  struct sdsi_registers *regs, struct sdsi_error *err)
{
	/* Everything up to and including the socket ID dword. */
	const size_t needed = SDSI_REG_SOCKET_ID + 4;
	uint64_t v;

	sdsi_clear_error(err);
	memset(regs, 0, sizeof(*regs));
	if (len < needed)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)len,
				 "registers: %zu bytes, need at least %zu (through the socket ID at 0x%x)",
				 len, needed, SDSI_REG_SOCKET_ID);
	/*
	 * Without a GUID only the size tells the layout, and only the two sizes
	 * a registers file has can tell it: anything else is not registers.
	 */
	if (guid == 0 && len != SDSI_REGS_SIZE_V1 && len != SDSI_REGS_SIZE_V2)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)len,
				 "registers: %zu bytes; a registers file is %u bytes (V1) or %u bytes (V2)",
				 len, SDSI_REGS_SIZE_V1, SDSI_REGS_SIZE_V2);
	if (guid == 0)
		guid = len == SDSI_REGS_SIZE_V2 ? SDSI_GUID_V2 : SDSI_GUID_V1;
	regs->guid = guid;
	regs->guid_known = sdsi_guid_layout(guid) != 0;
	regs->layout = sdsi_guid_layout_or_v1(guid);
	regs->size = len;

	regs->ppin = sdsi_le64(buf + SDSI_REG_PPIN);

	v = sdsi_le64(buf + SDSI_REG_AUTH_ERR);
	regs->content_auth_error = v & SDSI_AUTH_ERR_CONTENT;
	regs->metering_auth_error = v & SDSI_AUTH_ERR_METERING;

	v = sdsi_le64(buf + SDSI_REG_FEATURES);
	regs->on_demand = v & SDSI_FEATURE_ON_DEMAND;
	regs->attestation = v & SDSI_FEATURE_ATTESTATION;
	regs->metering = v & SDSI_FEATURE_METERING;

	regs->akc_provisioned = sdsi_le64(buf + SDSI_REG_KEY_PROV) & SDSI_KEY_PROVISIONED;

	v = sdsi_le64(buf + SDSI_REG_FAIL_COUNT);
	regs->akc_fail_count = (unsigned int)SDSI_FIELD_GET(SDSI_FAIL_AKC_COUNT_MASK, v);
	regs->akc_fail_threshold = (unsigned int)SDSI_FIELD_GET(SDSI_FAIL_AKC_THRESH_MASK, v);
	regs->cap_fail_count = (unsigned int)SDSI_FIELD_GET(SDSI_FAIL_CAP_COUNT_MASK, v);
	regs->cap_fail_threshold = (unsigned int)SDSI_FIELD_GET(SDSI_FAIL_CAP_THRESH_MASK, v);

	v = sdsi_le64(buf + SDSI_REG_AVAILABILITY);
	regs->updates_available = (unsigned int)SDSI_FIELD_GET(SDSI_AVAIL_UPDATES_MASK, v);
	regs->updates_threshold = (unsigned int)SDSI_FIELD_GET(SDSI_AVAIL_THRESH_MASK, v);

	v = sdsi_le64(buf + SDSI_REG_NVRAM_LIMITS);
	regs->nvram_50 = v & SDSI_NVRAM_50_PCT;
	regs->nvram_75 = v & SDSI_NVRAM_75_PCT;
	regs->nvram_90 = v & SDSI_NVRAM_90_PCT;

	/* V2's CAPID1 is a 4-byte register followed by 4 reserved bytes. */
	regs->capid1 = regs->layout == 2 ? sdsi_le32(buf + SDSI_REG_CAPID1)
					 : sdsi_le64(buf + SDSI_REG_CAPID1);
	regs->socket_id = (unsigned int)(sdsi_le32(buf + SDSI_REG_SOCKET_ID) &
					 SDSI_SOCKET_ID_MASK);
	return 0;
}
