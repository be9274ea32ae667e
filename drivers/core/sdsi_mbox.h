/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver core: the On Demand mailbox protocol exactly as the current Linux
 * driver drives it (docs/interface.md §2.6 and §9), over a small operations
 * seam.  The same file builds in user space (FUSE driver, tests) and in a
 * kernel module.  It is written as kernel code (u32/u64, the kernel's
 * polling and lock assertion); the portable build gets the same names from
 * the #else branches below and in sdsi_mbox.c.  No locking here: the caller
 * holds the per-socket lock, as the kernel driver holds its mutex, and the
 * kernel build asserts it (lockdep).
 */
#ifndef SDSI_DRIVERS_CORE_MBOX_H
#define SDSI_DRIVERS_CORE_MBOX_H

#ifdef __KERNEL__
#include <linux/types.h>

struct mutex;
#else
#include <stdbool.h>
#include <stddef.h>

#include <sdsi/ktypes.h>
#endif

#include <sdsi/abi.h>

/* The level of a diagnostic: Linux's dev_err() or dev_warn(). */
enum sdsi_mbox_level {
	SDSI_MBOX_ERR,
	SDSI_MBOX_WARN,
};

/* Transport seam: MMIO offsets are bytes from the start of the MMIO region. */
struct sdsi_mbox_ops {
	u64 (*read64)(void *ctx, u32 offset);
	void (*write64)(void *ctx, u32 offset, u64 value);
#ifndef __KERNEL__
	/*
	 * Sleep at least us, and at most about twice that (nanosleep()).
	 * Between two polls the core passes half the poll period (see
	 * poll_us).  The kernel build sleeps and polls with the kernel's own
	 * fsleep() and read_poll_timeout() instead.
	 */
	void (*sleep_us)(void *ctx, u32 us);
	u64 (*now_us)(void *ctx);		/* monotonic */
#endif
	/*
	 * Optional: one line of diagnostics, without a newline, in the Linux
	 * driver's words and at its level: "Invalid packet size", "Packet
	 * size too large" and "Exceeded read attempts" are errors, "Read
	 * count N differs from expected count M" a warning.  The kernel glue
	 * prints them with dev_err() and dev_warn().
	 */
	void (*log)(void *ctx, enum sdsi_mbox_level level, const char *msg);
};

struct sdsi_mbox_params {
	/*
	 * 100: the period of Linux's readq_poll_timeout(), whose sleeps end
	 * at most this long after the previous read; sleep_us gets half.
	 */
	u32 poll_us;
	u32 acquire_timeout_us;		/* 1000 */
	u32 acquire_retries;		/* 5 */
	u32 acquire_retry_delay_ms;	/* 500 */
	u32 rdy_timeout_us;		/* 500000 */
	enum sdsi_abi flavor;		/* the kernel build has CURRENT only */
};

struct sdsi_mbox {
	const struct sdsi_mbox_ops *ops;
	void *ctx;
	struct sdsi_mbox_params params;
	u32 guid;
	u32 control_off;	/* always 0 */
	u32 mbox_off;		/* control size */
	u32 regs_off;		/* mbox_off + 1024 */
	u32 regs_size;		/* 72 (V1) or 80 (V2) */
#ifdef __KERNEL__
	/* The caller's lock around transactions, for lockdep_assert_held(). */
	struct mutex *lock;
#endif
};

/* Linux's defaults (section 2.6, "Timing constants"). */
void sdsi_mbox_default_params(struct sdsi_mbox_params *params);

/*
 * Bind the protocol to a device.  CURRENT rejects a GUID other than V1/V2
 * with -ENODEV ("Unrecognized GUID"); EARLY assumes the V1 layout for any GUID.
 * params NULL selects the defaults.  -EINVAL when an operation other than
 * log is missing, poll_us is 0, acquire_retry_delay_ms * 1000 does not fit
 * 32 bits, or the flavour is unknown (EARLY is, in the kernel build).  On
 * error *mb is left as it was.
 */
int sdsi_mbox_init(struct sdsi_mbox *mb, u32 guid,
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
int sdsi_mbox_read(struct sdsi_mbox *mb, u64 command, bool meter_current,
		   void *buf, size_t *len);

/*
 * Write command (provision AKC 0x04 / CAP 0x08).  -EOVERFLOW when len > 1016
 * (len 0 sends the command qword alone, as Linux would), -EINVAL for a NULL
 * payload with len > 0, both before any device access; then the mailbox
 * errors of sdsi_mbox_read.  One CPL ends the transaction, whatever its
 * outcome, once the mailbox is ours.  The IB lock is the caller's check (it is
 * a file-level EPERM in Linux).
 */
int sdsi_mbox_write(struct sdsi_mbox *mb, u64 command,
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
