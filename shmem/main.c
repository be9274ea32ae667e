// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem: play N On Demand sockets over a shared memory window.
 *
 * In the kernel rig the window is the guest's RAM file on the host, at the
 * physical address of the range the guest reserved (the memory that Linux's
 * intel_sdsi driver maps as its device); inside a guest it would be the
 * test module's /dev/sdsi_window; on a host it may be any file, which is
 * grown to fit.  The control page's magic appears once every socket is laid
 * out, which is the sign of readiness (ctlpage.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "sdsi/exit_status.h"
#include "control.h"
#include "ctlpage.h"
#include "doorbell.h"
#include "fe_platform.h"

#define PROGRAM		"sdsi-shmem"

/* After this long without a store, the poller naps between passes. */
#define BUSY_SPELL_NS		20000000ull
/* Passes between looks at the control socket while busy polling. */
#define CONTROL_EVERY		256u
/* --doorbell: longest sleep between looks at the control requests. */
#define DOORBELL_NAP_US		1000u
/* --doorbell: a store this old that nobody rang for was missed. */
#define UNANNOUNCED_NS		100000000ull

static volatile sig_atomic_t stop_requested;

struct options {
	struct fe_platform pf;		/* the options sdsi-emu shares */
	const char *window;
	const char *ctl;
	uint64_t offset;
	char root_key[4096];
	unsigned int idle_sleep_us;
	bool spin;
	bool doorbell;
	bool exit_with_parent;
};

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

enum shmem_option_id {
	OPT_WINDOW = 'w', OPT_HELP = 'h',
	OPT_OFFSET = 256, OPT_CTL, OPT_IDLE_SLEEP, OPT_SPIN, OPT_DOORBELL,
	OPT_EXIT_WITH_PARENT, OPT_VERSION, OPT_DUMP_COMPLETION, OPT_DUMP_OPTIONS,
};

/* The one description of the options: getopt, --help and completion. */
static const struct fe_option shmem_options[] = {
	{ OPT_WINDOW, 0, "window", "FILE", FE_ARG_FILE, NULL,
	  "the shared memory window: the guest's RAM file, /dev/sdsi_window, or any file (grown to fit)" },
	{ OPT_OFFSET, 0, "offset", "BYTES", FE_ARG_NONE, NULL,
	  "where the window starts in FILE, in decimal or 0x hex, page-aligned (default 0)" },
	{ OPT_CTL, 0, "ctl", "SOCKET", FE_ARG_FILE, NULL,
	  "also serve control requests on this Unix socket (sdsi-emu ctl's commands)" },
	FE_PLATFORM_OPTION_ENTRIES
	{ OPT_IDLE_SLEEP, 0, "idle-sleep-us", "US", FE_ARG_NONE, NULL,
	  "the nap once idle, 0 to 999999 (default 50)" },
	{ OPT_SPIN, 0, "spin", NULL, FE_ARG_NONE, NULL,
	  "keep the CPU between passes while a transaction is under way (for a host-side poller that has a core to itself)" },
	{ OPT_DOORBELL, 0, "doorbell", NULL, FE_ARG_NONE, NULL,
	  "no polling: a pass runs when the control page's doorbell rings (the sdsi-doorbell QEMU plugin rings it after each driver store); a store nobody rang for is counted as unannounced" },
	{ OPT_EXIT_WITH_PARENT, 0, "exit-with-parent", NULL, FE_ARG_NONE, NULL,
	  "end the program, as SIGTERM does, when its parent process dies" },
	{ OPT_HELP, 'h', "help", NULL, FE_ARG_NONE, NULL, "print this help and exit" },
	{ OPT_VERSION, 0, "version", NULL, FE_ARG_NONE, NULL, "print the version and exit" },
	{ OPT_DUMP_COMPLETION, 0, "dump-bash-completion", NULL, FE_ARG_NONE, NULL, NULL },
	{ OPT_DUMP_OPTIONS, 0, "dump-options", NULL, FE_ARG_NONE, NULL, NULL },
};

#define OPTION_COUNT	(sizeof(shmem_options) / sizeof(shmem_options[0]))

static const struct fe_command shmem_command = {
	NULL, "--window FILE [OPTIONS]", NULL, shmem_options, OPTION_COUNT, NULL,
};

static const struct fe_program shmem_program = { PROGRAM, &shmem_command, 1 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: sdsi-shmem --window FILE [OPTIONS]\n"
		"       sdsi-shmem --help | --version\n"
		"Play N On Demand sockets over a shared memory window.  The window\n"
		"holds N %u-byte socket slots from BYTES (--offset) into FILE, then the\n"
		"control page.  Control requests (the commands of sdsi-emu ctl) are\n"
		"served on the control page and, with --ctl, on a Unix socket.  Without\n"
		"--authority or --root-key the sockets trust no root key and refuse\n"
		"every AKC and CAP, as sdsi-emu does.  While a transaction is under\n"
		"way the poller yields the CPU between passes.\n\nOptions:\n",
		SDSI_WINDOW_SLOT_SIZE);
	fe_doc_help_options(out, shmem_options, OPTION_COUNT);
}

static int parse_unsigned(const char *name, const char *text, unsigned long long max,
			  uint64_t *value)
{
	unsigned long long v;

	if (fe_parse_uint(text, 0, max, &v)) {
		*value = v;
		return 0;
	}
	return fe_usage_error(PROGRAM, "--%s: '%s' is not a number from 0 to %llu",
			      name, text, max);
}

/* One option of sdsi-shmem's own; the platform's go to the front end. */
static int parse_one(int c, const char *arg, struct options *o)
{
	uint64_t v;

	switch (c) {
	case OPT_WINDOW: o->window = arg; return 0;
	case OPT_CTL: o->ctl = arg; return 0;
	case OPT_SPIN: o->spin = true; return 0;
	case OPT_DOORBELL: o->doorbell = true; return 0;
	case OPT_EXIT_WITH_PARENT: o->exit_with_parent = true; return 0;
	case OPT_OFFSET:
		/* A physical address: in hex (0x...) as often as in decimal. */
		if ((strncmp(arg, "0x", 2) || !fe_parse_hex64(arg, strlen(arg), &v)) &&
		    parse_unsigned("offset", arg, UINT64_MAX, &v))
			return SDSI_EXIT_USAGE;
		if (v % 4096)
			return fe_usage_error(PROGRAM, "--offset: %s is not a multiple of 4096", arg);
		o->offset = v;
		return 0;
	case OPT_IDLE_SLEEP:
		/* Under a second: nanosleep() refuses tv_nsec >= 1e9. */
		if (parse_unsigned("idle-sleep-us", arg, 999999, &v))
			return SDSI_EXIT_USAGE;
		o->idle_sleep_us = (unsigned int)v;
		return 0;
	}
	return fe_platform_option(PROGRAM, c, arg, &o->pf);
}

/* What the options only print: help, version, the generated documents. */
static void print_and_exit(int c)
{
	if (c == OPT_HELP)
		usage(stdout);
	else if (c == OPT_VERSION)
		printf("sdsi-shmem %s\n", SDSI_VERSION);
	else if (c == OPT_DUMP_COMPLETION)
		fe_doc_bash_completion(stdout, &shmem_program);
	else
		fe_doc_list_options(stdout, &shmem_program);
	exit(0);
}

/* Conflicts and what depends on several options. */
static int check_options(struct options *o, int argc, char **argv)
{
	int ret = fe_platform_finish(PROGRAM, &o->pf);

	if (ret)
		return ret;
	if (o->spin && o->doorbell)
		return fe_usage_error(PROGRAM, "--spin polls and --doorbell does not; give one");
	if (optind != argc)
		return fe_usage_error(PROGRAM, "unexpected argument '%s'", argv[optind]);
	if (!o->window)
		return fe_usage_error(PROGRAM, "no --window given");
	if (fe_platform_root_key(&o->pf, o->root_key, sizeof(o->root_key)))
		return fe_usage_error(PROGRAM, "the root key's file name is too long");
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[OPTION_COUNT + 1];
	char shortopts[16];
	int c, ret;

	fe_platform_init(&o->pf);
	o->idle_sleep_us = 50;
	fe_getopt_table(shmem_options, OPTION_COUNT, longopts, OPTION_COUNT + 1,
			shortopts, sizeof(shortopts));
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == ':')
			return fe_usage_error(PROGRAM, "option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return fe_usage_error(PROGRAM, "unknown option '%s'", argv[optind - 1]);
		if (c == OPT_HELP || c == OPT_VERSION || c == OPT_DUMP_COMPLETION ||
		    c == OPT_DUMP_OPTIONS)
			print_and_exit(c);
		ret = parse_one(c, optarg, o);
		if (ret)
			return ret;
	}
	return check_options(o, argc, argv);
}

/* The window file, mapped shared; a regular file is grown to fit. */
static void *map_window(const char *path, uint64_t offset, size_t size)
{
	struct stat st;
	void *base;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "sdsi-shmem: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < offset + size &&
	    ftruncate(fd, (off_t)(offset + size))) {
		fprintf(stderr, "sdsi-shmem: %s: cannot grow to %zu bytes: %s\n",
			path, size, strerror(errno));
		close(fd);
		return NULL;
	}
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)offset);
	close(fd);
	if (base == MAP_FAILED) {
		fprintf(stderr, "sdsi-shmem: %s: cannot map %zu bytes: %s\n",
			path, size, strerror(errno));
		return NULL;
	}
	return base;
}

/*
 * How promptly the poller looked at the window: a driver gives the silicon
 * a deadline (2 ms for RDY in Linux 6.1), and a gap between two busy passes
 * longer than that is time the hardware was not there.  Printed at exit so
 * that a rig that misses deadlines can tell whether the poller was starved.
 */
struct gap_stats {
	uint64_t longest_ns;
	uint64_t over_1ms;
	uint64_t over_2ms;
};

struct poll_stats {
	uint64_t passes;
	/*
	 * Gaps over 2 ms after which the pass found a driver store waiting:
	 * the only ones a driver can have spent waiting on the hardware (a
	 * gap in mid-transaction may be the driver's own time).
	 */
	uint64_t deadline_stalls;
	struct gap_stats busy;		/* between any two busy passes */
	struct gap_stats mid;		/* ... while a transaction was under way */
	/* --doorbell: rings answered; driver stores nobody rang for. */
	uint64_t rings;
	uint64_t unannounced;
};

static void note_gap(struct gap_stats *g, uint64_t gap_ns)
{
	if (gap_ns > g->longest_ns)
		g->longest_ns = gap_ns;
	g->over_1ms += gap_ns > 1000000u;
	g->over_2ms += gap_ns > 2000000u;
}

static void print_stats(const struct poll_stats *st, bool doorbell)
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
static bool driver_store_waiting(const struct sdsi_shmem_port *port)
{
	for (uint32_t i = 0; i < port->regs_off / 8; i++)
		if (__atomic_load_n(&port->mmio[i], __ATOMIC_ACQUIRE) !=
		    port->shadow[i])
			return true;
	return false;
}

/* Where control requests come from: the window's page, a Unix socket. */
struct controls {
	struct sdsi_ctlpage *page;
	struct shmem_control *sock;	/* NULL without --ctl */
};

static void serve_controls(const struct controls *c,
			   struct shmem_machine *machine)
{
	sdsi_ctlpage_serve(c->page, machine);
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

static void run(struct shmem_machine *machine, const struct controls *ctl,
		const struct options *o, struct poll_stats *st)
{
	struct timespec nap = { .tv_nsec = (long)o->idle_sleep_us * 1000 };
	uint64_t last_motion = now_ns(), last_pass = 0, prev_pass = 0;
	bool was_busy = false;
	unsigned int pass = 0;

	while (!stop_requested) {
		bool moved = false, busy = false, waiting = false;
		uint64_t now;
		unsigned int n;

		for (n = 0; n < machine->sockets; n++) {
			waiting |= driver_store_waiting(&machine->ports[n]);
			moved |= sdsi_shmem_poll(&machine->ports[n]);
			busy |= sdsi_shmem_busy(&machine->ports[n]);
		}
		now = now_ns();
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
			if (++pass % CONTROL_EVERY == 0)
				serve_controls(ctl, machine);
			between_passes(o->spin);
			last_pass = now;
		} else {
			serve_controls(ctl, machine);
			nanosleep(&nap, NULL);
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
			  struct sdsi_ctlpage *page)
{
	bool timed = false;

	for (unsigned int n = 0; n < machine->sockets; n++)
		timed |= sdsi_shmem_timed(&machine->ports[n]);
	sdsi_doorbell_set_timed(page, timed);
}

static void doorbell_pass(struct shmem_machine *machine,
			  struct sdsi_ctlpage *page, struct poll_stats *st)
{
	for (unsigned int n = 0; n < machine->sockets; n++)
		sdsi_shmem_poll(&machine->ports[n]);
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
static void run_doorbell(struct shmem_machine *machine,
			 const struct controls *ctl, struct poll_stats *st)
{
	uint32_t answered = __atomic_load_n(&ctl->page->answered,
					    __ATOMIC_ACQUIRE);
	uint64_t waiting_since = 0;

	while (!stop_requested) {
		uint32_t ring = sdsi_doorbell_wait(ctl->page, answered,
						   DOORBELL_NAP_US);

		if (ring != answered) {
			doorbell_pass(machine, ctl->page, st);
			sdsi_doorbell_answer(ctl->page, ring);
			st->rings += (uint32_t)(ring - answered);
			answered = ring;
			waiting_since = 0;
			continue;
		}
		serve_controls(ctl, machine);
		if (any_store_waiting(machine)) {
			/* Left for its ring, which follows at once normally. */
			if (!waiting_since) {
				waiting_since = now_ns();
			} else if (now_ns() - waiting_since > UNANNOUNCED_NS) {
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

/* The sockets: a model for each, attached to its slot of the window. */
static int create_sockets(struct shmem_machine *machine, const struct options *o,
			  char *base)
{
	char err[256];

	machine->models = calloc(o->pf.sockets, sizeof(*machine->models));
	machine->ports = calloc(o->pf.sockets, sizeof(*machine->ports));
	if (!machine->models || !machine->ports) {
		fprintf(stderr, "sdsi-shmem: out of memory\n");
		return -ENOMEM;
	}
	for (unsigned int n = 0; n < o->pf.sockets; n++) {
		struct sdsi_model_config cfg;

		/* The platform options, as sdsi-emu reads them too. */
		fe_platform_model_config(&o->pf, n, &cfg);
		cfg.state_dir = o->pf.state_dir;
		cfg.root_key_path = o->root_key[0] ? o->root_key : NULL;
		if (sdsi_model_create(&cfg, &machine->models[n], err, sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: socket %u: %s\n", n, err);
			return -EINVAL;
		}
		machine->sockets = n + 1;
		if (fe_platform_model_setup(&o->pf, machine->models[n], n, err, sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: %s\n", err);
			return -EINVAL;
		}
		if (sdsi_shmem_attach(&machine->ports[n], machine->models[n],
				      base + (size_t)n * SDSI_WINDOW_SLOT_SIZE)) {
			fprintf(stderr, "sdsi-shmem: socket %u: MMIO region "
				"does not fit a %u-byte slot\n", n, SDSI_WINDOW_SLOT_SIZE);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Signals, --exit-with-parent and --ctl.  A parent killed outright (the
 * rig on SIGKILL) must not leave a poller spinning.  A parent that died
 * before prctl() took effect sends nothing, hence the look at getppid():
 * reparented means the parent we started with is gone.
 */
static int start_controls(const struct options *o, pid_t parent,
			  struct shmem_control *sock, struct controls *ctl)
{
	struct sigaction sa = { .sa_handler = on_signal };
	char err[256];

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o->exit_with_parent) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM)) {
			fprintf(stderr, "sdsi-shmem: --exit-with-parent: %s\n",
				strerror(errno));
			return -errno;
		}
		if (getppid() != parent)
			stop_requested = 1;
	}
	if (o->ctl) {
		if (shmem_control_listen(sock, o->ctl, err, sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: control socket %s\n", err);
			return -EIO;
		}
		ctl->sock = sock;
	}
	return 0;
}

/* Announce the page (last: its magic says all is laid out), serve, withdraw. */
static void serve(struct shmem_machine *machine, struct controls *ctl,
		  const struct options *o)
{
	struct poll_stats stats = { 0 };

	if (o->doorbell)
		__atomic_store_n(&ctl->page->doorbell, 1u, __ATOMIC_RELEASE);
	sdsi_ctlpage_open(ctl->page, o->pf.sockets);
	if (o->doorbell)
		run_doorbell(machine, ctl, &stats);
	else
		run(machine, ctl, o, &stats);
	sdsi_ctlpage_close(ctl->page);
	print_stats(&stats, o->doorbell);
	if (ctl->sock) {
		shmem_control_close(ctl->sock);
		unlink(o->ctl);
	}
}

int main(int argc, char **argv)
{
	struct shmem_machine machine = { 0 };
	struct options o = { 0 };
	pid_t parent = getppid();	/* first: see --exit-with-parent */
	static struct shmem_control ctl_socket;
	struct controls ctl = { .sock = NULL };
	size_t window_size;
	int status = 1, ret;
	char *base;

	ret = parse_options(argc, argv, &o);
	if (ret)
		return ret;
	window_size = sdsi_ctlpage_offset(o.pf.sockets) + SDSI_CTLPAGE_SIZE;
	base = map_window(o.window, o.offset, window_size);
	if (!base)
		return 1;
	/*
	 * A window file reused after a killed run still holds that run's
	 * magic, which would announce readiness before the sockets are laid
	 * out: withdraw it before anything else.
	 */
	ctl.page = (struct sdsi_ctlpage *)(base + sdsi_ctlpage_offset(o.pf.sockets));
	sdsi_ctlpage_close(ctl.page);
	if (!create_sockets(&machine, &o, base) &&
	    !start_controls(&o, parent, &ctl_socket, &ctl)) {
		serve(&machine, &ctl, &o);
		status = 0;
	}
	for (unsigned int n = 0; n < machine.sockets; n++)
		sdsi_model_destroy(machine.models[n]);
	free(machine.models);
	free(machine.ports);
	munmap(base, window_size);
	return status;
}
