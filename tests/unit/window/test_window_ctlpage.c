// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control page's handler table (window/ctlpage.h) on its own, with no
 * daemon: a test handler plays the server's commands, so what is checked
 * is only what the page does with a request and its answer.  sdsi-shmem's
 * own handler is tested in tests/unit/shmem/test_shmem_ctlpage.c.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "window/ctlpage.h"

/* What the test handler was asked, and how often. */
struct calls {
	unsigned int count;
	char last[SDSI_CTLPAGE_TEXT];
	size_t replylen;
};

/*
 * Three commands: "echo TEXT" answers TEXT, "fill" writes every byte of
 * the reply and no terminator, "ping" answers "ok"; any other is unknown,
 * answered in the daemons' wording (cli/cli_ctl.c).
 */
static void test_execute(void *ctx, const char *request, char *reply,
			 size_t replylen)
{
	struct calls *calls = ctx;

	calls->count++;
	snprintf(calls->last, sizeof(calls->last), "%s", request);
	calls->replylen = replylen;
	if (!strncmp(request, "echo ", 5))
		snprintf(reply, replylen, "%s", request + 5);
	else if (!strcmp(request, "fill"))
		memset(reply, 'x', replylen);
	else if (!strcmp(request, "ping"))
		snprintf(reply, replylen, "ok");
	else
		snprintf(reply, replylen, "error: unknown request '%.*s'",
			 (int)strcspn(request, " "), request);
}

struct rig {
	struct window_ctlpage *page;
	struct calls calls;
	struct window_ctlpage_handler handler;
};

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->page = aligned_alloc(8, SDSI_CTLPAGE_SIZE);
	assert_non_null(r->page);
	memset(r->page, 0, SDSI_CTLPAGE_SIZE);
	r->handler.ctx = &r->calls;
	r->handler.execute = test_execute;
	window_ctlpage_open(r->page, 1);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	free(r->page);
	free(r);
	return 0;
}

/* A client's half, without waiting: the text, then the counter. */
static uint32_t post(struct window_ctlpage *page, const char *request)
{
	uint32_t seq = page->request + 1;

	strcpy(page->request_text, request);
	__atomic_store_n(&page->request, seq, __ATOMIC_RELEASE);
	return seq;
}

static void test_request_reaches_the_handler(void **state)
{
	struct rig *r = *state;
	uint32_t seq = post(r->page, "echo hello, window");

	assert_true(window_ctlpage_serve(r->page, &r->handler));
	assert_int_equal(r->calls.count, 1);
	assert_string_equal(r->calls.last, "echo hello, window");
	/* The handler writes into a page's worth of reply, no more. */
	assert_int_equal(r->calls.replylen, SDSI_CTLPAGE_TEXT);
	assert_int_equal(r->page->reply, seq);
	assert_string_equal(r->page->reply_text, "hello, window");
	/* Answered once: the next call finds nothing to do. */
	assert_false(window_ctlpage_serve(r->page, &r->handler));
	assert_int_equal(r->calls.count, 1);
}

static void test_unknown_command_answered(void **state)
{
	struct rig *r = *state;
	uint32_t seq = post(r->page, "reboot 0");

	assert_true(window_ctlpage_serve(r->page, &r->handler));
	assert_int_equal(r->page->reply, seq);
	assert_string_equal(r->page->reply_text,
			    "error: unknown request 'reboot'");
	/* The page still serves what the handler knows. */
	seq = post(r->page, "ping");
	assert_true(window_ctlpage_serve(r->page, &r->handler));
	assert_int_equal(r->page->reply, seq);
	assert_string_equal(r->page->reply_text, "ok");
	assert_int_equal(r->calls.count, 2);
}

/* An answer that fills the reply unterminated is published terminated. */
static void test_unterminated_answer_cut(void **state)
{
	struct rig *r = *state;
	char want[SDSI_CTLPAGE_TEXT];

	memset(want, 'x', sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	post(r->page, "fill");
	assert_true(window_ctlpage_serve(r->page, &r->handler));
	assert_memory_equal(r->page->reply_text, want, sizeof(want));
}

/* No request, or one left from before the page opened: no call. */
static void test_nothing_pending_no_call(void **state)
{
	struct rig *r = *state;

	assert_false(window_ctlpage_serve(r->page, &r->handler));
	post(r->page, "ping");
	window_ctlpage_open(r->page, 1);
	assert_false(window_ctlpage_serve(r->page, &r->handler));
	assert_int_equal(r->calls.count, 0);
}

/* The server's side in a thread, until the client says stop. */
struct server {
	struct rig *r;
	bool stop;
};

static void *serve_thread(void *arg)
{
	struct server *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		window_ctlpage_serve(s->r->page, &s->r->handler);
	return NULL;
}

/* The client half (window_ctlpage_request) against the handler's answers. */
static void test_round_trip(void **state)
{
	struct server s = { .r = *state };
	char reply[SDSI_CTLPAGE_TEXT];
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, serve_thread, &s), 0);
	assert_int_equal(window_ctlpage_request(s.r->page, "echo one", reply,
						sizeof(reply), 5000), 0);
	assert_string_equal(reply, "one");
	assert_int_equal(window_ctlpage_request(s.r->page, "frobnicate", reply,
						sizeof(reply), 5000), 0);
	assert_string_equal(reply, "error: unknown request 'frobnicate'");
	__atomic_store_n(&s.stop, true, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(s.r->calls.count, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_reaches_the_handler,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_command_answered,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unterminated_answer_cut,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_pending_no_call,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
