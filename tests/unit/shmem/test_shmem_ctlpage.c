// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control page between two processes, as the kernel rig uses it: a
 * child plays two sockets and serves the page in a memfd window, the
 * parent sends requests through a separate mapping and sees their effect
 * on the window's control registers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctlpage.h"
#include "sdsi_shmem.h"

#define SOCKETS 2u

struct page_rig {
	int fd;
	char *window;			/* the client's mapping */
	struct sdsi_ctlpage *page;
	pid_t server;
};

static size_t window_size(void)
{
	return sdsi_ctlpage_offset(SOCKETS) + SDSI_CTLPAGE_SIZE;
}

/* The child: the sockets laid out, then the page served until killed. */
static void serve(int fd)
{
	struct sdsi_model *models[SOCKETS];
	struct sdsi_shmem_port ports[SOCKETS];
	struct shmem_machine machine = { .sockets = SOCKETS, .models = models,
					 .ports = ports };
	struct timespec nap = { .tv_nsec = 100000 };
	struct sdsi_ctlpage *page;
	char err[128], *window;

	window = mmap(NULL, window_size(), PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	if (window == MAP_FAILED)
		_exit(2);
	for (unsigned int n = 0; n < SOCKETS; n++) {
		struct sdsi_model_config cfg = {
			.guid = SDSI_GUID_V2,
			.features = SDSI_MODEL_DEFAULT_FEATURES,
			.socket_index = n, .socket_id = (uint8_t)n,
		};

		if (sdsi_model_create(&cfg, &models[n], err, sizeof(err)) ||
		    sdsi_shmem_attach(&ports[n], models[n],
				      window + n * SDSI_SHMEM_SLOT_SIZE))
			_exit(3);
	}
	page = (struct sdsi_ctlpage *)(window + sdsi_ctlpage_offset(SOCKETS));
	sdsi_ctlpage_open(page, SOCKETS);
	for (;;) {
		sdsi_ctlpage_serve(page, &machine);
		nanosleep(&nap, NULL);
	}
}

static void wait_announced(struct page_rig *r)
{
	struct timespec nap = { .tv_nsec = 1000000 };

	for (int i = 0; i < 5000; i++) {
		if (__atomic_load_n(&r->page->magic, __ATOMIC_ACQUIRE) ==
		    SDSI_CTLPAGE_MAGIC)
			return;
		nanosleep(&nap, NULL);
	}
	fail_msg("the server never announced the control page");
}

static int setup(void **state)
{
	struct page_rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->fd = memfd_create("sdsi-ctlpage", MFD_CLOEXEC);
	assert_true(r->fd >= 0);
	assert_int_equal(ftruncate(r->fd, (off_t)window_size()), 0);
	r->window = mmap(NULL, window_size(), PROT_READ | PROT_WRITE,
			 MAP_SHARED, r->fd, 0);
	assert_true(r->window != MAP_FAILED);
	r->page = (struct sdsi_ctlpage *)(r->window +
					  sdsi_ctlpage_offset(SOCKETS));
	r->server = -1;
	*state = r;
	return 0;
}

static void start_server(struct page_rig *r)
{
	r->server = fork();
	assert_true(r->server >= 0);
	if (r->server == 0)
		serve(r->fd);
	wait_announced(r);
}

static int teardown(void **state)
{
	struct page_rig *r = *state;
	int status;

	if (r->server > 0) {
		kill(r->server, SIGKILL);
		waitpid(r->server, &status, 0);
	}
	munmap(r->window, window_size());
	close(r->fd);
	free(r);
	return 0;
}

static uint64_t control_of(struct page_rig *r, unsigned int n)
{
	return __atomic_load_n((uint64_t *)(r->window + n * SDSI_SHMEM_SLOT_SIZE +
					    SDSI_SHMEM_MMIO_OFFSET),
			       __ATOMIC_ACQUIRE);
}

static void test_requests_reach_the_model(void **state)
{
	struct page_rig *r = *state;
	char reply[SDSI_CTLPAGE_TEXT];

	start_server(r);
	assert_int_equal(r->page->sockets, SOCKETS);
	assert_int_equal(r->page->version, SDSI_CTLPAGE_VERSION);
	assert_false(control_of(r, 1) & SDSI_CTRL_IBLOCK);

	assert_int_equal(sdsi_ctlpage_request(r->page, "iblock 1 on", reply,
					      sizeof(reply), 5000), 0);
	assert_string_equal(reply, "ok");
	/* The reply comes after the window shows the new setting. */
	assert_true(control_of(r, 1) & SDSI_CTRL_IBLOCK);
	assert_false(control_of(r, 0) & SDSI_CTRL_IBLOCK);

	assert_int_equal(sdsi_ctlpage_request(r->page, "power-cycle 1", reply,
					      sizeof(reply), 5000), 0);
	assert_string_equal(reply, "ok");
}

static void test_bad_requests_answered_with_errors(void **state)
{
	struct page_rig *r = *state;
	char reply[SDSI_CTLPAGE_TEXT], big[SDSI_CTLPAGE_TEXT + 8];

	start_server(r);
	assert_int_equal(sdsi_ctlpage_request(r->page, "power-cycle 7", reply,
					      sizeof(reply), 5000), 0);
	assert_non_null(strstr(reply, "error: "));
	assert_int_equal(sdsi_ctlpage_request(r->page, "reboot 0", reply,
					      sizeof(reply), 5000), 0);
	assert_non_null(strstr(reply, "unknown request"));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sdsi_ctlpage_request(r->page, big, reply,
					      sizeof(reply), 5000), -E2BIG);
	/* Still serving after all that. */
	assert_int_equal(sdsi_ctlpage_request(r->page, "clear 0", reply,
					      sizeof(reply), 5000), 0);
	assert_string_equal(reply, "ok");
}

static void test_no_server(void **state)
{
	struct page_rig *r = *state;
	char reply[SDSI_CTLPAGE_TEXT];

	assert_int_equal(sdsi_ctlpage_request(r->page, "clear 0", reply,
					      sizeof(reply), 100), -ENODEV);
}

static void test_server_gone_quiet(void **state)
{
	struct page_rig *r = *state;
	char reply[SDSI_CTLPAGE_TEXT];
	int status;

	start_server(r);
	kill(r->server, SIGSTOP);
	assert_int_equal(sdsi_ctlpage_request(r->page, "clear 0", reply,
					      sizeof(reply), 100), -ETIMEDOUT);
	kill(r->server, SIGKILL);
	waitpid(r->server, &status, 0);
	r->server = -1;
	/* A withdrawn page is no server, however it ended. */
	sdsi_ctlpage_close(r->page);
	assert_int_equal(sdsi_ctlpage_request(r->page, "clear 0", reply,
					      sizeof(reply), 100), -ENODEV);
}

static void test_stale_request_not_answered(void **state)
{
	struct page_rig *r = *state;
	struct shmem_machine none = { 0 };

	/* A request left in the page before the server (re)started. */
	r->page->request = 41;
	r->page->reply = 40;
	strcpy(r->page->request_text, "power-cycle 0");
	sdsi_ctlpage_open(r->page, SOCKETS);
	assert_false(sdsi_ctlpage_serve(r->page, &none));
	assert_int_equal(r->page->reply, 41);
	assert_int_equal(r->page->magic, SDSI_CTLPAGE_MAGIC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_requests_reach_the_model,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_bad_requests_answered_with_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_server, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_server_gone_quiet, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stale_request_not_answered,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
