// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's passes over the window: the polling loop (busy passes while
 * a transaction is under way, naps once idle, and the gaps between passes
 * counted for the exit report) and the --doorbell loop (a pass for each
 * ring, none without one).  Control requests are served between passes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "window/doorbell.h"
#include "serve_loop.h"
#include "util/util_time.h"

/* After this long without a store, the poller naps between passes. */
#define BUSY_SPELL_NS		20000000ull
/* Passes between looks at the control socket while busy polling. */
#define CONTROL_EVERY		256u
/* --doorbell: longest sleep between looks at the control requests. */
#define DOORBELL_NAP_US		1000u
/* --doorbell: a store this old that nobody rang for was missed. */
#define UNANNOUNCED_NS		100000000ull

volatile sig_atomic_t shmem_stop_requested;

/*
 * SIGINT and SIGTERM stay blocked and are taken here, synchronously, where
 * the loops nap or look at their controls: a handler would be run by
 * ThreadSanitizer's runtime only at some later intercepted call, which a
 * stopping daemon was seen never to reach (its SIGTERM consumed, the loop
 * going on).  A pending signal also ends a nap at once.
 */
static sigset_t stop_set;

int shmem_stop_signals_block(void)
{
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	return sigprocmask(SIG_BLOCK, &stop_set, NULL) ? -errno : 0;
}

/* Sleep up to ts (zero: only look), ending early on a stop signal. */
static void nap_or_stop(const struct timespec *ts)
{
	if (sigtimedwait(&stop_set, NULL, ts) > 0)
		shmem_stop_requested = 1;
}

static const struct timespec no_wait;

static void note_gap(struct shmem_gap_stats *g, uint64_t gap_ns)
{
	if (gap_ns > g->longest_ns)
		g->longest_ns = gap_ns;
	g->over_1ms += gap_ns > 1000000u;
	g->over_2ms += gap_ns > 2000000u;
}

void shmem_print_stats(const struct shmem_poll_stats *st, bool doorbell)
{
	if (doorbell) {
		/* No polling, so no gaps: a driver never waits on a pass. */
		fprintf(stderr, "sdsi-shmem: doorbell: %" PRIu64 " passes for %"
			PRIu64 " rings\n", st->passes, st->rings);
		fprintf(stderr, "sdsi-shmem: unannounced-stores=%" PRIu64 "\n",
			st->unannounced);
		return;
	}
	fprintf(stderr, "sdsi-shmem: %" PRIu64 " passes; gaps between busy "
		"passes: longest %" PRIu64 " us, %" PRIu64 " over 1 ms, %"
		PRIu64 " over 2 ms; with a transaction under way: longest %"
		PRIu64 " us, %" PRIu64 " over 1 ms, %" PRIu64 " over 2 ms\n",
		st->passes, st->busy.longest_ns / 1000, st->busy.over_1ms,
		st->busy.over_2ms, st->mid.longest_ns / 1000, st->mid.over_1ms,
		st->mid.over_2ms);
	/* On its own line, for scripts: a diagnostic of the spinning poller. */
	fprintf(stderr, "sdsi-shmem: deadline-stalls=%" PRIu64 "\n",
		st->deadline_stalls);
}

/*
 * Whether the driver stored to control or mailbox since the port last
 * looked: a writable qword differs from what the port last saw there.
 * Taken before the pass, so a store that lands during the pass (one no
 * driver waited through the gap for) is not counted.
 */
static bool driver_store_waiting(const struct shmem_port *port)
{
	for (uint32_t i = 0; i < port->regs_off / 8; i++)
		if (__atomic_load_n(&port->mmio[i], __ATOMIC_ACQUIRE) !=
		    port->shadow[i])
			return true;
	return false;
}

static void serve_controls(const struct shmem_controls *c,
			   struct shmem_machine *machine)
{
	shmem_control_serve_page(c->page, machine);
	if (c->sock)
		shmem_control_serve(c->sock, machine);
}

/*
 * Between busy passes.  sched_yield() lets a guest's other tasks run on the
 * poller's vCPU, but on a host it can hand the core to a QEMU thread for a
 * whole scheduler slice, longer than the 2 ms Linux 6.1 waits for RDY.
 */
static void between_passes(bool spin)
{
	if (!spin) {
		sched_yield();
		return;
	}
	for (int i = 0; i < 64; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
}

void shmem_run(struct shmem_machine *machine, const struct shmem_controls *ctl,
	       const struct shmem_options *o, struct shmem_poll_stats *st)
{
	struct timespec nap = { .tv_nsec = (long)o->idle_sleep_us * 1000 };
	uint64_t last_motion = util_now_ns(), last_pass = 0, prev_pass = 0;
	bool was_busy = false;
	unsigned int pass = 0;

	while (!shmem_stop_requested) {
		bool moved = false, busy = false, waiting = false;
		uint64_t now;
		unsigned int n;

		for (n = 0; n < machine->sockets; n++) {
			waiting |= driver_store_waiting(&machine->ports[n]);
			moved |= shmem_port_poll(&machine->ports[n]);
			busy |= shmem_port_busy(&machine->ports[n]);
		}
		now = util_now_ns();
		st->passes++;
		/*
		 * Only gaps between busy passes count: naps are deliberate.  A
		 * gap that began mid-transaction is one a driver waited through.
		 */
		if (last_pass) {
			note_gap(&st->busy, now - last_pass);
			if (was_busy)
				note_gap(&st->mid, now - last_pass);
		}
		/*
		 * Naps count here: a driver's request waits through one too.
		 * (The gap, end of pass to end of pass, bounds its wait.)
		 */
		if (waiting && prev_pass && now - prev_pass > 2000000u)
			st->deadline_stalls++;
		prev_pass = now;
		was_busy = busy;
		if (moved || busy)
			last_motion = now;
		if (busy || now - last_motion < BUSY_SPELL_NS) {
			if (++pass % CONTROL_EVERY == 0) {
				serve_controls(ctl, machine);
				nap_or_stop(&no_wait);
			}
			between_passes(o->spin);
			last_pass = now;
		} else {
			serve_controls(ctl, machine);
			nap_or_stop(&nap);
			last_pass = 0;
		}
	}
}

static bool any_store_waiting(const struct shmem_machine *machine)
{
	for (unsigned int n = 0; n < machine->sockets; n++)
		if (driver_store_waiting(&machine->ports[n]))
			return true;
	return false;
}

/* Tell the ringer whether an answer now waits on time alone. */
static void publish_timed(const struct shmem_machine *machine,
			  struct window_ctlpage *page)
{
	bool timed = false;

	for (unsigned int n = 0; n < machine->sockets; n++)
		timed |= shmem_port_timed(&machine->ports[n]);
	window_doorbell_set_timed(page, timed);
}

static void doorbell_pass(struct shmem_machine *machine,
			  struct window_ctlpage *page, struct shmem_poll_stats *st)
{
	for (unsigned int n = 0; n < machine->sockets; n++)
		shmem_port_poll(&machine->ports[n]);
	publish_timed(machine, page);
	st->passes++;
}

/*
 * --doorbell: a pass for each ring (several rings that came during one
 * pass are answered by the next), control requests between rings, and
 * no pass without a ring: what the driver sees changes only at its own
 * accesses (or by a control request), never with the host's timing.  A
 * driver store found with no ring for it long after it landed is one the
 * ringer missed, which would leave the driver to the host's scheduling
 * again: it is served, and counted for the rig to fail the run.
 */
void shmem_run_doorbell(struct shmem_machine *machine,
			const struct shmem_controls *ctl,
			struct shmem_poll_stats *st)
{
	uint32_t answered = __atomic_load_n(&ctl->page->answered,
					    __ATOMIC_ACQUIRE);
	uint64_t waiting_since = 0;
	unsigned int rung = 0;

	while (!shmem_stop_requested) {
		uint32_t ring = window_doorbell_wait(ctl->page, answered,
						     DOORBELL_NAP_US);

		if (ring != answered) {
			doorbell_pass(machine, ctl->page, st);
			window_doorbell_answer(ctl->page, ring);
			st->rings += (uint32_t)(ring - answered);
			answered = ring;
			waiting_since = 0;
			if (++rung % CONTROL_EVERY == 0)
				nap_or_stop(&no_wait);
			continue;
		}
		serve_controls(ctl, machine);
		nap_or_stop(&no_wait);
		if (any_store_waiting(machine)) {
			/* Left for its ring, which follows at once normally. */
			if (!waiting_since) {
				waiting_since = util_now_ns();
			} else if (util_now_ns() - waiting_since > UNANNOUNCED_NS) {
				st->unannounced++;
				doorbell_pass(machine, ctl->page, st);
				waiting_since = 0;
			}
			continue;
		}
		waiting_since = 0;
		/* A control request may have shown a new control value. */
		publish_timed(machine, ctl->page);
	}
}
