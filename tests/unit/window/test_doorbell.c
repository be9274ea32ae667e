// SPDX-License-Identifier: GPL-2.0-only
/*
 * The doorbell against the real sdsi-shmem --doorbell (its path is the
 * first argument): this process plays the driver and the QEMU plugin over
 * its own mapping of a file window, storing as the driver does and ringing
 * as the plugin does.  What the window shows must change at a ring and
 * never in between, whatever time passes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#include "window/doorbell.h"
#include "shmem/sdsi_shmem.h"
#include "window_memfd.h"
#include "util/util_time.h"

#define SOCKETS 1u
/* A V1 part: control is one qword, the mailbox follows it. */
#define MBOX_QWORD	(SDSI_CTRL_SIZE_V1 / 8)

static const char *shmem_path;

struct bell_rig {
	char dir[64];
	char window[96];
	char log[96];
	pid_t server;
	char *map;
	volatile uint64_t *mmio;
	struct window_ctlpage *page;
};

static size_t window_size(void)
{
	return window_ctlpage_offset(SOCKETS) + SDSI_CTLPAGE_SIZE;
}

static void nap_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static pid_t start_server(const char *window, const char *log,
			  const char *extra)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(shmem_path, shmem_path, "--window", window, "--sockets",
		      "1", "--guid", "v1", extra, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The server's exit status and the stderr it left. */
static int stop_server(struct bell_rig *r, char *out, size_t outlen)
{
	int status, fd;
	ssize_t n;

	if (r->server > 0) {
		kill(r->server, SIGTERM);
		assert_int_equal(waitpid(r->server, &status, 0), r->server);
		r->server = 0;
	} else {
		status = 0;
	}
	fd = open(r->log, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, out, outlen - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A server on the rig's window, started and seen to have published its page. */
static void start_doorbell_server(struct bell_rig *r)
{
	uint64_t deadline;

	r->server = start_server(r->window, r->log, "--doorbell");
	deadline = util_now_ms() + 20000;
	while (__atomic_load_n(&r->page->magic, __ATOMIC_ACQUIRE) !=
	       SDSI_CTLPAGE_MAGIC) {
		assert_true(util_now_ms() < deadline);
		nap_ms(5);
	}
}

static int setup(void **state)
{
	struct bell_rig *r = calloc(1, sizeof(*r));
	int fd;

	assert_non_null(r);
	snprintf(r->dir, sizeof(r->dir), "/tmp/sdsi-doorbell.XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	snprintf(r->window, sizeof(r->window), "%s/window", r->dir);
	snprintf(r->log, sizeof(r->log), "%s/shmem.log", r->dir);
	fd = open(r->window, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)window_size()), 0);
	r->map = window_map(fd, window_size());
	close(fd);
	r->mmio = (volatile uint64_t *)(r->map + SDSI_WINDOW_MMIO_OFFSET);
	r->page = (struct window_ctlpage *)(r->map +
					    window_ctlpage_offset(SOCKETS));
	start_doorbell_server(r);
	assert_int_not_equal(r->page->doorbell, 0);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct bell_rig *r = *state;
	char out[1024];

	stop_server(r, out, sizeof(out));
	munmap(r->map, window_size());
	unlink(r->window);
	unlink(r->log);
	rmdir(r->dir);
	free(r);
	return 0;
}

static uint32_t owner(const struct bell_rig *r)
{
	return (uint32_t)((r->mmio[0] & SDSI_CTRL_OWNER_MASK) >>
			  SDSI_CTRL_OWNER_SHIFT);
}

/* Store as the driver does, then ring as the plugin does. */
static void store_and_ring(struct bell_rig *r, unsigned int qword,
			   uint64_t value)
{
	uint64_t waited;

	r->mmio[qword] = value;
	assert_int_equal(window_doorbell_ring(r->page, 5000, &waited), 0);
}

static void ring_only(struct bell_rig *r)
{
	uint64_t waited;

	assert_int_equal(window_doorbell_ring(r->page, 5000, &waited), 0);
}

/* A one-packet read of the state certificate, up to its RDY. */
static const uint64_t READ_STATE_CTRL = SDSI_CTRL_RUN_BUSY | SDSI_CTRL_SOM |
	SDSI_CTRL_EOM | (8ull << SDSI_CTRL_PACKET_SIZE_SHIFT) |
	(8ull << SDSI_CTRL_MSG_SIZE_SHIFT);

static void test_answer_is_there_when_the_ring_returns(void **state)
{
	struct bell_rig *r = *state;
	char out[1024];

	/* The ownership request: nothing happens until it is rung for. */
	r->mmio[MBOX_QWORD] = SDSI_CMD_READ_STATE;
	nap_ms(50);
	assert_int_equal(owner(r), SDSI_OWNER_NONE);
	ring_only(r);
	assert_int_equal(owner(r), SDSI_OWNER_INBAND);

	store_and_ring(r, 0, READ_STATE_CTRL);
	assert_true(r->mmio[0] & SDSI_CTRL_RDY);
	assert_false(window_doorbell_timed(r->page));
	store_and_ring(r, 0, SDSI_CTRL_CPL);
	assert_int_equal(owner(r), SDSI_OWNER_NONE);

	assert_int_equal(stop_server(r, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "unannounced-stores=0\n"));
	/* No polling, so no gaps to count and none to excuse a failure. */
	assert_null(strstr(out, "deadline-stalls="));
}

/* What the driver loads under RDY latency is decided at the ring. */
static void test_rdy_latency_decided_at_the_ring(void **state)
{
	struct bell_rig *r = *state;
	char reply[64];
	uint64_t started;

	assert_int_equal(window_ctlpage_request(r->page,
						"fault 0 rdy-latency 1 200000",
						reply, sizeof(reply), 5000), 0);
	assert_string_equal(reply, "ok");
	store_and_ring(r, MBOX_QWORD, SDSI_CMD_READ_STATE);
	started = util_now_ms();
	store_and_ring(r, 0, READ_STATE_CTRL);
	assert_true(window_doorbell_timed(r->page));
	/* Before the latency has passed, a ring finds no RDY... */
	ring_only(r);
	if (util_now_ms() - started < 150) {
		assert_false(r->mmio[0] & SDSI_CTRL_RDY);
		assert_true(r->mmio[0] & SDSI_CTRL_RUN_BUSY);
	}
	/* ...after it, nothing changes without a ring... */
	nap_ms(250);
	assert_false(r->mmio[0] & SDSI_CTRL_RDY);
	/* ...and the ring shows RDY. */
	ring_only(r);
	assert_true(r->mmio[0] & SDSI_CTRL_RDY);
	assert_false(window_doorbell_timed(r->page));
	store_and_ring(r, 0, SDSI_CTRL_CPL);
	assert_int_equal(owner(r), SDSI_OWNER_NONE);
}

/*
 * The kernel rig's guest outlives one server and meets the next: a server
 * that exits mid-answer leaves no 'timed' behind (a ringer would ring
 * before loads nobody answers), and the next one on the same window
 * answers the doorbell from the start.
 */
static void test_next_server_takes_over(void **state)
{
	struct bell_rig *r = *state;
	char reply[64], out[1024];

	assert_int_equal(window_ctlpage_request(r->page,
						"fault 0 rdy-latency 1 10000000",
						reply, sizeof(reply), 5000), 0);
	assert_string_equal(reply, "ok");
	store_and_ring(r, MBOX_QWORD, SDSI_CMD_READ_STATE);
	store_and_ring(r, 0, READ_STATE_CTRL);
	assert_true(window_doorbell_timed(r->page));
	stop_server(r, out, sizeof(out));
	assert_false(window_doorbell_timed(r->page));
	assert_int_equal(r->page->magic, 0);

	start_doorbell_server(r);
	store_and_ring(r, MBOX_QWORD, SDSI_CMD_READ_STATE);
	assert_int_equal(owner(r), SDSI_OWNER_INBAND);
	store_and_ring(r, 0, READ_STATE_CTRL);
	assert_true(r->mmio[0] & SDSI_CTRL_RDY);
	store_and_ring(r, 0, SDSI_CTRL_CPL);
	assert_int_equal(owner(r), SDSI_OWNER_NONE);
}

/* A store nobody rang for is served late and counted. */
static void test_unannounced_store_is_counted(void **state)
{
	struct bell_rig *r = *state;
	uint64_t deadline = util_now_ms() + 5000;
	char out[1024];

	r->mmio[MBOX_QWORD] = SDSI_CMD_READ_STATE;
	while (owner(r) != SDSI_OWNER_INBAND) {
		assert_true(util_now_ms() < deadline);
		nap_ms(10);
	}
	assert_int_equal(stop_server(r, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "unannounced-stores=1\n"));
}

static void test_ring_limits(void **state)
{
	struct bell_rig *r = *state;
	uint64_t waited, start;
	char out[1024];

	/* A server that does not answer: given up after the limit, not before. */
	assert_int_equal(kill(r->server, SIGSTOP), 0);
	nap_ms(20);
	start = util_now_ms();
	assert_int_equal(window_doorbell_ring(r->page, 100, &waited), -ETIMEDOUT);
	assert_true(util_now_ms() - start >= 100);
	assert_true(util_now_ms() - start < 2000);
	assert_true(waited >= 100000000u);
	assert_int_equal(kill(r->server, SIGCONT), 0);
	/* The unanswered ring is answered once the server runs again. */
	ring_only(r);
	/* A server that is gone: at once. */
	assert_int_equal(stop_server(r, out, sizeof(out)), 0);
	start = util_now_ms();
	assert_int_equal(window_doorbell_ring(r->page, 5000, &waited), -ENODEV);
	assert_true(util_now_ms() - start < 1000);
}

static void test_spin_and_doorbell_exclude_each_other(void **state)
{
	struct bell_rig *r = *state;
	char window[128];
	int status;
	pid_t pid;

	snprintf(window, sizeof(window), "%s/other", r->dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(shmem_path, shmem_path, "--window", window, "--spin",
		      "--doorbell", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	assert_int_equal(access(window, F_OK), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_answer_is_there_when_the_ring_returns, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_rdy_latency_decided_at_the_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_unannounced_store_is_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_next_server_takes_over,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_limits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_spin_and_doorbell_exclude_each_other, setup,
			teardown),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH-TO-SDSI-SHMEM\n", argv[0]);
		return 2;
	}
	shmem_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
