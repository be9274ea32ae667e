// SPDX-License-Identifier: GPL-2.0-only
/*
 * The doorbell (doorbell.h).  Both words are futexes without
 * FUTEX_PRIVATE_FLAG: ringer and server are different processes that map
 * the same file, each at its own address.  Counters wrap, so they are
 * compared by signed difference.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "doorbell.h"
#include "util/util_time.h"

/* A ringer looks at the server's magic this often while it waits. */
#define RINGER_NAP_NS	100000000l

static uint32_t load(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void futex_wait(uint32_t *word, uint32_t seen, long nap_ns)
{
	struct timespec ts = { .tv_sec = nap_ns / 1000000000l,
			       .tv_nsec = nap_ns % 1000000000l };

	/* EAGAIN (the word moved), EINTR and timeouts: the caller looks again. */
	syscall(SYS_futex, word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

static void futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static bool serving(const struct window_ctlpage *page)
{
	return load(&page->magic) == SDSI_CTLPAGE_MAGIC &&
	       load(&page->doorbell) != 0;
}

int window_doorbell_ring(struct window_ctlpage *page, unsigned int limit_ms,
			 uint64_t *waited_ns)
{
	uint64_t start = util_now_ns();
	uint64_t limit = start + (uint64_t)limit_ms * 1000000u;
	uint32_t mine, seen;

	*waited_ns = 0;
	if (!serving(page))
		return -ENODEV;
	/* The store being announced is made: the add orders it before the ring. */
	mine = __atomic_add_fetch(&page->ring, 1, __ATOMIC_SEQ_CST);
	futex_wake(&page->ring);
	for (;;) {
		uint64_t now;

		seen = load(&page->answered);
		if ((int32_t)(seen - mine) >= 0)
			break;
		now = util_now_ns();
		*waited_ns = now - start;
		if (!serving(page))
			return -ENODEV;
		if (now >= limit)
			return -ETIMEDOUT;
		futex_wait(&page->answered, seen,
			   limit - now < (uint64_t)RINGER_NAP_NS ?
			   (long)(limit - now) : RINGER_NAP_NS);
	}
	*waited_ns = util_now_ns() - start;
	return 0;
}

bool window_doorbell_timed(const struct window_ctlpage *page)
{
	return __atomic_load_n(&page->timed, __ATOMIC_RELAXED) != 0;
}

uint32_t window_doorbell_wait(struct window_ctlpage *page, uint32_t answered,
			      unsigned int timeout_us)
{
	uint32_t ring = load(&page->ring);

	if (ring != answered || !timeout_us)
		return ring;
	futex_wait(&page->ring, ring, (long)timeout_us * 1000);
	return load(&page->ring);
}

void window_doorbell_answer(struct window_ctlpage *page, uint32_t ring)
{
	/* Release: the answer in the window is visible before the word. */
	__atomic_store_n(&page->answered, ring, __ATOMIC_RELEASE);
	futex_wake(&page->answered);
}

void window_doorbell_set_timed(struct window_ctlpage *page, bool timed)
{
	__atomic_store_n(&page->timed, timed ? 1u : 0u, __ATOMIC_RELEASE);
}
