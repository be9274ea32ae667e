// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared-window port against the driver core: a poller thread (or a
 * second process) plays the model over a memfd, and the driver core runs
 * Linux's mailbox protocol over a second mapping of it, with real time and
 * real polling, as the kernel driver does in the guest.
 *
 * The driver's clock is virtual: it advances by exactly what the driver
 * sleeps, and each sleep also waits (on real time) until whoever plays the
 * model has made a whole pass after it.  So a deadline is a number of polls,
 * each of which the model has answered, and no result depends on how late
 * the host runs the poller: under a loaded machine a real-time deadline
 * once expired before the poller had run at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "shmem/control.h"
#include "drivers/core/sdsi_mbox.h"
#include "shmem/sdsi_shmem.h"
#include "tests/unit/window/window_memfd.h"
#include "util/util_time.h"

struct window_rig {
	int fd;
	char *poller_view;		/* the model's side of the window */
	char *driver_view;		/* the driver's side, mapped apart */
	struct sdsi_model *model;
	struct shmem_port port;
	struct shmem_machine machine;
	struct sdsi_mbox mb;
	pthread_t thread;
	uint64_t *passes;		/* model passes, shared with a child */
	uint64_t virt_us;		/* the driver's clock */
	int stop;
	bool running;
	unsigned char buf[SDSI_READ_MSG_MAX];
};

static uint64_t drv_read64(void *ctx, uint32_t off)
{
	struct window_rig *r = ctx;

	return __atomic_load_n((uint64_t *)(r->driver_view +
			       SDSI_WINDOW_MMIO_OFFSET + off), __ATOMIC_ACQUIRE);
}

static void drv_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct window_rig *r = ctx;

	__atomic_store_n((uint64_t *)(r->driver_view + SDSI_WINDOW_MMIO_OFFSET +
			 off), v, __ATOMIC_RELEASE);
}

/* One model pass done, as the poller thread or the child process counts it. */
static void count_pass(uint64_t *passes)
{
	__atomic_add_fetch(passes, 1, __ATOMIC_RELEASE);
}

/*
 * Sleeps as asked, then until a pass that began after the sleep has ended
 * (the pass under way when the sleep ends may have read the window before
 * the driver's last store).  The 30 s cap only keeps a broken model from
 * hanging the test: the driver then goes on and the test fails.
 */
static void drv_sleep_us(void *ctx, uint32_t us)
{
	struct window_rig *r = ctx;
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (long)(us % 1000000) * 1000 };
	uint64_t start, cap;

	nanosleep(&ts, NULL);
	start = __atomic_load_n(r->passes, __ATOMIC_ACQUIRE);
	cap = util_now_us() + 30000000u;
	while (__atomic_load_n(r->passes, __ATOMIC_ACQUIRE) < start + 2 &&
	       util_now_us() < cap)
		sched_yield();
	r->virt_us += us;
}

static uint64_t drv_now_us(void *ctx)
{
	struct window_rig *r = ctx;

	return r->virt_us;
}

static const struct sdsi_mbox_ops window_ops = {
	.read64 = drv_read64, .write64 = drv_write64,
	.sleep_us = drv_sleep_us, .now_us = drv_now_us,
};

static void *poller(void *arg)
{
	struct window_rig *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		bool worked = shmem_port_poll(&r->port);

		count_pass(r->passes);
		if (!worked && !shmem_port_busy(&r->port))
			sched_yield();
	}
	return NULL;
}

static void start_poller(struct window_rig *r)
{
	__atomic_store_n(&r->stop, 0, __ATOMIC_RELEASE);
	assert_int_equal(pthread_create(&r->thread, NULL, poller, r), 0);
	r->running = true;
}

static void stop_poller(struct window_rig *r)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	pthread_join(r->thread, NULL);
	r->running = false;
}

/* A control request, served between passes as sdsi-shmem serves it. */
static void control(struct window_rig *r, const char *request, char *reply,
		    size_t replylen)
{
	char line[128];

	snprintf(line, sizeof(line), "%s", request);
	stop_poller(r);
	shmem_control_execute(&r->machine, line, reply, replylen);
	start_poller(r);
}

static void control_ok(struct window_rig *r, const char *request)
{
	char reply[128];

	control(r, request, reply, sizeof(reply));
	assert_string_equal(reply, "ok");
}

static size_t window_size(void)
{
	return SDSI_WINDOW_SLOT_SIZE;
}

static int setup(void **state)
{
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2, .features = SDSI_MODEL_DEFAULT_FEATURES,
		.ppin = 0x5eed5eed5eedull,
	};
	struct sdsi_mbox_params params;
	struct window_rig *r = calloc(1, sizeof(*r));
	uint32_t guid;
	char err[128];

	assert_non_null(r);
	r->fd = window_memfd("sdsi-window", window_size());
	r->poller_view = window_map(r->fd, window_size());
	r->driver_view = window_map(r->fd, window_size());
	r->passes = mmap(NULL, sizeof(*r->passes), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(r->passes != MAP_FAILED);
	assert_int_equal(sdsi_model_create(&cfg, &r->model, err, sizeof(err)),
			 0);
	assert_int_equal(shmem_port_attach(&r->port, r->model, r->poller_view),
			 0);
	r->machine = (struct shmem_machine){ .sockets = 1,
		.models = &r->model, .ports = &r->port };

	/* The GUID as the driver finds it: dword 1 of the discovery table. */
	memcpy(&guid, r->driver_view + 4, sizeof(guid));
	sdsi_mbox_default_params(&params);
	params.acquire_retry_delay_ms = 20;
	params.rdy_timeout_us = 100000;
	assert_int_equal(sdsi_mbox_init(&r->mb, guid, &window_ops, r, &params),
			 0);
	start_poller(r);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct window_rig *r = *state;

	if (r->running)
		stop_poller(r);
	sdsi_model_destroy(r->model);
	munmap(r->poller_view, window_size());
	munmap(r->driver_view, window_size());
	munmap(r->passes, sizeof(*r->passes));
	close(r->fd);
	free(r);
	return 0;
}

static uint64_t window_qword(struct window_rig *r, uint32_t mmio_off)
{
	return drv_read64(r, mmio_off);
}

static void test_discovery_and_registers(void **state)
{
	struct window_rig *r = *state;
	uint32_t table[4], seen[4];
	uint64_t regs[SDSI_REGS_SIZE_V2 / 8];
	uint32_t i;

	sdsi_model_discovery(r->model, SDSI_WINDOW_MMIO_OFFSET - SDSI_DISC_BYTES,
			     table);
	memcpy(seen, r->driver_view, sizeof(seen));
	assert_memory_equal(seen, table, sizeof(table));
	/* Linux: MMIO base = end of the 16-byte table + offset + 1. */
	assert_int_equal(SDSI_DISC_BYTES + (table[2] & ~7u),
			 SDSI_WINDOW_MMIO_OFFSET);

	sdsi_mbox_read_registers(&r->mb, regs);
	for (i = 0; i < SDSI_REGS_SIZE_V2 / 8; i++)
		assert_int_equal(regs[i], sdsi_model_read64(r->model,
				 r->mb.regs_off + 8 * i));
	assert_int_equal(regs[0], 0x5eed5eed5eedull);
}

static void test_state_certificate(void **state)
{
	struct window_rig *r = *state;
	size_t len = 0, again = 0;
	unsigned char first[SDSI_READ_MSG_MAX];
	uint64_t ctrl;

	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &len), 0);
	assert_true(len >= SDSI_STATE_HEADER_SIZE);
	memcpy(first, r->buf, len);
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &again), 0);
	assert_int_equal(again, len);
	assert_memory_equal(r->buf, first, len);

	/* Done: the mailbox is free and qword 0 holds a sentinel again. */
	ctrl = window_qword(r, 0);
	assert_int_equal(ctrl & SDSI_CTRL_OWNER_MASK, 0);
	assert_int_not_equal(window_qword(r, r->mb.mbox_off),
			     SDSI_CMD_READ_STATE);
}

static void test_meter_certificates(void **state)
{
	struct window_rig *r = *state;
	static const unsigned char mtdb[4] = { 0x42, 0x44, 0x54, 0x4d };
	size_t len = 0;

	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_METER, false,
					r->buf, &len), 0);
	assert_true(len >= 40);
	assert_memory_equal(r->buf, mtdb, sizeof(mtdb));
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_METER, true,
					r->buf, &len), 0);
	assert_memory_equal(r->buf, mtdb, sizeof(mtdb));
}

static void test_refused_akc_counts(void **state)
{
	struct window_rig *r = *state;
	unsigned char junk[64] = { 0 };
	uint64_t regs[SDSI_REGS_SIZE_V2 / 8];

	assert_int_equal(sdsi_mbox_write(&r->mb, SDSI_CMD_PROVISION_AKC, junk,
					 sizeof(junk)), -EIO);
	/* The driver reads the registers as soon as its write returns. */
	sdsi_mbox_read_registers(&r->mb, regs);
	assert_int_equal((regs[SDSI_REG_FAIL_COUNT / 8] >>
			  SDSI_FAIL_AKC_COUNT_SHIFT) & SDSI_FIELD3_MASK, 1);
	assert_true(regs[SDSI_REG_AUTH_ERR / 8] & SDSI_AUTH_ERR_CONTENT);

	control_ok(r, "power-cycle 0");
	sdsi_mbox_read_registers(&r->mb, regs);
	assert_int_equal(regs[SDSI_REG_FAIL_COUNT / 8] & SDSI_FIELD3_MASK, 0);
}

static void check_fault(struct window_rig *r, const char *kind, int code)
{
	char request[64];
	size_t len;

	snprintf(request, sizeof(request), "fault 0 %s 0 0", kind);
	control_ok(r, request);
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &len), code);
	control_ok(r, "clear 0");
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &len), 0);
}

static void test_faults(void **state)
{
	struct window_rig *r = *state;

	check_fault(r, "oob-owner", -EBUSY);
	check_fault(r, "no-rdy", -ETIMEDOUT);
	check_fault(r, "status-timeout", -ETIMEDOUT);
	check_fault(r, "status-failure", -EIO);
	check_fault(r, "bad-packet-size", -EPROTO);
	check_fault(r, "no-eom", -EPROTO);
	check_fault(r, "too-many-packets", -EPROTO);
}

/*
 * An SPDM answer the driver never saw (no RDY) still overwrote the mailbox
 * in the silicon, so the next exchange's request, qword for qword the
 * same, must reach the model again: the window's idea of what the mailbox
 * holds follows the model's, not the driver's last stores.
 */
static void test_exchange_after_an_unseen_answer(void **state)
{
	struct window_rig *r = *state;
	static const uint8_t get_version[] = { 0x10, 0x84, 0, 0 };
	size_t len;

	control_ok(r, "fault 0 no-rdy 0 0");
	assert_int_equal(sdsi_mbox_exchange(&r->mb, get_version, sizeof(get_version),
					    r->buf, &len), -ETIMEDOUT);
	control_ok(r, "clear 0");
	assert_int_equal(sdsi_mbox_exchange(&r->mb, get_version, sizeof(get_version),
					    r->buf, &len), 0);
	assert_int_equal(len, 8);
	assert_int_equal(r->buf[1], 0x04);	/* VERSION */
	assert_int_equal(sdsi_model_violation_count(r->model), 0);
}

static void test_iblock_shows(void **state)
{
	struct window_rig *r = *state;

	assert_false(sdsi_mbox_iblocked(&r->mb));
	control_ok(r, "iblock 0 on");
	assert_true(sdsi_mbox_iblocked(&r->mb));
	control_ok(r, "iblock 0 off");
	assert_false(sdsi_mbox_iblocked(&r->mb));
}

/* The leaky bucket: requests turned away until the delay has passed. */
static void test_owner_delay_retried(void **state)
{
	struct window_rig *r = *state;
	uint64_t start;
	size_t len;

	control_ok(r, "fault 0 owner-delay 1 50000");
	start = util_now_us();
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &len), 0);
	assert_true(util_now_us() - start >= 50000);
}

static void test_bad_requests(void **state)
{
	struct window_rig *r = *state;
	char reply[128];

	control(r, "fault 0 no-such-fault 0 0", reply, sizeof(reply));
	assert_string_equal(reply, "error: usage: fault N KIND COUNT PARAM");
	control(r, "power-cycle 1", reply, sizeof(reply));
	assert_string_equal(reply, "error: no socket '1' (0..0)");
	control(r, "reboot 0", reply, sizeof(reply));
	assert_string_equal(reply, "error: unknown request 'reboot'");
	control(r, "iblock 0 maybe", reply, sizeof(reply));
	assert_string_equal(reply, "error: usage: iblock N on|off");
}

/* The hardware in another process, as in the guest. */
static void test_model_in_child_process(void **state)
{
	struct window_rig *r = *state;
	size_t len;
	pid_t child;
	int status;

	stop_poller(r);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		/* A failed assertion must not leave a spinning orphan. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(4);
		for (;;) {
			shmem_port_poll(&r->port);
			count_pass(r->passes);
		}
	}
	assert_int_equal(sdsi_mbox_read(&r->mb, SDSI_CMD_READ_STATE, false,
					r->buf, &len), 0);
	assert_true(len >= SDSI_STATE_HEADER_SIZE);
	assert_int_equal(sdsi_mbox_write(&r->mb, SDSI_CMD_PROVISION_CAP,
					 r->buf, 8), -EIO);
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	start_poller(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_discovery_and_registers,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_certificate,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_meter_certificates,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_akc_counts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exchange_after_an_unseen_answer,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_iblock_shows,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_delay_retried,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_requests,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_model_in_child_process,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
