// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attestation transport of the emulation: the file sdsi-emu run binds
 * at /dev/isdsiN (docs/interface.md, "The attestation transport").  Linux's
 * would be a misc device with two ioctls, whose numbers encode a pointer's
 * size, so FUSE cannot carry them (it passes only ioctls whose number says
 * how many bytes to copy).  Here one write() of a struct sdsi_spdm_command
 * sends the request and one read() on the same open file returns the answer
 * in the same form; the mailbox work is the driver core's
 * sdsi_mbox_exchange(), as in the kernel, and its errors are the ioctl's.
 *
 * The file sits in the root of the tree under the name isdsiN, which only
 * the driver's own process finds (fusedrv_tree.c, lookup), so the sysfs
 * tree shows nothing more than Linux's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fusedrv_internal.h"
#include "sdsi/spdm_ioctl.h"

/* Where an open file's transaction is. */
enum spdm_txn_state {
	SPDM_TXN_IDLE,		/* a write may send a request */
	SPDM_TXN_ANSWERED,	/* an answer waits for its read */
};

struct fusedrv_spdm_txn {
	enum spdm_txn_state state;
	size_t len;			/* the answer's SPDM length */
	uint8_t answer[SDSI_READ_MSG_MAX];
};

size_t fusedrv_spdm_txn_size(void)
{
	return sizeof(struct fusedrv_spdm_txn);
}

bool fusedrv_spdm_visible(const struct sdsi_fusedrv *drv, const struct fusedrv_socket *s)
{
	sdsi_assert_held_either(&s->state_lock, &s->mbox_lock);
	/* Intel posted the transport for the current driver; 5.18-6.1's had none */
	return drv->abi == SDSI_ABI_CURRENT && s->bound &&
	       (s->features & SDSI_FEATURE_ATTESTATION);
}

int sdsi_fusedrv_spdm_name(struct sdsi_fusedrv *drv, unsigned int socket,
			   char *buf, size_t len)
{
	struct fusedrv_socket *s = fusedrv_socket_at(drv, socket);
	bool visible = false;

	if (s) {
		sdsi_lock_take(&s->state_lock);
		visible = fusedrv_spdm_visible(drv, s);
		sdsi_lock_release(&s->state_lock);
	}
	if (!visible)
		return -ENODEV;
	snprintf(buf, len, SDSI_SPDM_DEVICE_PREFIX "%u", socket);
	return 0;
}

/* Caller holds mbox_lock: the transport went away with the binding. */
static bool spdm_handle_live(const struct sdsi_fusedrv *drv, const struct fusedrv_socket *s,
			     const struct fusedrv_handle *h)
{
	sdsi_assert_held(&s->mbox_lock);
	return fusedrv_spdm_visible(drv, s) && s->spdm_gen == h->gen;
}

/*
 * One write is one request: a struct sdsi_spdm_command cut after its
 * message (or written whole).  The checks and their errnos, in order:
 * ENODEV (no transport any more), EALREADY (an answer waits to be read on
 * this file), EINVAL (fewer than 4 bytes, more than the structure, or a
 * size of 0), EOVERFLOW (a size over 1008, the ioctl's check), EINVAL (a
 * size larger than the bytes written after it); then the exchange's own
 * errors (EBUSY, ETIMEDOUT, EIO, EPROTO), which leave no answer behind.
 */
long fusedrv_spdm_write(struct sdsi_fusedrv *drv, struct fusedrv_handle *h,
			const char *buf, size_t size)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	struct fusedrv_spdm_txn *txn = h->spdm;
	uint32_t req_len;
	long ret;

	sdsi_lock_take(&s->mbox_lock);
	if (!spdm_handle_live(drv, s, h)) {
		ret = -ENODEV;
		goto out;
	}
	if (txn->state != SPDM_TXN_IDLE) {
		ret = -EALREADY;
		goto out;
	}
	if (size < SDSI_SPDM_COMMAND_HDR || size > sizeof(struct sdsi_spdm_command)) {
		ret = -EINVAL;
		goto out;
	}
	memcpy(&req_len, buf, sizeof(req_len));	/* host order, as the ioctl's */
	if (req_len == 0)
		ret = -EINVAL;
	else if (req_len > SDSI_SPDM_REQUEST_MAX)
		ret = -EOVERFLOW;
	else if (req_len > size - SDSI_SPDM_COMMAND_HDR)
		ret = -EINVAL;
	else
		ret = sdsi_mbox_exchange(&s->mb, buf + SDSI_SPDM_COMMAND_HDR, req_len,
					 txn->answer, &txn->len);
	if (ret == 0) {
		txn->state = SPDM_TXN_ANSWERED;
		ret = (long)size;
	}
out:
	sdsi_lock_release(&s->mbox_lock);
	return ret;
}

/*
 * The answer as a struct sdsi_spdm_command cut after its message: ENODEV
 * once the transport is gone, ENODATA with no answer waiting (no write, or
 * it failed, or the answer was read), EMSGSIZE when size cannot hold it
 * (the answer stays for a larger read).
 */
void fusedrv_spdm_read(fuse_req_t req, struct sdsi_fusedrv *drv,
		       struct fusedrv_handle *h, size_t size)
{
	struct fusedrv_socket *s = &drv->sockets[h->node.socket];
	struct fusedrv_spdm_txn *txn = h->spdm;
	uint8_t out[sizeof(struct sdsi_spdm_command)];
	uint32_t len32;
	size_t total = 0;
	int err = 0;

	sdsi_lock_take(&s->mbox_lock);
	if (!spdm_handle_live(drv, s, h)) {
		err = ENODEV;
	} else if (txn->state != SPDM_TXN_ANSWERED) {
		err = ENODATA;
	} else if (size < SDSI_SPDM_COMMAND_HDR + txn->len) {
		err = EMSGSIZE;
	} else {
		len32 = (uint32_t)txn->len;
		memcpy(out, &len32, sizeof(len32));
		memcpy(out + SDSI_SPDM_COMMAND_HDR, txn->answer, txn->len);
		total = SDSI_SPDM_COMMAND_HDR + txn->len;
		txn->state = SPDM_TXN_IDLE;
	}
	sdsi_lock_release(&s->mbox_lock);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, (const char *)out, total);
}
