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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "shmem/control.h"
#include "window/ctlpage.h"
#include "shmem/sdsi_shmem.h"
#include "window_memfd.h"

#define SOCKETS 2u

struct page_rig {
	int fd;
	char *window;			/* the client's mapping */
	struct window_ctlpage *page;
	pid_t server;
	char reply[SDSI_CTLPAGE_TEXT];	/* the last request's answer */
};

static size_t window_size(void)
{
	return window_ctlpage_offset(SOCKETS) + SDSI_CTLPAGE_SIZE;
}

/* The child: the sockets laid out, then the page served until killed. */
static void serve(int fd)
{
	struct sdsi_model *models[SOCKETS];
	struct shmem_port ports[SOCKETS];
	struct shmem_machine machine = { .sockets = SOCKETS, .models = models,
					 .ports = ports };
	struct timespec nap = { .tv_nsec = 100000 };
	struct window_ctlpage *page;
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
		    shmem_port_attach(&ports[n], models[n],
				      window + n * SDSI_WINDOW_SLOT_SIZE))
			_exit(3);
	}
	page = (struct window_ctlpage *)(window + window_ctlpage_offset(SOCKETS));
	window_ctlpage_open(page, SOCKETS);
	for (;;) {
		shmem_control_serve_page(page, &machine);
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
	r->fd = window_memfd("sdsi-ctlpage", window_size());
	r->window = window_map(r->fd, window_size());
	r->page = (struct window_ctlpage *)(r->window +
					    window_ctlpage_offset(SOCKETS));
	r->server = -1;
	*state = r;
	return 0;
}

static void start_server(struct page_rig *r)
{
	r->server = fork();
	assert_true(r->server >= 0);
	if (r->server == 0) {
		/* A failed assertion must not leave a spinning orphan. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(4);
		serve(r->fd);
	}
	wait_announced(r);
}

/* A server that has announced the page, then stopped (SIGSTOP): it answers nothing. */
static void start_stopped_server(struct page_rig *r)
{
	int status;

	start_server(r);
	kill(r->server, SIGSTOP);
	assert_int_equal(waitpid(r->server, &status, WUNTRACED), r->server);
	assert_true(WIFSTOPPED(status));
}

/* The server gone, however it was (running or stopped), and reaped. */
static void kill_server(struct page_rig *r)
{
	int status;

	if (r->server <= 0)
		return;
	kill(r->server, SIGKILL);
	waitpid(r->server, &status, 0);
	r->server = -1;
}

static int teardown(void **state)
{
	struct page_rig *r = *state;

	kill_server(r);
	munmap(r->window, window_size());
	close(r->fd);
	free(r);
	return 0;
}

static uint64_t control_of(struct page_rig *r, unsigned int n)
{
	return __atomic_load_n((uint64_t *)(r->window + n * SDSI_WINDOW_SLOT_SIZE +
					    SDSI_WINDOW_MMIO_OFFSET),
			       __ATOMIC_ACQUIRE);
}

/* One request on the rig's page, its answer in r->reply. */
static int request(struct page_rig *r, const char *text, unsigned int timeout_ms)
{
	return window_ctlpage_request(r->page, text, r->reply, sizeof(r->reply),
				      timeout_ms);
}

static void test_requests_reach_the_model(void **state)
{
	struct page_rig *r = *state;

	start_server(r);
	assert_int_equal(r->page->sockets, SOCKETS);
	assert_int_equal(r->page->version, SDSI_CTLPAGE_VERSION);
	assert_false(control_of(r, 1) & SDSI_CTRL_IBLOCK);

	assert_int_equal(request(r, "iblock 1 on", 5000), 0);
	assert_string_equal(r->reply, "ok");
	/* The reply comes after the window shows the new setting. */
	assert_true(control_of(r, 1) & SDSI_CTRL_IBLOCK);
	assert_false(control_of(r, 0) & SDSI_CTRL_IBLOCK);

	assert_int_equal(request(r, "power-cycle 1", 5000), 0);
	assert_string_equal(r->reply, "ok");
}

static void test_bad_requests_answered_with_errors(void **state)
{
	struct page_rig *r = *state;
	char big[SDSI_CTLPAGE_TEXT + 8];

	start_server(r);
	assert_int_equal(request(r, "power-cycle 7", 5000), 0);
	assert_non_null(strstr(r->reply, "error: "));
	assert_int_equal(request(r, "reboot 0", 5000), 0);
	assert_non_null(strstr(r->reply, "unknown request"));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(request(r, big, 5000), -E2BIG);
	/* Still serving after all that. */
	assert_int_equal(request(r, "clear 0", 5000), 0);
	assert_string_equal(r->reply, "ok");
}

static void test_no_server(void **state)
{
	struct page_rig *r = *state;

	assert_int_equal(request(r, "clear 0", 100), -ENODEV);
}

static void test_server_gone_quiet(void **state)
{
	struct page_rig *r = *state;

	start_stopped_server(r);
	assert_int_equal(request(r, "clear 0", 100), -ETIMEDOUT);
	kill_server(r);
	/* A withdrawn page is no server, however it ended. */
	window_ctlpage_close(r->page);
	assert_int_equal(request(r, "clear 0", 100), -ENODEV);
}

/* A request that timed out is answered before another is written. */
static void test_second_request_waits(void **state)
{
	struct page_rig *r = *state;
	uint32_t seq;

	start_stopped_server(r);
	assert_int_equal(request(r, "iblock 0 on", 50), -ETIMEDOUT);
	seq = __atomic_load_n(&r->page->request, __ATOMIC_ACQUIRE);
	assert_int_equal(request(r, "iblock 1 on", 50), -EBUSY);
	/* Nothing of the second request reached the page. */
	assert_int_equal(r->page->request, seq);
	assert_string_equal(r->page->request_text, "iblock 0 on");

	kill(r->server, SIGCONT);
	assert_int_equal(request(r, "iblock 1 on", 5000), 0);
	assert_string_equal(r->reply, "ok");
	/* Both ran, the first before the second was written. */
	assert_true(control_of(r, 0) & SDSI_CTRL_IBLOCK);
	assert_true(control_of(r, 1) & SDSI_CTRL_IBLOCK);
}

/*
 * A request rewritten while the server copies it.  The page straddles two
 * pages of memory so that its texts can be made to fault: the fault
 * handler plays a client that bumps request mid-copy.
 */
static struct window_ctlpage *torn_page;
static char *torn_texts;
static long torn_pagesize;

static void rewrite_mid_copy(int sig)
{
	(void)sig;
	__atomic_store_n(&torn_page->request, torn_page->request + 1,
			 __ATOMIC_RELEASE);
	mprotect(torn_texts, (size_t)torn_pagesize, PROT_READ | PROT_WRITE);
}

static void test_torn_request_not_executed(void **state)
{
	struct sdsi_model_config cfg = { .guid = SDSI_GUID_V2,
					 .features = SDSI_MODEL_DEFAULT_FEATURES };
	struct sigaction sa = { .sa_handler = rewrite_mid_copy }, old;
	struct sdsi_model *model;
	struct shmem_port port;
	struct shmem_machine machine = { .sockets = 1, .models = &model,
					 .ports = &port };
	char err[128], *slot, *mem;
	uint64_t *control;

	(void)state;
	torn_pagesize = sysconf(_SC_PAGESIZE);
	slot = aligned_alloc(8, SDSI_WINDOW_SLOT_SIZE);
	assert_non_null(slot);
	assert_int_equal(sdsi_model_create(&cfg, &model, err, sizeof(err)), 0);
	assert_int_equal(shmem_port_attach(&port, model, slot), 0);
	control = (uint64_t *)(slot + SDSI_WINDOW_MMIO_OFFSET);

	mem = mmap(NULL, 2 * (size_t)torn_pagesize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	torn_texts = mem + torn_pagesize;
	torn_page = (struct window_ctlpage *)(torn_texts -
					      offsetof(struct window_ctlpage, request_text));
	window_ctlpage_open(torn_page, 1);
	strcpy(torn_page->request_text, "iblock 0 on");
	torn_page->request++;

	assert_int_equal(sigaction(SIGSEGV, &sa, &old), 0);
	assert_int_equal(mprotect(torn_texts, (size_t)torn_pagesize,
				  PROT_NONE), 0);
	assert_false(shmem_control_serve_page(torn_page, &machine));
	sigaction(SIGSEGV, &old, NULL);
	/* Not executed, not answered... */
	assert_false(*control & SDSI_CTRL_IBLOCK);
	assert_int_not_equal(torn_page->reply, torn_page->request);
	/* ... until the next call takes the new request whole. */
	assert_true(shmem_control_serve_page(torn_page, &machine));
	assert_int_equal(torn_page->reply, torn_page->request);
	assert_string_equal(torn_page->reply_text, "ok");
	assert_true(*control & SDSI_CTRL_IBLOCK);

	munmap(mem, 2 * (size_t)torn_pagesize);
	sdsi_model_destroy(model);
	free(slot);
}

static void test_stale_request_not_answered(void **state)
{
	struct page_rig *r = *state;
	struct shmem_machine none = { 0 };

	/* A request left in the page before the server (re)started. */
	r->page->request = 41;
	r->page->reply = 40;
	strcpy(r->page->request_text, "power-cycle 0");
	window_ctlpage_open(r->page, SOCKETS);
	assert_false(shmem_control_serve_page(r->page, &none));
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
		cmocka_unit_test_setup_teardown(test_second_request_waits,
						setup, teardown),
		cmocka_unit_test(test_torn_request_not_executed),
		cmocka_unit_test_setup_teardown(test_stale_request_not_answered,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
