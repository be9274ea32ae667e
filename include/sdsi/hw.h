/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hardware facts of the Intel On Demand (SDSi) interface: discovery table,
 * MMIO layouts, control register, mailbox commands, register file fields and
 * certificate layouts.  Shared by the hardware model, the driver core, the
 * kernel module and libsdsi, so it is LGPL (usable by all of them) and uses
 * nothing but integer constants and static inline functions on plain
 * integers: it compiles in the kernel and in user space.  Beside it:
 * le.h (byte order), license_blob.h (the AKC and CAP) and window.h (the
 * shared window of sdsi-shmem and the kernel rig).
 *
 * Source of every number: docs/interface.md, sections 2
 * and 3.  Where Intel publishes nothing, the constant is marked "ours".
 */
#ifndef SDSI_HW_H
#define SDSI_HW_H

/*
 * _BITULL(): the bit macro of the kernel's UAPI, which user space has too
 * (this header is installed with libsdsi, where BIT_ULL() does not exist).
 */
#include <linux/const.h>

/*
 * Discovery table (12 bytes used; type 3).  Access type 3 (LOCAL): the
 * region follows the table; 2 (BARID): it is at the offset in the PCI BAR
 * the TBIR bits name.
 */
#define SDSI_DISC_ACCESS_BARID		2u
#define SDSI_DISC_ACCESS_LOCAL		3u
#define SDSI_DISC_TYPE			3u
#define SDSI_DISC_ACCESS_MASK		0xfu		/* dword 0, bits 3:0 */
#define SDSI_DISC_TYPE_SHIFT		4		/* dword 0, bits 11:4 */
#define SDSI_DISC_TYPE_MASK		0xffu
#define SDSI_DISC_SIZE_SHIFT		12		/* dword 0, bits 27:12 (dwords) */
#define SDSI_DISC_SIZE_MASK		0xffffu
#define SDSI_DISC_TBIR_MASK		0x7u		/* dword 2, bits 2:0 */
#define SDSI_DISC_OFFSET_MASK		0xfffffff8u	/* dword 2, bits 31:3 */
#define SDSI_DISC_DWORDS		3u		/* the dwords drivers read */
#define SDSI_DISC_TABLE_BYTES		(SDSI_DISC_DWORDS * 4u)	/* 12 */
#define SDSI_DISC_BYTES			16u		/* resource size Linux maps */

/*
 * What Linux names each On Demand device on the auxiliary bus: the prefix
 * and the device number, "intel_vsec.sdsi.0".
 */
#define SDSI_DEVICE_PREFIX		"intel_vsec.sdsi."

/* GUIDs naming the MMIO layout. */
#define SDSI_GUID_V1			0x006DD191u
#define SDSI_GUID_V2			0xF210D9EFu
#define SDSI_CTRL_SIZE_V1		8u
#define SDSI_CTRL_SIZE_V2		16u
#define SDSI_REGS_SIZE_V1		72u
#define SDSI_REGS_SIZE_V2		80u

/* Mailbox. */
#define SDSI_MBOX_SIZE			1024u
#define SDSI_MBOX_MAX_PACKETS		4u
#define SDSI_READ_MSG_MAX		(SDSI_MBOX_SIZE * SDSI_MBOX_MAX_PACKETS)
#define SDSI_CMD_SIZE			8u
#define SDSI_WRITE_PAYLOAD_MAX		(SDSI_MBOX_SIZE - SDSI_CMD_SIZE) /* 1016 */

/* Commands (a whole qword, the last of the packet). */
#define SDSI_CMD_PROVISION_AKC		0x0004ull
#define SDSI_CMD_PROVISION_CAP		0x0008ull
#define SDSI_CMD_READ_STATE		0x0010ull
#define SDSI_CMD_READ_METER		0x0014ull
/*
 * ATTESTATION (SPDM, include/sdsi/spdm.h): a write whose packet is the SPDM
 * request padded to 8 bytes, a qword with its unpadded length and this
 * command; PACKET_SIZE and MSG_SIZE both the total.  The answer is read back
 * like a certificate: the response padded to 8, then a qword with its
 * unpadded length.
 */
#define SDSI_CMD_ATTESTATION		0x1012ull
#define SDSI_ATTEST_FRAME_EXTRA		16u	/* length and command qwords */
#define SDSI_ATTEST_REQUEST_MAX		(SDSI_MBOX_SIZE - SDSI_ATTEST_FRAME_EXTRA) /* 1008 */
#define SDSI_ATTEST_RESPONSE_MAX	(SDSI_READ_MSG_MAX - 8u)	/* 4088 */

/* Control register, qword 0. */
#define SDSI_CTRL_RUN_BUSY		_BITULL(0)
#define SDSI_CTRL_READ_WRITE		_BITULL(1)	/* 1 = write */
#define SDSI_CTRL_SOM			_BITULL(2)
#define SDSI_CTRL_EOM			_BITULL(3)
#define SDSI_CTRL_OWNER_SHIFT		4
#define SDSI_CTRL_OWNER_MASK		(3ull << SDSI_CTRL_OWNER_SHIFT)
#define SDSI_CTRL_CPL			_BITULL(6)
#define SDSI_CTRL_RDY			_BITULL(7)
#define SDSI_CTRL_STATUS_SHIFT		8
#define SDSI_CTRL_STATUS_MASK		(0xffull << SDSI_CTRL_STATUS_SHIFT)
#define SDSI_CTRL_PACKET_SIZE_SHIFT	16
#define SDSI_CTRL_PACKET_SIZE_MASK	(0xffffull << SDSI_CTRL_PACKET_SIZE_SHIFT)
#define SDSI_CTRL_IBLOCK		_BITULL(32)
#define SDSI_CTRL_METER_CURRENT		_BITULL(33)	/* undocumented; Linux uses it */
#define SDSI_CTRL_MSG_SIZE_SHIFT	48
#define SDSI_CTRL_MSG_SIZE_MASK		(0xffffull << SDSI_CTRL_MSG_SIZE_SHIFT)
/* Control register, qword 1 (V2 only): bits 15:0 metering update period. */
#define SDSI_CTRL1_METER_PERIOD_MASK	0xffffull

#define SDSI_OWNER_NONE			0u
#define SDSI_OWNER_INBAND		1u
#define SDSI_OWNER_OUT_OF_BAND		2u

#define SDSI_STATUS_SUCCESS		0x40u
#define SDSI_STATUS_TIMEOUT		0x80u
#define SDSI_STATUS_FAILURE		0x90u

/* Register file (the sysfs "registers" file; offsets from the PPIN). */
#define SDSI_REG_PPIN			0x00u
#define SDSI_REG_AUTH_ERR		0x08u
#define SDSI_REG_FEATURES		0x10u
#define SDSI_REG_KEY_PROV		0x18u
#define SDSI_REG_FAIL_COUNT		0x20u
#define SDSI_REG_AVAILABILITY		0x28u
#define SDSI_REG_NVRAM_LIMITS		0x30u
#define SDSI_REG_CAPID1			0x38u
#define SDSI_REG_SOCKET_ID		0x40u	/* V1, and V2 per the corrected layout */
#define SDSI_REG_SOCKET_ID_V2_TOOL	0x48u	/* where the upstream tool reads V2 */
#define SDSI_SOCKET_ID_MASK		0xfull

#define SDSI_AUTH_ERR_CONTENT		_BITULL(3)
#define SDSI_AUTH_ERR_METERING		_BITULL(5)

#define SDSI_FEATURE_ON_DEMAND		_BITULL(3)
#define SDSI_FEATURE_ATTESTATION	_BITULL(12)
#define SDSI_FEATURE_METERING		_BITULL(26)
#define SDSI_FEATURES_SETTABLE		(SDSI_FEATURE_ON_DEMAND | \
					 SDSI_FEATURE_ATTESTATION | \
					 SDSI_FEATURE_METERING)

#define SDSI_KEY_PROVISIONED		_BITULL(1)

/* PROVISIONING_AUTH_FAILURE_COUNT: four 3-bit fields. */
#define SDSI_FAIL_AKC_COUNT_SHIFT	0
#define SDSI_FAIL_AKC_THRESH_SHIFT	3
#define SDSI_FAIL_CAP_COUNT_SHIFT	6
#define SDSI_FAIL_CAP_THRESH_SHIFT	9
#define SDSI_FIELD3_MASK		0x7ull
#define SDSI_FAIL_AKC_COUNT_MASK	(SDSI_FIELD3_MASK << SDSI_FAIL_AKC_COUNT_SHIFT)
#define SDSI_FAIL_AKC_THRESH_MASK	(SDSI_FIELD3_MASK << SDSI_FAIL_AKC_THRESH_SHIFT)
#define SDSI_FAIL_CAP_COUNT_MASK	(SDSI_FIELD3_MASK << SDSI_FAIL_CAP_COUNT_SHIFT)
#define SDSI_FAIL_CAP_THRESH_MASK	(SDSI_FIELD3_MASK << SDSI_FAIL_CAP_THRESH_SHIFT)

/* PROVISIONING_AVAILABILITY. */
#define SDSI_AVAIL_UPDATES_SHIFT	48
#define SDSI_AVAIL_THRESH_SHIFT		51
#define SDSI_AVAIL_UPDATES_MASK		(SDSI_FIELD3_MASK << SDSI_AVAIL_UPDATES_SHIFT)
#define SDSI_AVAIL_THRESH_MASK		(SDSI_FIELD3_MASK << SDSI_AVAIL_THRESH_SHIFT)

/* NVRAM_UPDATE_LIMITS. */
#define SDSI_NVRAM_50_PCT		_BITULL(12)
#define SDSI_NVRAM_75_PCT		_BITULL(13)
#define SDSI_NVRAM_90_PCT		_BITULL(14)

/*
 * The GUID names the MMIO layout: 1 (V1), 2 (V2) or 0 for a GUID no layout
 * is known for.  The one place that choice is made.
 */
static inline unsigned int sdsi_guid_layout(unsigned int guid)
{
	if (guid == SDSI_GUID_V1)
		return 1;
	if (guid == SDSI_GUID_V2)
		return 2;
	return 0;
}

/* The layout of a GUID where any unknown one gets V1, as the early driver assumed. */
static inline unsigned int sdsi_guid_layout_or_v1(unsigned int guid)
{
	return sdsi_guid_layout(guid) == 2 ? 2 : 1;
}

/* Sizes and offsets in the MMIO region of layout 1 or 2 (anything else: V1). */
static inline unsigned int sdsi_layout_ctrl_size(unsigned int layout)
{
	return layout == 2 ? SDSI_CTRL_SIZE_V2 : SDSI_CTRL_SIZE_V1;
}

static inline unsigned int sdsi_layout_regs_size(unsigned int layout)
{
	return layout == 2 ? SDSI_REGS_SIZE_V2 : SDSI_REGS_SIZE_V1;
}

static inline unsigned int sdsi_layout_regs_offset(unsigned int layout)
{
	return sdsi_layout_ctrl_size(layout) + SDSI_MBOX_SIZE;
}

/*
 * The end of what a driver touches in the region, the register file's:
 * 1104 bytes for V1, 1120 for V2.  The discovery size must reach it.
 */
static inline unsigned int sdsi_layout_region_end(unsigned int layout)
{
	return sdsi_layout_regs_offset(layout) + sdsi_layout_regs_size(layout);
}

/* State certificate (section 3.1). */
#define SDSI_STATE_CONTENT_EMPTY	0x0u	/* ours: nothing provisioned yet */
#define SDSI_STATE_CONTENT_KEY		0xDu
#define SDSI_STATE_CONTENT_KEY_BLOBS	0xEu
#define SDSI_STATE_HEADER_SIZE		24u	/* six u32 */
#define SDSI_STATE_OFF_CONTENT_TYPE	0x00u
#define SDSI_STATE_OFF_REGION_REV	0x04u	/* ours: bumped per NVRAM write */
#define SDSI_STATE_OFF_HEADER_SIZE	0x08u	/* dwords: header + size words */
#define SDSI_STATE_OFF_TOTAL_SIZE	0x0cu
#define SDSI_STATE_OFF_KEY_SIZE		0x10u	/* dwords */
#define SDSI_STATE_OFF_NUM_LICENSES	0x14u
#define SDSI_STATE_OFF_SIZE_WORDS	SDSI_STATE_HEADER_SIZE	/* u32 each */
#define SDSI_STATE_MAX_SIZE		SDSI_READ_MSG_MAX	/* the whole region */
#define SDSI_STATE_REGION_ALIGN		16u	/* ours: total size padded to 16 */
#define SDSI_STATE_KEY_INFO_SIZE	52u	/* u32 rev id + 48-byte image */
#define SDSI_STATE_KEY_OFF_IMAGE	4u	/* from the key info's start */
#define SDSI_STATE_KEY_IMAGE_SIZE	48u
#define SDSI_STATE_KEY_SIZE_DWORDS	12u	/* ours: the 48-byte image */
#define SDSI_BLOB_VALID			0x80000000u	/* bit 31 of a u32 */
#define SDSI_BLOB_SIZE_MASK		0x7fffffffu	/* dwords */
#define SDSI_BLOB_HEADER_SIZE		36u
#define SDSI_BUNDLE_SIZE		32u
/* Licence blob fields, from the blob's start. */
#define SDSI_BLOB_OFF_TYPE		0x00u	/* u32 */
#define SDSI_BLOB_OFF_ID		0x04u	/* u64 */
#define SDSI_BLOB_OFF_PPIN		0x0cu	/* u64 */
#define SDSI_BLOB_OFF_PREV_PPIN		0x14u	/* u64, 0: not transferred */
#define SDSI_BLOB_OFF_REVISION		0x1cu	/* u32 */
#define SDSI_BLOB_OFF_NUM_BUNDLES	0x20u	/* u32 */
/* Bundle fields, from the bundle's start. */
#define SDSI_BUNDLE_OFF_CODE		0x00u	/* u32, SDSI_FOURCC order */
#define SDSI_BUNDLE_OFF_RESERVED	0x04u
#define SDSI_BLOB_TYPE_ONE_TIME		1u
#define SDSI_BLOB_TYPE_METERED		2u

/* Meter certificate (section 3.2). */
#define SDSI_METER_HEADER_SIZE		40u
#define SDSI_METER_OFF_SIGNATURE	0x00u	/* u32 "MTDB" */
#define SDSI_METER_OFF_VERSION		0x04u
#define SDSI_METER_OFF_PPIN		0x08u	/* u64 */
#define SDSI_METER_OFF_UNIT		0x10u	/* ms per count */
#define SDSI_METER_OFF_BUNDLE_LENGTH	0x14u	/* bytes of pairs */
#define SDSI_METER_OFF_RESERVED		0x18u	/* u64 */
#define SDSI_METER_OFF_MMRC_ENCODING	0x20u	/* u32 "MMRC" */
#define SDSI_METER_OFF_MMRC_COUNTER	0x24u
#define SDSI_METER_PAIR_SIZE		8u	/* u32 encoding, u32 counter */
#define SDSI_METER_PAIR_OFF_COUNTER	4u
#define SDSI_METER_MAX_PAIRS		507u
#define SDSI_METER_UNIT_MS_DEFAULT	1000u

/*
 * Four-character codes: the little-endian u32 equals c0<<24|c1<<16|c2<<8|c3,
 * so "MTDB" is stored as the bytes 42 44 54 4D.
 */
#define SDSI_FOURCC(a, b, c, d) \
	(((unsigned int)(unsigned char)(a) << 24) | \
	 ((unsigned int)(unsigned char)(b) << 16) | \
	 ((unsigned int)(unsigned char)(c) << 8) | \
	 ((unsigned int)(unsigned char)(d)))
#define SDSI_METER_SIGNATURE		SDSI_FOURCC('M', 'T', 'D', 'B')
#define SDSI_METER_MMRC			SDSI_FOURCC('M', 'M', 'R', 'C')

#endif /* SDSI_HW_H */
