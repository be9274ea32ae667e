/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The shared window: memory that sdsi-shmem plays as the hardware and that
 * the kernel test module (rig/sdsi_window.c) presents to Linux's
 * intel_sdsi driver, one slot per socket followed by one control page.
 *
 * Socket N's slot starts at N * SDSI_WINDOW_SLOT_SIZE: the 16-byte discovery
 * table (hw.h, SDSI_DISC_BYTES) at the slot's start and the MMIO region
 * (control, mailbox, registers) SDSI_WINDOW_MMIO_OFFSET further.  The control
 * page (window/ctlpage.h says how it is used) follows the last slot, at
 * sockets * SDSI_WINDOW_SLOT_SIZE.  Little-endian u32 words.
 *
 * Integer constants only: the kernel module builds with this header too,
 * and tests/sdsikit/layout.py is checked against it.
 */
#ifndef SDSI_WINDOW_H
#define SDSI_WINDOW_H

#define SDSI_WINDOW_SLOT_SIZE		8192u	/* window bytes per socket */
#define SDSI_WINDOW_MMIO_OFFSET		4096u	/* MMIO region, from the slot start */
#define SDSI_WINDOW_MAX_SOCKETS		8u	/* devices the kernel module creates */
/*
 * Past the largest window (eight slots and the control page), inside the
 * 1 MiB the rig reserves (rig/rig-boot.sh): the discovery tables of the
 * bad entries rig/sdsi_bad_disc.c offers, a page each.
 */
#define SDSI_WINDOW_BAD_OFFSET		(SDSI_WINDOW_MAX_SOCKETS * SDSI_WINDOW_SLOT_SIZE + \
					 SDSI_CTLPAGE_SIZE)

#define SDSI_CTLPAGE_SIZE		4096u
#define SDSI_CTLPAGE_MAGIC		0x43534453u	/* "SDSC" */
#define SDSI_CTLPAGE_VERSION		1u
#define SDSI_CTLPAGE_TEXT		256u	/* request and reply text, NUL included */

/* Control page words, from the page's start. */
#define SDSI_CTLPAGE_OFF_MAGIC		0x00u	/* set once every socket is laid out */
#define SDSI_CTLPAGE_OFF_VERSION	0x04u
#define SDSI_CTLPAGE_OFF_REQUEST	0x08u	/* bumped after writing the request */
#define SDSI_CTLPAGE_OFF_REPLY		0x0cu	/* set to request after the reply */
#define SDSI_CTLPAGE_OFF_SOCKETS	0x10u	/* slots before the page */
#define SDSI_CTLPAGE_OFF_DOORBELL	0x14u	/* nonzero: the server answers rings */
#define SDSI_CTLPAGE_OFF_RING		0x18u	/* bumped after a driver store */
#define SDSI_CTLPAGE_OFF_ANSWERED	0x1cu	/* last ring acted on */
#define SDSI_CTLPAGE_OFF_TIMED		0x20u	/* nonzero: an answer waits on time */
#define SDSI_CTLPAGE_OFF_REQUEST_TEXT	0x40u
#define SDSI_CTLPAGE_OFF_REPLY_TEXT	(SDSI_CTLPAGE_OFF_REQUEST_TEXT + SDSI_CTLPAGE_TEXT)

#endif /* SDSI_WINDOW_H */
