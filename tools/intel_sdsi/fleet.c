// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running one job per socket concurrently (fleet.h).
 *
 * Why this is safe: the jobs call only libsdsi, whose functions keep no
 * state between calls (no static or global buffer: lib/ has none that is
 * written, every message goes into the caller's struct sdsi_error), and
 * glibc's strerror(), which libsdsi uses for an errno it has no words of its
 * own for, is thread-safe since glibc 2.32 (Debian 12 has 2.36).  Each job
 * opens its own file descriptors on its own device's attributes and writes
 * into its own slot; nothing is printed from a thread, so json-c and stdio
 * are used from the main thread only.  The slots are read after
 * pthread_join(), which orders every write of the job before the read.
 */
#include <pthread.h>
#include <stdlib.h>

#include "fleet.h"

struct fleet {
	void (*job)(void *ctx, size_t i);
	void *ctx;
	size_t count;
	size_t next;		/* the next job to take, under the atomics below */
};

/* Jobs are taken one at a time, so a slow socket delays no other. */
static void *worker(void *arg)
{
	struct fleet *f = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED)) < f->count)
		f->job(f->ctx, i);
	return NULL;
}

void fleet_run(size_t count, void (*job)(void *ctx, size_t i), void *ctx)
{
	struct fleet f = { .job = job, .ctx = ctx, .count = count };
	size_t nthreads = count < FLEET_MAX_THREADS ? count : FLEET_MAX_THREADS;
	pthread_t *threads;
	size_t started = 0;

	/* One socket gains nothing from a thread: run it here. */
	threads = nthreads > 1 ? calloc(nthreads - 1, sizeof(*threads)) : NULL;
	for (; threads && started < nthreads - 1; started++)
		if (pthread_create(&threads[started], NULL, worker, &f) != 0)
			break;
	/* The calling thread is a worker too: with no thread at all, it runs them all. */
	worker(&f);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	free(threads);
}
