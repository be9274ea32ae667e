// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FUSE driver's window backend (backends/window/window_backend.c) against a real
 * window: a temporary file whose slot 0 a real sdsi-shmem port lays out
 * for a real model, served on the doorbell by a thread doing what
 * sdsi-shmem --doorbell does, and whose slot 1 the tests write by hand to
 * try the discovery table's bounds.  Also the window's refusals and the
 * FILE[:OFFSET] syntax, each bound on both sides.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "window/doorbell.h"
#include "shmem/sdsi_shmem.h"
#include "backends/window/window_backend.h"
#include "util/util_time.h"

#define SOCKETS		2u
#define SLOT1_REGION	1024u	/* bytes of the hand-made region of slot 1 */

struct rig {
	char path[64];
	size_t bytes;
	char *server_view;		/* sdsi-shmem's mapping */
	struct window_ctlpage *page;
	struct sdsi_model *model;
	struct shmem_port port;
	pthread_t thread;
	int stop;
	struct window_backend win;
};

/* What sdsi-shmem --doorbell does: a pass for each ring, then the answer. */
static void *serve_doorbell(void *arg)
{
	struct rig *r = arg;
	uint32_t answered = __atomic_load_n(&r->page->answered, __ATOMIC_ACQUIRE);

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		uint32_t ring = window_doorbell_wait(r->page, answered, 1000);

		if (ring == answered)
			continue;
		shmem_port_poll(&r->port);
		window_doorbell_set_timed(r->page, shmem_port_timed(&r->port));
		window_doorbell_answer(r->page, ring);
		answered = ring;
	}
	return NULL;
}

static int rig_up(void **state)
{
	struct sdsi_model_config cfg = { .guid = SDSI_GUID_V2, .ppin = 0x77,
					 .features = SDSI_MODEL_DEFAULT_FEATURES };
	struct rig *r = calloc(1, sizeof(*r));
	char err[256];
	int fd;

	assert_non_null(r);
	strcpy(r->path, "/tmp/sdsi-window-backend-XXXXXX");
	fd = mkstemp(r->path);
	assert_true(fd >= 0);
	r->bytes = (size_t)window_ctlpage_offset(SOCKETS) + SDSI_CTLPAGE_SIZE;
	assert_int_equal(ftruncate(fd, (off_t)r->bytes), 0);
	r->server_view = mmap(NULL, r->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	assert_true(r->server_view != MAP_FAILED);
	assert_int_equal(sdsi_model_create(&cfg, &r->model, err, sizeof(err)), 0);
	assert_int_equal(shmem_port_attach(&r->port, r->model, r->server_view), 0);
	r->page = (struct window_ctlpage *)(r->server_view + window_ctlpage_offset(SOCKETS));
	r->page->doorbell = 1;
	window_ctlpage_open(r->page, SOCKETS);
	assert_int_equal(pthread_create(&r->thread, NULL, serve_doorbell, r), 0);
	if (window_backend_open(&r->win, r->path, 0, SOCKETS, 0, err, sizeof(err)))
		fail_msg("%s", err);
	*state = r;
	return 0;
}

static int rig_down(void **state)
{
	struct rig *r = *state;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	pthread_join(r->thread, NULL);
	window_backend_close(&r->win);
	sdsi_model_destroy(r->model);
	munmap(r->server_view, r->bytes);
	unlink(r->path);
	free(r);
	return 0;
}

static void real_sleep_us(void *ctx, uint32_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };

	nanosleep(&ts, NULL);
}

static uint64_t real_now_us(void *ctx)
{
	return util_now_us();
}

/* The driver core over socket 0's backend, with real time as the FUSE driver has it. */
static void bind_core(struct rig *r, struct sdsi_mbox *mb, struct sdsi_mbox_ops *ops)
{
	struct sdsi_fusedrv_backend b = window_backend_for(&r->win, 0);
	uint32_t guid = 0;

	assert_int_equal(b.discover(b.ctx, &guid), 0);
	assert_int_equal(guid, SDSI_GUID_V2);
	*ops = *b.ops;
	ops->sleep_us = real_sleep_us;
	ops->now_us = real_now_us;
	assert_int_equal(sdsi_mbox_init(mb, guid, ops, b.ctx, NULL), 0);
}

static void test_transactions_through_the_doorbell(void **state)
{
	struct rig *r = *state;
	static uint8_t buf[SDSI_READ_MSG_MAX];
	uint8_t regs[SDSI_REGS_SIZE_V2];
	struct sdsi_mbox_ops ops;
	struct sdsi_mbox mb;
	uint64_t t0;
	size_t len = 0;
	uint64_t ppin;

	bind_core(r, &mb, &ops);
	sdsi_mbox_read_registers(&mb, regs);
	memcpy(&ppin, regs + SDSI_REG_PPIN, sizeof(ppin));
	assert_int_equal(ppin, 0x77);
	assert_int_equal(sdsi_mbox_read(&mb, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_true(len > 0);
	/* No root key: the model refuses the AKC, after taking it whole. */
	assert_int_equal(sdsi_mbox_write(&mb, SDSI_CMD_PROVISION_AKC, buf, 64), -EIO);
	/*
	 * An answer that waits on time: only the rings before the loads
	 * bring RDY, since no store comes while the core polls.
	 */
	assert_int_equal(sdsi_model_fault_set(r->model, SDSI_FAULT_RDY_LATENCY, 3000, 1), 0);
	t0 = util_now_us();
	assert_int_equal(sdsi_mbox_read(&mb, SDSI_CMD_READ_STATE, false, buf, &len), 0);
	assert_true(util_now_us() - t0 >= 3000);
}

/* Slot 1 by hand: a LOCAL On Demand table, region of `size` at `off`. */
static void write_table(struct rig *r, uint32_t access, uint32_t size, uint32_t off)
{
	uint64_t *disc = (uint64_t *)(r->server_view + SDSI_WINDOW_SLOT_SIZE);
	uint32_t d0 = access | SDSI_DISC_TYPE << SDSI_DISC_TYPE_SHIFT |
		      (size / 4) << SDSI_DISC_SIZE_SHIFT;

	disc[0] = d0 | (uint64_t)0x12345678u << 32;
	disc[1] = off;
}

static void test_discovery_bounds(void **state)
{
	struct rig *r = *state;
	struct sdsi_fusedrv_backend b = window_backend_for(&r->win, 1);
	/* The region ends exactly at the end of the slot. */
	uint32_t fit = SDSI_WINDOW_SLOT_SIZE - SDSI_DISC_BYTES - SLOT1_REGION;
	char *region = r->server_view + SDSI_WINDOW_SLOT_SIZE + SDSI_DISC_BYTES + fit;
	uint32_t guid = 0;

	assert_int_equal(b.discover(b.ctx, &guid), -ENODEV);	/* nothing laid out */
	write_table(r, SDSI_DISC_ACCESS_LOCAL, SLOT1_REGION, fit);
	assert_int_equal(b.discover(b.ctx, &guid), 0);
	assert_int_equal(guid, 0x12345678u);
	/* The last qword of the region is reached; the next is not. */
	b.ops->write64(b.ctx, SLOT1_REGION - 8, 0xabcdef);
	assert_int_equal(*(uint64_t *)(region + SLOT1_REGION - 8), 0xabcdef);
	assert_int_equal(b.ops->read64(b.ctx, SLOT1_REGION - 8), 0xabcdef);
	assert_int_equal(b.ops->read64(b.ctx, SLOT1_REGION), UINT64_MAX);
	assert_int_equal(b.ops->read64(b.ctx, 4), UINT64_MAX);	/* unaligned */
	/* One qword further, or one qword larger, leaves the slot. */
	write_table(r, SDSI_DISC_ACCESS_LOCAL, SLOT1_REGION, fit + 8);
	assert_int_equal(b.discover(b.ctx, &guid), -ENODEV);
	write_table(r, SDSI_DISC_ACCESS_LOCAL, SLOT1_REGION + 8, fit);
	assert_int_equal(b.discover(b.ctx, &guid), -ENODEV);
	/* Only LOCAL access: a BAR-relative table names memory we cannot reach. */
	write_table(r, 2, SLOT1_REGION, fit);
	assert_int_equal(b.discover(b.ctx, &guid), -ENODEV);
}

static void test_open_refusals(void **state)
{
	struct rig *r = *state;
	struct window_backend w;
	char err[512];

	assert_int_equal(window_backend_open(&w, r->path, 0, 0, 0, err, sizeof(err)), -EINVAL);
	assert_int_equal(window_backend_open(&w, r->path, 0, WINDOW_BACKEND_MAX_SOCKETS + 1, 0,
					 err, sizeof(err)), -EINVAL);
	/* One socket: its page would be slot 1, where no server announced one. */
	assert_int_equal(window_backend_open(&w, r->path, 0, 1, 0, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, r->path));
	/* Three: the file ends before their page. */
	assert_int_equal(window_backend_open(&w, r->path, 0, 3, 0, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "too short"));
	assert_int_equal(window_backend_open(&w, "/nonexistent/window", 0, 1, 0, err,
					 sizeof(err)), -ENOENT);
	/* The page moved to where a 3-socket window has it: counts disagree. */
	r->page->sockets = 3;
	assert_int_equal(window_backend_open(&w, r->path, 0, SOCKETS, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "3 sockets"));
	r->page->sockets = SOCKETS;
	assert_int_equal(window_backend_open(&w, r->path, 0, SOCKETS, 0, err, sizeof(err)), 0);
	window_backend_close(&w);
}

static void test_parse(void **state)
{
	char path[8], err[256];
	uint64_t off = 1;

	assert_int_equal(window_backend_parse("w", path, sizeof(path), &off, err, sizeof(err)), 0);
	assert_string_equal(path, "w");
	assert_int_equal(off, 0);
	assert_int_equal(window_backend_parse("w:4096", path, sizeof(path), &off, err, sizeof(err)), 0);
	assert_int_equal(off, 4096);
	assert_int_equal(window_backend_parse("w:0x2000", path, sizeof(path), &off, err,
					  sizeof(err)), 0);
	assert_int_equal(off, 0x2000);
	assert_int_equal(window_backend_parse("a:b:0", path, sizeof(path), &off, err, sizeof(err)), 0);
	assert_string_equal(path, "a:b");
	assert_int_equal(window_backend_parse("w:4097", path, sizeof(path), &off, err,
					  sizeof(err)), -EINVAL);
	assert_int_equal(window_backend_parse("w:", path, sizeof(path), &off, err, sizeof(err)), -EINVAL);
	assert_int_equal(window_backend_parse("w:-4096", path, sizeof(path), &off, err,
					  sizeof(err)), -EINVAL);
	assert_int_equal(window_backend_parse(":0", path, sizeof(path), &off, err, sizeof(err)), -EINVAL);
	/* Seven bytes and the NUL fill path exactly; eight do not fit. */
	assert_int_equal(window_backend_parse("1234567", path, sizeof(path), &off, err,
					  sizeof(err)), 0);
	assert_int_equal(window_backend_parse("12345678", path, sizeof(path), &off, err,
					  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too long"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_transactions_through_the_doorbell,
						rig_up, rig_down),
		cmocka_unit_test_setup_teardown(test_discovery_bounds, rig_up, rig_down),
		cmocka_unit_test_setup_teardown(test_open_refusals, rig_up, rig_down),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
