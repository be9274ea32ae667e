// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-stallmon: how late this machine runs a real-time thread, measured
 * beside each guest of the kernel rig by something that is not under test.
 *
 * It tells whoever reads a failed rig run how far the host itself fell
 * behind meanwhile; it excuses nothing (the rig reruns nothing).  It shares
 * no code with sdsi-shmem (the hardware under test).
 *
 * One SCHED_FIFO thread per CPU the process may use, pinned there, sleeps
 * to absolute CLOCK_MONOTONIC deadlines every --period-us and notes how late
 * it woke.  A real-time thread preempts every ordinary one (the poller, QEMU,
 * builds), so a wake-up much later than asked means this CPU itself did not
 * run: the hypervisor stalled it, or the kernel kept interrupts off.  It
 * sleeps rather than spins: on a 2-CPU machine a third spinning thread would
 * time its own scheduling, and a spinning real-time thread would take a CPU
 * from the guest and be throttled 50 ms in every second.
 *
 * Every lateness of at least --threshold-us is printed as it happens; at
 * exit (SIGTERM, SIGINT, or the parent's death with --exit-with-parent)
 * one summary line:
 *   sdsi-stallmon: cpus=2 wakeups=N late-over-threshold=K max-late-us=M
 *     steal-ms=S
 * (S: what /proc/stat says the hypervisor took meanwhile, for the reader).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_US UINT64_C(1000)
#define NS_PER_S UINT64_C(1000000000)
/*
 * Shorter periods would make the real-time watchers a load of their own;
 * a stop waits for at most one period.
 */
#define MIN_PERIOD_US UINT64_C(100)
#define MAX_PERIOD_US UINT64_C(1000000)
#define MAX_THRESHOLD_US UINT64_C(60000000)

struct watcher {
	pthread_t thread;
	int cpu;
	uint64_t period_ns;
	uint64_t threshold_ns;
	uint64_t wakeups;
	uint64_t late_over_threshold;
	uint64_t max_late_ns;
};

static atomic_bool stopping;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static struct timespec to_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NS_PER_S),
		.tv_nsec = (long)(ns % NS_PER_S),
	};
	return ts;
}

/* One late wake-up, with both clocks so it can be set beside other logs. */
static void report_late(const struct watcher *w, uint64_t due_ns,
			uint64_t late_ns)
{
	uint64_t wall = now_ns(CLOCK_REALTIME);
	struct tm tm;
	time_t secs = (time_t)(wall / NS_PER_S);

	gmtime_r(&secs, &tm);
	pthread_mutex_lock(&print_lock);
	printf("sdsi-stallmon: cpu %d woke %" PRIu64 " us late at monotonic "
	       "%" PRIu64 ".%06" PRIu64 " s (%04d-%02d-%02dT%02d:%02d:%02d.%06"
	       PRIu64 "Z)\n", w->cpu, late_ns / NS_PER_US, due_ns / NS_PER_S,
	       due_ns % NS_PER_S / NS_PER_US, tm.tm_year + 1900, tm.tm_mon + 1,
	       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
	       wall % NS_PER_S / NS_PER_US);
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
}

static void *watch_cpu(void *arg)
{
	struct watcher *w = arg;
	uint64_t due = now_ns(CLOCK_MONOTONIC) + w->period_ns;

	while (!atomic_load(&stopping)) {
		struct timespec ts = to_timespec(due);
		uint64_t woke, late;
		int err;

		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (err && err != EINTR) {
			fprintf(stderr, "sdsi-stallmon: cpu %d: clock_nanosleep: "
				"%s\n", w->cpu, strerror(err));
			return NULL;
		}
		woke = now_ns(CLOCK_MONOTONIC);
		if (woke < due)
			continue;	/* a signal woke it early */
		late = woke - due;
		w->wakeups++;
		if (late > w->max_late_ns)
			w->max_late_ns = late;
		if (late >= w->threshold_ns) {
			w->late_over_threshold++;
			report_late(w, due, late);
			/*
			 * Printing may block; the next deadline is counted
			 * from now so that this thread's own write is never
			 * taken for a stall of the machine.
			 */
			due = now_ns(CLOCK_MONOTONIC) + w->period_ns;
		} else {
			due += w->period_ns;
			if (due <= woke)	/* late by a period or more */
				due = woke + w->period_ns;
		}
	}
	return NULL;
}

/*
 * The time the hypervisor says it ran something else on this machine's
 * CPUs (the "steal" column of /proc/stat, in USER_HZ ticks), or 0 where it
 * does not say: a second opinion beside the late wake-ups.
 */
static uint64_t steal_ticks(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	return n == 8 ? v[7] : 0;
}

static int start_watcher(struct watcher *w)
{
	pthread_attr_t attr;
	struct sched_param param = { .sched_priority = 90 };
	cpu_set_t one;
	int err;

	CPU_ZERO(&one);
	CPU_SET(w->cpu, &one);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &param);
	pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
	err = pthread_create(&w->thread, &attr, watch_cpu, w);
	pthread_attr_destroy(&attr);
	if (err)
		fprintf(stderr, "sdsi-stallmon: cpu %d: cannot start a SCHED_FIFO "
			"thread there: %s (needs root or CAP_SYS_NICE)\n",
			w->cpu, strerror(err));
	return err;
}

/* A count of microseconds from min_us to max_us, as nanoseconds. */
static bool parse_us(const char *option, const char *s, uint64_t min_us,
		     uint64_t max_us, uint64_t *out)
{
	char *end;
	unsigned long long v = 0;

	errno = 0;
	if (*s >= '0' && *s <= '9')
		v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || errno || *end || v < min_us || v > max_us) {
		fprintf(stderr, "sdsi-stallmon: %s: bad value '%s' (microseconds"
			" from %" PRIu64 " to %" PRIu64 ")\n", option, s, min_us,
			max_us);
		return false;
	}
	*out = (uint64_t)v * NS_PER_US;
	return true;
}

/* Only to cut a watcher's sleep short when it is time to stop. */
static void wake_up(int sig)
{
	(void)sig;
}

static void usage(FILE *to)
{
	fprintf(to, "usage: sdsi-stallmon [--period-us N] [--threshold-us N] "
		"[--exit-with-parent]\n"
		"  --period-us N     wake every N us (default 500)\n"
		"  --threshold-us N  print every wake-up at least N us late "
		"(default 1000)\n"
		"  --exit-with-parent  stop (printing the summary) when the "
		"parent dies\n");
}

int main(int argc, char **argv)
{
	uint64_t period = 500 * NS_PER_US, threshold = 1000 * NS_PER_US;
	uint64_t wakeups = 0, over = 0, max_late = 0, steal;
	struct watcher *w;
	bool with_parent = false;
	cpu_set_t cpus;
	sigset_t stop_signals;
	int ncpus, started = 0, sig, i;

	for (i = 1; i < argc; i++) {
		bool has_value = i + 1 < argc;

		if (!strcmp(argv[i], "--period-us") && has_value) {
			if (!parse_us(argv[i], argv[i + 1], MIN_PERIOD_US,
				      MAX_PERIOD_US, &period))
				return 2;
			i++;
		} else if (!strcmp(argv[i], "--threshold-us") && has_value) {
			if (!parse_us(argv[i], argv[i + 1], 1, MAX_THRESHOLD_US,
				      &threshold))
				return 2;
			i++;
		} else if (!strcmp(argv[i], "--exit-with-parent")) {
			with_parent = true;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "sdsi-stallmon: bad argument '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
	}

	/* Signals are taken by sigwait below, never by the watchers. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
	/* No SA_RESTART: SIGUSR1 cuts clock_nanosleep short (EINTR). */
	sigaction(SIGUSR1, &(struct sigaction){ .sa_handler = wake_up }, NULL);
	if (with_parent) {
		pid_t parent = getppid();

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)	/* died before the prctl */
			return 0;
	}
	/* A page fault in a watcher would be its own lateness. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "sdsi-stallmon: mlockall: %s (continuing)\n",
			strerror(errno));

	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		perror("sdsi-stallmon: sched_getaffinity");
		return 1;
	}
	steal = steal_ticks();
	ncpus = CPU_COUNT(&cpus);
	w = calloc((size_t)ncpus, sizeof(*w));
	if (!w) {
		perror("sdsi-stallmon");
		return 1;
	}
	/* Before the watchers start, so that it comes first. */
	printf("sdsi-stallmon: watching %d cpus every %" PRIu64 " us, printing "
	       "wake-ups %" PRIu64 " us late or more\n", ncpus,
	       period / NS_PER_US, threshold / NS_PER_US);
	fflush(stdout);
	for (i = 0; i < CPU_SETSIZE && started < ncpus; i++) {
		if (!CPU_ISSET(i, &cpus))
			continue;
		w[started] = (struct watcher){ .cpu = i, .period_ns = period,
					       .threshold_ns = threshold };
		if (start_watcher(&w[started])) {
			atomic_store(&stopping, true);
			break;
		}
		started++;
	}
	if (!atomic_load(&stopping)) {
		sigwait(&stop_signals, &sig);
		atomic_store(&stopping, true);
	}
	for (i = 0; i < started; i++)
		pthread_kill(w[i].thread, SIGUSR1);
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		wakeups += w[i].wakeups;
		over += w[i].late_over_threshold;
		if (w[i].max_late_ns > max_late)
			max_late = w[i].max_late_ns;
	}
	free(w);
	if (started < ncpus)
		return 1;
	steal = steal_ticks() - steal;
	printf("sdsi-stallmon: cpus=%d wakeups=%" PRIu64 " late-over-threshold=%"
	       PRIu64 " max-late-us=%" PRIu64 " steal-ms=%" PRIu64 "\n", started,
	       wakeups, over, max_late / NS_PER_US,
	       steal * 1000 / (uint64_t)sysconf(_SC_CLK_TCK));
	return 0;
}
