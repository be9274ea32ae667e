// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's passes over the window (serve_loop.c): the polling loop and
 * the doorbell loop, and what they count for the exit report.  Internal to
 * the sdsi-shmem program.
 */
#ifndef SDSI_SHMEM_SERVE_LOOP_H
#define SDSI_SHMEM_SERVE_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "control.h"
#include "window/ctlpage.h"
#include "shmem_options.h"

/* Set by SIGINT, SIGTERM or a parent gone; each loop ends at its next look. */
extern volatile sig_atomic_t shmem_stop_requested;

/* Block SIGINT and SIGTERM, which the loops then take themselves: 0 or -errno. */
int shmem_stop_signals_block(void);

/*
 * How promptly the poller looked at the window: a driver gives the silicon
 * a deadline (2 ms for RDY in Linux 6.1), and a gap between two busy passes
 * longer than that is time the hardware was not there.  Printed at exit so
 * that a rig that misses deadlines can tell whether the poller was starved.
 */
struct shmem_gap_stats {
	uint64_t longest_ns;
	uint64_t over_1ms;
	uint64_t over_2ms;
};

struct shmem_poll_stats {
	uint64_t passes;
	/*
	 * Gaps over 2 ms after which the pass found a driver store waiting:
	 * the only ones a driver can have spent waiting on the hardware (a
	 * gap in mid-transaction may be the driver's own time).
	 */
	uint64_t deadline_stalls;
	struct shmem_gap_stats busy;	/* between any two busy passes */
	struct shmem_gap_stats mid;	/* ... while a transaction was under way */
	/* --doorbell: rings answered; driver stores nobody rang for. */
	uint64_t rings;
	uint64_t unannounced;
};

/* Where control requests come from: the window's page, a Unix socket. */
struct shmem_controls {
	struct window_ctlpage *page;
	struct shmem_control *sock;	/* NULL without --ctl */
};

/* Polling, with o's --idle-sleep-us and --spin. */
void shmem_run(struct shmem_machine *machine, const struct shmem_controls *ctl,
	       const struct shmem_options *o, struct shmem_poll_stats *st);
/* --doorbell: a pass for each ring of the control page's doorbell. */
void shmem_run_doorbell(struct shmem_machine *machine,
			const struct shmem_controls *ctl,
			struct shmem_poll_stats *st);
void shmem_print_stats(const struct shmem_poll_stats *st, bool doorbell);

#endif
