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

#include "control.h"
#include "ctlpage.h"
#include "doorbell.h"

#define MAX_SOCKETS		8u
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
	const char *window;
	const char *ctl;
	uint64_t offset;
	const char *state_dir;
	const char *authority_dir;
	char root_key[4096];
	unsigned int sockets;
	unsigned int idle_sleep_us;
	bool spin;
	bool doorbell;
	bool exit_with_parent;
	struct sdsi_model_config cfg;
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

static void usage(FILE *out)
{
	fprintf(out,
		"usage: sdsi-shmem --window FILE [--offset BYTES] [--ctl SOCKET] [--sockets N]\n"
		"                  [--guid v1|v2]\n"
		"                  [--features LIST|none|0xHEX] [--state-dir DIR]\n"
		"                  [--akc-threshold N] [--cap-threshold N] [--updates N]\n"
		"                  [--authority DIR | --root-key FILE] [--idle-sleep-us US]\n"
		"                  [--spin | --doorbell] [--exit-with-parent]\n"
		"       sdsi-shmem --help | --version\n"
		"The window holds N %u-byte socket slots from BYTES (default 0; page-\n"
		"aligned) into FILE, then the control page.  Control requests are served\n"
		"on the control page and, with --ctl, on a Unix socket.  Without\n"
		"--authority or --root-key the sockets trust no root key and refuse\n"
		"every AKC and CAP, as sdsi-emu does.  While a transaction is under\n"
		"way the poller yields the CPU between passes; --spin keeps it (for a\n"
		"host-side poller that has a core to itself).  --doorbell: no\n"
		"polling; a pass runs when the control page's doorbell rings (the\n"
		"sdsi-doorbell QEMU plugin rings it after each driver store), and\n"
		"a store nobody rang for is counted as unannounced.  --idle-sleep-us\n"
		"is the nap once idle, 0 to 999999 (default 50).  --exit-with-parent\n"
		"ends the program, as SIGTERM does, when its parent process dies.\n",
		SDSI_SHMEM_SLOT_SIZE);
}

static int parse_features(const char *text, uint64_t *out)
{
	char *copy, *save = NULL, *end;
	int ret = 0;

	if (!strcmp(text, "none")) {
		*out = 0;
		return 0;
	}
	if (!strncmp(text, "0x", 2)) {
		errno = 0;
		*out = strtoull(text, &end, 16);
		return errno || *end ? -EINVAL : 0;
	}
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	*out = 0;
	for (char *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "on-demand"))
			*out |= SDSI_FEATURE_ON_DEMAND;
		else if (!strcmp(t, "attestation"))
			*out |= SDSI_FEATURE_ATTESTATION;
		else if (!strcmp(t, "metering"))
			*out |= SDSI_FEATURE_METERING;
		else
			ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static int parse_small(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(text, &end, 0);
	return errno || *end || !*text || *out > max ? -EINVAL : 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "window", required_argument, NULL, 'w' },
		{ "ctl", required_argument, NULL, 'c' },
		{ "offset", required_argument, NULL, 'o' },
		{ "sockets", required_argument, NULL, 'n' },
		{ "guid", required_argument, NULL, 'g' },
		{ "features", required_argument, NULL, 'f' },
		{ "state-dir", required_argument, NULL, 's' },
		{ "akc-threshold", required_argument, NULL, 'A' },
		{ "cap-threshold", required_argument, NULL, 'C' },
		{ "updates", required_argument, NULL, 'U' },
		{ "idle-sleep-us", required_argument, NULL, 'i' },
		{ "authority", required_argument, NULL, 'a' },
		{ "root-key", required_argument, NULL, 'r' },
		{ "spin", no_argument, NULL, 'S' },
		{ "doorbell", no_argument, NULL, 'D' },
		{ "exit-with-parent", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	unsigned long v;
	int c;

	o->sockets = 1;
	o->idle_sleep_us = 50;
	o->cfg.guid = SDSI_GUID_V2;
	o->cfg.features = UINT64_MAX;	/* the GUID's default, once known */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w': o->window = optarg; break;
		case 'c': o->ctl = optarg; break;
		case 'o': {
			char *end;

			errno = 0;
			o->offset = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg || o->offset % 4096)
				goto bad;
			break;
		}
		case 's': o->state_dir = optarg; break;
		case 'a': case 'r':
			if (o->authority_dir || o->root_key[0]) {
				fprintf(stderr, "sdsi-shmem: --authority and --root-key both name the root key; give one\n");
				return -EINVAL;
			}
			/* Like sdsi-emu: DIR/root.pub as 'sdsi-authority init' writes it. */
			if ((size_t)snprintf(o->root_key, sizeof(o->root_key),
					     c == 'a' ? "%s/root.pub" : "%s",
					     optarg) >= sizeof(o->root_key))
				goto bad;
			if (c == 'a')
				o->authority_dir = optarg;
			break;
		case 'n':
			if (parse_small(optarg, MAX_SOCKETS, &v) || !v)
				goto bad;
			o->sockets = (unsigned int)v;
			break;
		case 'g':
			if (!strcmp(optarg, "v1"))
				o->cfg.guid = SDSI_GUID_V1;
			else if (!strcmp(optarg, "v2"))
				o->cfg.guid = SDSI_GUID_V2;
			else
				goto bad;
			break;
		case 'f':
			if (parse_features(optarg, &o->cfg.features))
				goto bad;
			break;
		case 'A': case 'C': case 'U':
			if (parse_small(optarg, SDSI_FIELD3_MASK, &v))
				goto bad;
			if (c == 'A')
				o->cfg.akc_fail_threshold = (uint8_t)v;
			else if (c == 'C')
				o->cfg.cap_fail_threshold = (uint8_t)v;
			else
				o->cfg.updates_threshold = (uint8_t)v;
			break;
		case 'i':
			/* Under a second: nanosleep() refuses tv_nsec >= 1e9. */
			if (parse_small(optarg, 999999, &v))
				goto bad;
			o->idle_sleep_us = (unsigned int)v;
			break;
		case 'S':
			o->spin = true;
			break;
		case 'D':
			o->doorbell = true;
			break;
		case 'P':
			o->exit_with_parent = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("sdsi-shmem %s\n", SDSI_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	/* A V1 part predates attestation and metering (as sdsi-emu has it). */
	if (o->cfg.features == UINT64_MAX)
		o->cfg.features = o->cfg.guid == SDSI_GUID_V1 ?
				  SDSI_FEATURE_ON_DEMAND :
				  SDSI_MODEL_DEFAULT_FEATURES;
	if (o->spin && o->doorbell) {
		fprintf(stderr, "sdsi-shmem: --spin polls and --doorbell does not; give one\n");
		return -EINVAL;
	}
	if (optind != argc || !o->window) {
		usage(stderr);
		return -EINVAL;
	}
	return 0;
bad:
	/* Named from the table: argv holds "--opt=value" or just the value. */
	for (const struct option *opt = longopts; opt->name; opt++)
		if (opt->val == c)
			fprintf(stderr, "sdsi-shmem: bad value '%s' for --%s\n",
				optarg, opt->name);
	return -EINVAL;
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

int main(int argc, char **argv)
{
	struct shmem_machine machine = { 0 };
	struct options o = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct poll_stats stats = { 0 };
	pid_t parent = getppid();	/* first: see --exit-with-parent */
	char err[256];
	unsigned int n;
	static struct shmem_control ctl_socket;
	struct controls ctl = { .sock = NULL };
	size_t window_size;
	int status = 1;
	char *base;

	if (parse_options(argc, argv, &o))
		return 2;
	window_size = sdsi_ctlpage_offset(o.sockets) + SDSI_CTLPAGE_SIZE;
	base = map_window(o.window, o.offset, window_size);
	if (!base)
		return 1;
	/*
	 * A window file reused after a killed run still holds that run's
	 * magic, which would announce readiness before the sockets are laid
	 * out: withdraw it before anything else.
	 */
	sdsi_ctlpage_close((struct sdsi_ctlpage *)(base +
			   sdsi_ctlpage_offset(o.sockets)));
	machine.models = calloc(o.sockets, sizeof(*machine.models));
	machine.ports = calloc(o.sockets, sizeof(*machine.ports));
	if (!machine.models || !machine.ports) {
		fprintf(stderr, "sdsi-shmem: out of memory\n");
		goto out;
	}
	for (n = 0; n < o.sockets; n++) {
		struct sdsi_model_config cfg = o.cfg;

		cfg.socket_index = n;
		cfg.socket_id = (uint8_t)n;
		cfg.state_dir = o.state_dir;
		cfg.root_key_path = o.root_key[0] ? o.root_key : NULL;
		if (sdsi_model_create(&cfg, &machine.models[n], err,
				      sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: socket %u: %s\n", n, err);
			goto out;
		}
		machine.sockets = n + 1;
		if (sdsi_shmem_attach(&machine.ports[n], machine.models[n],
				      base + (size_t)n * SDSI_SHMEM_SLOT_SIZE)) {
			fprintf(stderr, "sdsi-shmem: socket %u: MMIO region "
				"does not fit a %u-byte slot\n", n,
				SDSI_SHMEM_SLOT_SIZE);
			goto out;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * A parent killed outright (the rig on SIGKILL) must not leave a
	 * poller spinning.  A parent that died before prctl() took effect
	 * sends nothing, hence the look at getppid(): reparented means the
	 * parent we started with is gone.
	 */
	if (o.exit_with_parent) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM)) {
			fprintf(stderr, "sdsi-shmem: --exit-with-parent: %s\n",
				strerror(errno));
			goto out;
		}
		if (getppid() != parent)
			stop_requested = 1;
	}
	if (o.ctl) {
		if (shmem_control_listen(&ctl_socket, o.ctl, err, sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: control socket %s\n", err);
			goto out;
		}
		ctl.sock = &ctl_socket;
	}
	/* Last: the page's magic tells the far side that all is laid out. */
	ctl.page = (struct sdsi_ctlpage *)(base +
					   sdsi_ctlpage_offset(o.sockets));
	if (o.doorbell)
		__atomic_store_n(&ctl.page->doorbell, 1u, __ATOMIC_RELEASE);
	sdsi_ctlpage_open(ctl.page, o.sockets);
	if (o.doorbell)
		run_doorbell(&machine, &ctl, &stats);
	else
		run(&machine, &ctl, &o, &stats);
	sdsi_ctlpage_close(ctl.page);
	print_stats(&stats, o.doorbell);
	if (ctl.sock) {
		shmem_control_close(ctl.sock);
		unlink(o.ctl);
	}
	status = 0;
out:
	for (n = 0; n < machine.sockets; n++)
		sdsi_model_destroy(machine.models[n]);
	free(machine.models);
	free(machine.ports);
	munmap(base, window_size);
	return status;
}
