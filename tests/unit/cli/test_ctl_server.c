// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one control server of sdsi-emu and sdsi-shmem (cli_ctl_server.h), in
 * both reply styles over a real Unix socket: every guard holds for both,
 * each connection told what it broke in its daemon's words.  The deadlines
 * (5 s) are the platform suite's to wait for.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli_ctl_server.h"

struct rig {
	char dir[64];
	char path[128];
	struct cli_ctl_server srv;
	struct cli_ctl_handler handler;
	const struct cli_ctl_dialect *dialect;
	unsigned int executed;
};

/*
 * The daemon's side: an answer that shows the request as it arrived; to
 * "size N", an answer of N bytes (lines of 'x' ending in newlines).
 */
static char *echo(void *ctx, const char *request)
{
	struct rig *r = ctx;
	unsigned long size;
	char *answer;

	r->executed++;
	if (sscanf(request, "size %lu", &size) == 1) {
		answer = malloc(size + 1);
		if (!answer)
			return NULL;
		for (unsigned long i = 0; i < size; i++)
			answer[i] = i % 64 == 63 || i == size - 1 ? '\n' : 'x';
		answer[size] = '\0';
		return answer;
	}
	return asprintf(&answer, "got [%s]\n", request) < 0 ? NULL : answer;
}

static int setup(void **state, enum cli_reply_style style)
{
	struct rig *r = calloc(1, sizeof(*r));
	char err[256];

	assert_non_null(r);
	snprintf(r->dir, sizeof(r->dir), "/tmp/fe-ctl-server.XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	snprintf(r->path, sizeof(r->path), "%s/ctl.sock", r->dir);
	umask(0);	/* the socket is 0600 whatever the umask */
	assert_int_equal(cli_ctl_server_listen(&r->srv, r->path, "the test", style, err,
					      sizeof(err)), 0);
	umask(022);
	r->handler = (struct cli_ctl_handler){ .ctx = r, .execute = echo };
	r->dialect = cli_ctl_dialect(style);
	*state = r;
	return 0;
}

static int setup_errno(void **state)
{
	return setup(state, CLI_REPLY_ERRNO);
}

static int setup_terse(void **state)
{
	return setup(state, CLI_REPLY_TERSE);
}

static int teardown(void **state)
{
	struct rig *r = *state;

	cli_ctl_server_close(&r->srv);
	assert_int_equal(access(r->path, F_OK), -1);	/* removed */
	assert_int_equal(rmdir(r->dir), 0);
	free(r);
	return 0;
}

static int client(struct rig *r, const char *send_text, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	memcpy(addr.sun_path, r->path, strlen(r->path) + 1);
	assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	if (len)
		assert_int_equal(send(fd, send_text, len, MSG_NOSIGNAL), (ssize_t)len);
	/* Taken now: the server accepts in the order of connection. */
	assert_int_equal(cli_ctl_server_serve(&r->srv, &r->handler, -1, false), 0);
	return fd;
}

/* Serve, never waiting, until the server ends the connection: what it said. */
static char *answer(struct rig *r, int fd)
{
	static char got[CLI_CTL_ANSWER_MAX + 2];
	size_t used = 0;

	for (int round = 0; round < 5000; round++) {
		ssize_t n;

		assert_int_equal(cli_ctl_server_serve(&r->srv, &r->handler, -1, false), 0);
		n = recv(fd, got + used, sizeof(got) - 1 - used, MSG_DONTWAIT);
		if (n == 0) {
			close(fd);
			got[used] = '\0';
			return got;
		}
		if (n > 0)
			used += (size_t)n;
		else
			assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
		usleep(1000);
	}
	fail_msg("the server never closed the connection");
	return NULL;
}

static void test_socket_is_private(void **state)
{
	struct rig *r = *state;
	struct stat st;

	assert_int_equal(lstat(r->path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
}

static void test_a_live_socket_is_not_taken_over(void **state)
{
	struct rig *r = *state;
	struct cli_ctl_server other;
	char err[256];

	assert_int_equal(cli_ctl_server_listen(&other, r->path, "the test", CLI_REPLY_ERRNO, err,
					      sizeof(err)), -EADDRINUSE);
	assert_non_null(strstr(err, "another the test is running on"));
	cli_ctl_server_close(&other);
	assert_int_equal(access(r->path, F_OK), 0);	/* still ours */
}

static void test_request_line(void **state)
{
	struct rig *r = *state;

	/* What follows the newline is not part of the request. */
	assert_string_equal(answer(r, client(r, "status 0\nmore", 13)), "got [status 0]\n");
}

static void test_line_length_limit(void **state)
{
	struct rig *r = *state;
	size_t fits = r->dialect->request_max - 1;
	char *line = malloc(fits + 1);

	assert_non_null(line);
	memset(line, 'x', fits);
	line[fits - 1] = '\n';
	answer(r, client(r, line, fits));
	assert_int_equal(r->executed, 1);
	line[fits - 1] = 'x';
	assert_string_equal(answer(r, client(r, line, fits)), r->dialect->too_long);
	assert_int_equal(r->executed, 1);
	free(line);
}

/* An answer of CLI_CTL_ANSWER_MAX bytes is sent whole; one byte more is not. */
static void test_answer_length_limit(void **state)
{
	struct rig *r = *state;
	char line[64];
	const char *got;

	snprintf(line, sizeof(line), "size %d\n", CLI_CTL_ANSWER_MAX);
	got = answer(r, client(r, line, strlen(line)));
	assert_int_equal(strlen(got), CLI_CTL_ANSWER_MAX);
	assert_int_equal(got[CLI_CTL_ANSWER_MAX - 1], '\n');
	snprintf(line, sizeof(line), "size %d\n", CLI_CTL_ANSWER_MAX + 1);
	assert_string_equal(answer(r, client(r, line, strlen(line))), r->dialect->too_big);
	assert_int_equal(r->executed, 2);
}

static void test_closed_early(void **state)
{
	struct rig *r = *state;
	int fd = client(r, NULL, 0);

	shutdown(fd, SHUT_WR);
	assert_string_equal(answer(r, fd), r->dialect->empty);
	fd = client(r, "status", 6);
	shutdown(fd, SHUT_WR);
	if (r->dialect->unterminated)
		assert_string_equal(answer(r, fd), r->dialect->unterminated);
	else
		assert_string_equal(answer(r, fd), "got [status]\n");
}

static void test_oldest_gives_way(void **state)
{
	struct rig *r = *state;
	unsigned int max = r->dialect->clients_max;
	int idle[CLI_CTL_CLIENTS_MAX] = { 0 };

	for (unsigned int i = 0; i < max; i++)
		idle[i] = client(r, NULL, 0);
	/* One more: the oldest is told, and closed. */
	assert_string_equal(answer(r, client(r, "iblock 0 on\n", 12)), "got [iblock 0 on]\n");
	assert_string_equal(answer(r, idle[0]), r->dialect->busy);
	for (unsigned int i = 1; i < max; i++)
		close(idle[i]);
}

static void test_the_two_styles(void **state)
{
	const struct cli_ctl_dialect *full = cli_ctl_dialect(CLI_REPLY_ERRNO);
	const struct cli_ctl_dialect *terse = cli_ctl_dialect(CLI_REPLY_TERSE);

	(void)state;
	assert_string_equal(full->busy,
			    "error EBUSY: too many control connections, the oldest is closed\n");
	assert_string_equal(terse->busy,
			    "error: too many control connections, the oldest is closed\n");
	assert_int_equal(full->clients_max, 32);
	assert_int_equal(terse->clients_max, 16);
	assert_int_equal(full->request_max, 1024);
	assert_int_equal(terse->request_max, 256);
	assert_string_equal(full->too_big, "error EMSGSIZE: answer longer than 65536 bytes\n");
	assert_string_equal(terse->too_big, "error: answer longer than 65536 bytes\n");
	assert_true(full->clients_max <= CLI_CTL_CLIENTS_MAX &&
		    terse->clients_max <= CLI_CTL_CLIENTS_MAX);
	assert_true(full->request_max <= CLI_CTL_REQUEST_MAX &&
		    terse->request_max <= CLI_CTL_REQUEST_MAX);
}

#define BOTH(test) \
	cmocka_unit_test_setup_teardown(test, setup_errno, teardown), \
	cmocka_unit_test_setup_teardown(test, setup_terse, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_socket_is_private),
		BOTH(test_a_live_socket_is_not_taken_over),
		BOTH(test_request_line),
		BOTH(test_line_length_limit),
		BOTH(test_answer_length_limit),
		BOTH(test_closed_early),
		BOTH(test_oldest_gives_way),
		cmocka_unit_test(test_the_two_styles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
