// SPDX-License-Identifier: GPL-2.0-only
/*
 * The polling port between a shared window and the hardware model.
 *
 * Ordering matters because the driver's stores land in the window with no
 * notice.  x86 keeps stores in program order, so when a new control value
 * is visible every mailbox store the driver made before it is visible too.
 * A control write that starts a command (RUN_BUSY) follows its payload, so
 * the mailbox goes to the model first; any other control write (CPL) ends
 * a transaction, after which a changed mailbox qword can only be the next
 * ownership request, so the control goes first.
 *
 * What the port puts into a qword the driver may write (control qword 0,
 * V2 control qword 1, the sentinel) is published with a compare-and-swap
 * against what it last saw there, so a driver store that lands between
 * the port's look and its store is never lost: the CAS fails and the next
 * pass forwards the store.  copy_registers() and copy_mailbox() use plain
 * stores because the driver never stores there at those times: the
 * registers are read-only to it, and the mailbox is copied only while the
 * model shows RDY to an in-band owner, when the protocol gives the mailbox
 * to the hardware and the driver only reads it and writes control.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "sdsi_shmem.h"

static uint64_t window_load(const uint64_t *q)
{
	return __atomic_load_n(q, __ATOMIC_ACQUIRE);
}

static void window_store(uint64_t *q, uint64_t v)
{
	__atomic_store_n(q, v, __ATOMIC_RELEASE);
}

/* Replace *q by v unless the driver changed it since shadow was taken. */
static void window_publish(uint64_t *q, uint64_t *shadow, uint64_t v)
{
	uint64_t expected = *shadow;

	if (v == expected)
		return;
	if (__atomic_compare_exchange_n(q, &expected, v, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		*shadow = v;
}

static uint32_t mbox_qword0(const struct shmem_port *port)
{
	return port->mbox_off / 8;
}

static uint64_t next_sentinel(struct shmem_port *port)
{
	uint64_t x = port->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	port->rng = x;
	return x;
}

/* A fresh sentinel in mailbox qword 0, so the next request shows. */
static void plant_sentinel(struct shmem_port *port)
{
	uint32_t q0 = mbox_qword0(port);

	window_publish(&port->mmio[q0], &port->shadow[q0],
		       next_sentinel(port));
}

static void copy_registers(struct shmem_port *port)
{
	uint32_t off;

	for (off = port->regs_off; off < port->mmio_size; off += 8)
		window_store(&port->mmio[off / 8],
			     sdsi_model_read64(port->model, off));
}

/*
 * V2 control qword 1 (metering update period) is the model's to set, but a
 * driver store there may land at any time (shmem_port_sync() runs between
 * passes, not only before the driver sees the device).
 */
static void copy_control_high(struct shmem_port *port)
{
	if (port->mbox_off <= 8)
		return;
	window_publish(&port->mmio[1], &port->shadow[1],
		       sdsi_model_read64(port->model, 8));
}

static void copy_mailbox(struct shmem_port *port)
{
	uint32_t q0 = mbox_qword0(port);
	uint32_t i;

	for (i = 0; i < SDSI_MBOX_SIZE / 8; i++) {
		/* The port's copy, not a driver read: unchecked. */
		port->shadow[q0 + i] =
			sdsi_model_peek64(port->model, port->mbox_off + 8 * i);
		window_store(&port->mmio[q0 + i], port->shadow[q0 + i]);
	}
}

/* Driver stores to control qword 1 and the mailbox, in address order. */
static bool forward_mailbox(struct shmem_port *port)
{
	uint32_t q0 = mbox_qword0(port);
	bool moved = false;
	uint32_t i;

	for (i = 1; i < port->regs_off / 8; i++) {
		uint64_t v = window_load(&port->mmio[i]);

		if (v == port->shadow[i])
			continue;
		port->shadow[i] = v;
		if (i == q0 && !port->engaged)
			port->requested = true;
		sdsi_model_write64(port->model, 8 * i, v);
		moved = true;
	}
	return moved;
}

static void forward_control(struct shmem_port *port, uint64_t ctrl)
{
	port->shadow[0] = ctrl;
	sdsi_model_write64(port->model, 0, ctrl);
}

/*
 * Show the model's control register.  Reading it is the model's notion of
 * the agent looking at the mailbox, so this runs only after a driver store,
 * while a transaction is in progress, or on request.  A packet and the
 * registers it changed are in the window before the RDY that announces it.
 */
static bool show_model(struct shmem_port *port, bool driver_wrote)
{
	uint64_t ctrl = sdsi_model_read64(port->model, 0);
	uint32_t owner = (uint32_t)((ctrl & SDSI_CTRL_OWNER_MASK) >>
				    SDSI_CTRL_OWNER_SHIFT);
	bool was_engaged = port->engaged;
	bool changed = ctrl != port->model_ctrl;

	port->engaged = owner == SDSI_OWNER_INBAND;
	if (port->engaged) {
		port->requested = false;
		/* Packets 2 and 3 of a read carry the same control value. */
		if ((ctrl & SDSI_CTRL_RDY) && (changed || driver_wrote)) {
			copy_mailbox(port);
			copy_registers(port);
		}
	} else {
		/*
		 * The mailbox as the silicon left it: an answer the driver
		 * never saw (no RDY) still overwrote it, and a driver store
		 * equal to the port's stale copy would otherwise never reach
		 * the model (an SPDM request repeated after a timeout).
		 */
		if (was_engaged) {
			copy_mailbox(port);
			copy_registers(port);
		}
		/* Turned away or done: the driver's next request must show. */
		if (was_engaged || port->requested)
			plant_sentinel(port);
		port->requested = false;
	}
	window_publish(&port->mmio[0], &port->shadow[0], ctrl);
	port->model_ctrl = ctrl;
	return changed;
}

int shmem_port_attach(struct shmem_port *port, struct sdsi_model *model,
		      void *slot)
{
	return shmem_port_attach_at(port, model, slot, -1, 0);
}

int shmem_port_attach_at(struct shmem_port *port, struct sdsi_model *model,
			 void *slot, int tbir, uint32_t slot_offset)
{
	uint32_t table[4];
	uint64_t *disc = slot;
	uint32_t size = sdsi_model_mmio_size(model);
	uint32_t i;

	if (SDSI_WINDOW_MMIO_OFFSET + size > SDSI_WINDOW_SLOT_SIZE || size % 8)
		return -EINVAL;
	memset(port, 0, sizeof(*port));
	port->model = model;
	port->mmio = (uint64_t *)((char *)slot + SDSI_WINDOW_MMIO_OFFSET);
	port->mmio_size = size;
	port->mbox_off = sdsi_layout_ctrl_size(sdsi_guid_layout_or_v1(sdsi_model_guid(model)));
	port->regs_off = port->mbox_off + SDSI_MBOX_SIZE;
	if (getrandom(&port->rng, sizeof(port->rng), 0) != sizeof(port->rng))
		port->rng = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
	port->rng |= 1;	/* xorshift never leaves zero */

	for (i = 0; i < port->regs_off / 8; i++)
		window_store(&port->mmio[i], 0);
	copy_registers(port);
	copy_control_high(port);
	port->model_ctrl = sdsi_model_read64(model, 0);
	port->shadow[0] = port->model_ctrl;
	window_store(&port->mmio[0], port->model_ctrl);
	plant_sentinel(port);

	/* Last, so that a driver probing early finds a complete device. */
	if (tbir < 0)
		sdsi_model_discovery(model, SDSI_WINDOW_MMIO_OFFSET - SDSI_DISC_BYTES,
				     table);
	else
		sdsi_model_discovery_barid(model, (uint32_t)tbir,
					   slot_offset + SDSI_WINDOW_MMIO_OFFSET, table);
	window_store(&disc[1], (uint64_t)table[2] | (uint64_t)table[3] << 32);
	window_store(&disc[0], (uint64_t)table[0] | (uint64_t)table[1] << 32);
	return 0;
}

bool shmem_port_poll(struct shmem_port *port)
{
	uint64_t ctrl = window_load(&port->mmio[0]);
	bool moved, wrote_control = ctrl != port->shadow[0];

	if (wrote_control) {
		if (ctrl & SDSI_CTRL_RUN_BUSY) {
			forward_mailbox(port);
			forward_control(port, ctrl);
		} else {
			forward_control(port, ctrl);
			forward_mailbox(port);
		}
		moved = true;
	} else {
		moved = forward_mailbox(port);
	}
	if (moved || port->engaged || port->requested)
		moved |= show_model(port, wrote_control);
	return moved;
}

bool shmem_port_busy(const struct shmem_port *port)
{
	return port->engaged || port->requested;
}

bool shmem_port_timed(const struct shmem_port *port)
{
	return port->engaged && !(port->model_ctrl & SDSI_CTRL_RDY) &&
	       (port->model_ctrl & (SDSI_CTRL_RUN_BUSY | SDSI_CTRL_CPL));
}

void shmem_port_sync(struct shmem_port *port)
{
	copy_registers(port);
	copy_control_high(port);
	show_model(port, false);
}
