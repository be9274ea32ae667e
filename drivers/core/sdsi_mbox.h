/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver core: the On Demand mailbox protocol exactly as the current Linux
 * driver drives it (docs/interface.md §2.6 and §9), over a small operations
 * seam.  The same file builds in user space (FUSE driver, tests) and in a
 * kernel module, so it uses only what both offer: fixed-width integers,
 * memcpy/memset and errno constants.  No locking here: the caller holds the
 * per-socket lock, as the kernel driver holds its mutex.
 */
#ifndef SDSI_DRIVERS_CORE_MBOX_H
#define SDSI_DRIVERS_CORE_MBOX_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#include <sdsi/abi.h>

/* Transport seam: MMIO offsets are bytes from the start of the MMIO region. */
struct sdsi_mbox_ops {
	uint64_t (*read64)(void *ctx, uint32_t offset);
	void (*write64)(void *ctx, uint32_t offset, uint64_t value);
	/*
	 * Sleep at least us, and at most about twice that: fsleep() in the
	 * kernel, nanosleep() outside.  Between two polls the core passes
	 * half the poll period (see poll_us).
	 */
	void (*sleep_us)(void *ctx, uint32_t us);
	uint64_t (*now_us)(void *ctx);		/* monotonic */
	/*
	 * Optional: one line of diagnostics, without a newline, in the Linux
	 * driver's words ("Invalid packet size", "Packet size too large",
	 * "Exceeded read attempts", "Read count N differs from expected
	 * count M"), which the kernel glue prints with dev_warn().
	 */
	void (*warn)(void *ctx, const char *msg);
};


struct sdsi_mbox_params {
	/*
	 * 100: the period of Linux's readq_poll_timeout(), whose sleeps end
	 * at most this long after the previous read; sleep_us gets half.
	 */
	uint32_t poll_us;
	uint32_t acquire_timeout_us;	/* 1000 */
	uint32_t acquire_retries;	/* 5 */
	uint32_t acquire_retry_delay_ms;/* 500 */
	uint32_t rdy_timeout_us;	/* 500000 */
	enum sdsi_abi flavor;
};

struct sdsi_mbox {
	const struct sdsi_mbox_ops *ops;
	void *ctx;
	struct sdsi_mbox_params params;
	uint32_t guid;
	uint32_t control_off;	/* always 0 */
	uint32_t mbox_off;	/* control size */
	uint32_t regs_off;	/* mbox_off + 1024 */
	uint32_t regs_size;	/* 72 (V1) or 80 (V2) */
};

/* Linux's defaults (section 2.6, "Timing constants"). */
void sdsi_mbox_default_params(struct sdsi_mbox_params *params);

/*
 * Bind the protocol to a device.  CURRENT rejects a GUID other than V1/V2
 * with -ENODEV ("Unrecognized GUID"); EARLY assumes the V1 layout for any GUID.
 * params NULL selects the defaults.  -EINVAL when an operation other than
 * warn is missing, poll_us is 0, acquire_retry_delay_ms * 1000 does not fit
 * 32 bits, or the flavour is unknown.  On error *mb is left as it was.
 */
int sdsi_mbox_init(struct sdsi_mbox *mb, uint32_t guid,
		   const struct sdsi_mbox_ops *ops, void *ctx,
		   const struct sdsi_mbox_params *params);

/* Control bit 32: provisioning must be refused with -EPERM (CURRENT only). */
bool sdsi_mbox_iblocked(const struct sdsi_mbox *mb);

/*
 * Read command (state certificate 0x10, meter certificate 0x14; meter_current
 * sets control bit 33).  buf must hold SDSI_READ_MSG_MAX bytes.  On success
 * returns 0 and sets *len to the summed packet sizes.  Errors: -EBUSY,
 * -ETIMEDOUT, -EIO, -EPROTO (section 9.2); -EINVAL for a NULL buf or len,
 * before any device access.  Once the mailbox is ours, each RDY is answered
 * by exactly one CPL, on every path (none when acquiring it failed).
 */
int sdsi_mbox_read(struct sdsi_mbox *mb, uint64_t command, bool meter_current,
		   void *buf, size_t *len);

/*
 * Write command (provision AKC 0x04 / CAP 0x08).  -EOVERFLOW when len > 1016
 * (len 0 sends the command qword alone, as Linux would), -EINVAL for a NULL
 * payload with len > 0, both before any device access; then the mailbox
 * errors of sdsi_mbox_read.  One CPL ends the transaction, whatever its
 * outcome, once the mailbox is ours.  The IB lock is the caller's check (it is
 * a file-level EPERM in Linux).
 */
int sdsi_mbox_write(struct sdsi_mbox *mb, uint64_t command,
		    const void *payload, size_t len);

/*
 * ATTESTATION (0x1012): one SPDM exchange.  The request (1..1008 bytes) is
 * written as attestation.rst frames it (padded to 8, its length, the
 * command; PACKET_SIZE = MSG_SIZE = the total) and the answer read back in
 * up to four packets into rsp, which must hold SDSI_READ_MSG_MAX bytes;
 * on success *rsp_len is the SPDM response's length (its bytes at rsp).
 * -EOVERFLOW for a request over 1008 bytes and -EINVAL for an empty or NULL
 * one, before any device access; -EIO for an answer whose frame is wrong
 * (not a multiple of 8, shorter than 8, or a length qword that exceeds it
 * or leaves 8 or more bytes of padding); else the mailbox errors of
 * sdsi_mbox_read.
 */
int sdsi_mbox_exchange(struct sdsi_mbox *mb, const void *req, size_t len,
		       void *rsp, size_t *rsp_len);

/* Copy the register file (regs_size bytes) with 64-bit reads. */
void sdsi_mbox_read_registers(const struct sdsi_mbox *mb, void *buf);

#endif /* SDSI_DRIVERS_CORE_MBOX_H */
