// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control page (ctlpage.h).  The two sides meet only in memory, so
 * every text is written before the counter that publishes it (release)
 * and read after the counter that announced it (acquire).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctlpage.h"
#include "util/util_time.h"

static uint32_t load(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

void window_ctlpage_open(struct window_ctlpage *page, unsigned int sockets)
{
	store(&page->magic, 0);
	memset(page->request_text, 0, sizeof(page->request_text));
	memset(page->reply_text, 0, sizeof(page->reply_text));
	page->version = SDSI_CTLPAGE_VERSION;
	page->sockets = sockets;
	/* A request left from an earlier server is not answered. */
	store(&page->reply, load(&page->request));
	/* Nor a ring; the doorbell word itself is the server's to set first. */
	store(&page->answered, load(&page->ring));
	store(&page->timed, 0);
	store(&page->magic, SDSI_CTLPAGE_MAGIC);
}

void window_ctlpage_close(struct window_ctlpage *page)
{
	store(&page->magic, 0);
	store(&page->doorbell, 0);
	/*
	 * A ringer that still saw 'timed' would ring before loads that no
	 * server answers; the rig's guest outlives one server and meets the
	 * next (rig/rig-boot.sh).
	 */
	store(&page->timed, 0);
}

bool window_ctlpage_serve(struct window_ctlpage *page,
			  const struct window_ctlpage_handler *handler)
{
	char line[SDSI_CTLPAGE_TEXT + 1], reply[SDSI_CTLPAGE_TEXT];
	uint32_t seq = load(&page->request);

	if (seq == load(&page->reply))
		return false;
	memcpy(line, page->request_text, SDSI_CTLPAGE_TEXT);
	line[SDSI_CTLPAGE_TEXT] = '\0';
	/*
	 * A client that did not wait for its reply may have rewritten the
	 * text during the copy: a torn line is not executed, the next call
	 * takes the new request whole.  The fence keeps the copy's loads
	 * before this look at the counter.
	 */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (load(&page->request) != seq)
		return false;
	/* Whatever the handler leaves, the page gets a terminated text. */
	reply[0] = '\0';
	handler->execute(handler->ctx, line, reply, sizeof(reply));
	reply[sizeof(reply) - 1] = '\0';
	memcpy(page->reply_text, reply, strlen(reply) + 1);
	store(&page->reply, seq);
	return true;
}

int window_ctlpage_request(struct window_ctlpage *page, const char *request,
			   char *reply, size_t replylen, unsigned int timeout_ms)
{
	uint64_t deadline = util_now_ms() + timeout_ms;
	size_t len = strlen(request);
	uint32_t seq;

	if (load(&page->magic) != SDSI_CTLPAGE_MAGIC)
		return -ENODEV;
	if (len >= SDSI_CTLPAGE_TEXT)
		return -E2BIG;
	/* The text of an unanswered request is the server's until answered. */
	while (load(&page->reply) != load(&page->request)) {
		if (util_now_ms() > deadline)
			return -EBUSY;
		if (load(&page->magic) != SDSI_CTLPAGE_MAGIC)
			return -ENODEV;
		sched_yield();
	}
	memcpy(page->request_text, request, len + 1);
	seq = load(&page->request) + 1;
	store(&page->request, seq);
	while (load(&page->reply) != seq) {
		if (util_now_ms() > deadline)
			return -ETIMEDOUT;
		if (load(&page->magic) != SDSI_CTLPAGE_MAGIC)
			return -ENODEV;
		sched_yield();
	}
	snprintf(reply, replylen, "%s", page->reply_text);
	return 0;
}
