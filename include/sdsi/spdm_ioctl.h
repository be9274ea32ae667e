/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The attestation transport's user ABI: /dev/isdsiN, one per socket whose
 * ENABLED_FEATURES has bit 12, carrying one SPDM 1.0 request and its answer
 * at a time (docs/interface.md, "The attestation transport").  The numbers
 * are those of Intel's posted Linux series (V4, 2024, never merged), so a
 * program written for that series works unchanged: magic 0xFC, INFO number
 * 0 read, COMMAND number 1 read-write.  That series wrote a pointer type
 * into _IOR/_IOWR, so the size field of both numbers is a pointer's size
 * (8 on 64-bit machines: 0x8008FC00 and 0xC008FC01), not the structure's;
 * the driver copies the whole structure regardless.  We write the same
 * pointer types so that every architecture gets the same numbers.
 *
 * The emulation (sdsi-emu run) cannot serve these numbers through FUSE, so
 * its /dev/isdsiN is a regular file on which one write() of a struct
 * sdsi_spdm_command (size, then that many message bytes) and one read() of
 * the answer in the same form make the transaction; libsdsi's
 * sdsi_spdm_transact() hides which one it is talking to.
 */
#ifndef SDSI_SPDM_IOCTL_H
#define SDSI_SPDM_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SDSI_SPDM_DEVICE_DIR		"/dev"
#define SDSI_SPDM_DEVICE_PREFIX		"isdsi"	/* /dev/isdsiN */

#define SDSI_IF_MAGIC			0xFC
/* The message area of struct sdsi_spdm_command. */
#define SDSI_SPDM_MESSAGE_MAX		4096u
/* What the mailbox carries (hw.h: SDSI_ATTEST_REQUEST_MAX, _RESPONSE_MAX). */
#define SDSI_SPDM_REQUEST_MAX		1008u
#define SDSI_SPDM_RESPONSE_MAX		4088u
/* driver_version of SDSI_IF_SPDM_INFO */
#define SDSI_SPDM_DRIVER_VERSION	1u

struct sdsi_spdm_info {
	__u32 api_version;		/* the device's GUID */
	__u16 driver_version;		/* SDSI_SPDM_DRIVER_VERSION */
	__u16 dev_no;			/* N of /dev/isdsiN */
	__u16 max_request_size;		/* SDSI_SPDM_REQUEST_MAX */
	__u16 max_response_size;	/* SDSI_SPDM_RESPONSE_MAX */
};

/* In: the request's length and bytes.  Out: the response's. */
struct sdsi_spdm_command {
	__u32 size;
	__u8 message[SDSI_SPDM_MESSAGE_MAX];
};

/* The size field is a pointer's, as in Intel's header (see above). */
#define SDSI_IF_SPDM_INFO	_IOR(SDSI_IF_MAGIC, 0, struct sdsi_spdm_info *)
#define SDSI_IF_SPDM_COMMAND	_IOWR(SDSI_IF_MAGIC, 1, struct sdsi_spdm_command *)

/* Bytes of a struct sdsi_spdm_command before the message. */
#define SDSI_SPDM_COMMAND_HDR		4u

#endif /* SDSI_SPDM_IOCTL_H */
