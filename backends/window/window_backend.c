// SPDX-License-Identifier: GPL-2.0-only
/*
 * The window backend (window_backend.h).  The window is memory another
 * process writes, so every access is an atomic 64-bit load or store: the
 * server's port relies on the driver's stores landing in program order,
 * as x86 MMIO writes do (shmem/sdsi_shmem.c).  Where the last probe found
 * the MMIO region is kept in atomics because the register file is read
 * without the mailbox lock (fusedrv_files.c) while a bind may probe again.
 *
 * The window is a file its owner can truncate while we map it; a load or
 * store past its new end raises SIGBUS.  Checking the size first (fstat
 * before each access) cannot prevent that: the file can shrink between the
 * check and the access.  So every access to the window runs under a guard:
 * a SIGBUS inside the mapping, raised by a guarded access of this thread,
 * jumps back to where the access began (the fault is synchronous, at a
 * plain load or store or in the doorbell's futex loop, which hold no lock
 * and allocate nothing, so nothing is left half done), and the access
 * fails as a device that stopped answering does: loads read all ones,
 * stores go nowhere.  The window is then marked lost, said once on
 * stderr, and the process is asked to stop (SIGTERM to itself), so that
 * sdsi-emu unmounts the tree and exits with an error rather than leave a
 * dead mount behind.  Any other SIGBUS kills the process as it always did.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "window/doorbell.h"
#include "sdsi/hw.h"
#include "window_backend.h"
#include "window/window_file.h"

#define WINDOW_PAGE		4096u
#define WAIT_STEP_MS		10u

/*
 * The guarded access under way in this thread, if any, and the window it
 * is in.  initial-exec: the handler reads them without calling into the
 * dynamic loader (sdsi-emu links this library statically).
 */
static __thread sigjmp_buf *guard_jump __attribute__((tls_model("initial-exec")));
static __thread const struct window_backend *guard_window __attribute__((tls_model("initial-exec")));

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
	const struct window_backend *w = guard_window;
	sigjmp_buf *jump = guard_jump;
	const char *addr = info->si_addr;

	(void)uctx;
	if (jump && w && w->base && addr >= w->base && addr < w->base + w->bytes) {
		guard_jump = NULL;
		siglongjmp(*jump, 1);	/* SA_NODEFER: no mask to restore */
	}
	/* Not a window access of ours (or sent by kill): die of it, as without the guard. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Install the handler once for the process (every thread shares it). */
static int guard_install(void)
{
	static bool installed;
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	if (__atomic_exchange_n(&installed, true, __ATOMIC_ACQ_REL))
		return 0;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, NULL) < 0 ? -errno : 0;
}

/*
 * GUARDED(w, on_fault): open a guarded section in the calling function;
 * if the window shrinks under one of its accesses, on_fault runs instead
 * of the rest (it must return).  GUARD_END closes the section.  The jump
 * buffer lives in the caller's frame, valid while it runs.
 */
#define GUARDED(w, on_fault) \
	sigjmp_buf guard_buf_; \
	if (sigsetjmp(guard_buf_, 0)) { \
		guard_window = NULL; \
		on_fault; \
	} \
	guard_window = (w); \
	guard_jump = &guard_buf_
#define GUARD_END() \
	do { guard_jump = NULL; guard_window = NULL; } while (0)

bool window_backend_is_lost(const struct window_backend *w)
{
	return __atomic_load_n(&w->lost, __ATOMIC_ACQUIRE);
}

void window_backend_stop_on_loss(struct window_backend *w)
{
	__atomic_store_n(&w->stop_on_loss, true, __ATOMIC_RELEASE);
}

/* The window shrank under an access: said once, and the mount is stopped. */
static void window_lost(struct window_backend *w)
{
	if (__atomic_exchange_n(&w->lost, true, __ATOMIC_ACQ_REL))
		return;
	fprintf(stderr, "sdsi-emu: window %s: the file shrank under the mapping "
		"(truncated?): its sockets no longer answer; stopping\n", w->path);
	if (__atomic_load_n(&w->stop_on_loss, __ATOMIC_ACQUIRE))
		kill(getpid(), SIGTERM);
}

int window_backend_parse(const char *text, char *path, size_t pathlen,
		     uint64_t *offset, char *err, size_t errlen)
{
	const char *colon = strrchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	char *end;

	*offset = 0;
	if (colon) {
		errno = 0;
		*offset = colon[1] >= '0' && colon[1] <= '9' ?
			  strtoull(colon + 1, &end, 0) : 0;
		if (colon[1] < '0' || colon[1] > '9' || errno || *end ||
		    *offset % WINDOW_PAGE) {
			snprintf(err, errlen, "'%s': the offset after ':' must be a "
				 "page-aligned number of bytes (decimal or 0x hex)", text);
			return -EINVAL;
		}
	}
	if (len == 0 || len >= pathlen) {
		snprintf(err, errlen, "'%s': %s", text,
			 len ? "file name too long" : "no file name before ':'");
		return -EINVAL;
	}
	memcpy(path, text, len);
	path[len] = '\0';
	return 0;
}

static uint64_t *mmio_qword(const struct window_backend_socket *s, uint32_t offset)
{
	uint32_t size = __atomic_load_n(&s->mmio_size, __ATOMIC_ACQUIRE);
	uint32_t base = __atomic_load_n(&s->mmio_off, __ATOMIC_ACQUIRE);

	if (offset % 8 || offset >= size)
		return NULL;
	return (uint64_t *)((char *)s->slot + base + offset);
}

/*
 * Ring and wait for the server's pass.  A server that is gone or stuck
 * leaves the window as it is: the driver core then times out, as Linux
 * does on hardware that stopped answering; said once on stderr.
 */
static void ring(struct window_backend_socket *s)
{
	struct window_backend *w = s->win;
	uint64_t waited;
	int ret;

	if (!__atomic_load_n(&w->page->doorbell, __ATOMIC_ACQUIRE))
		return;		/* a polling server: it sees the store itself */
	ret = window_doorbell_ring(w->page, WINDOW_DOORBELL_LIMIT_MS, &waited);
	if (ret && !__atomic_exchange_n(&w->warned, true, __ATOMIC_RELAXED))
		fprintf(stderr, "sdsi-emu: window %s: %s\n", w->path,
			ret == -ENODEV ? "sdsi-shmem stopped answering the doorbell" :
			"sdsi-shmem did not answer the doorbell in time");
}

static uint64_t window_read64(void *ctx, uint32_t offset)
{
	struct window_backend_socket *s = ctx;
	uint64_t *q = mmio_qword(s, offset);
	uint64_t value;

	/* Outside the region, or the window gone: nothing answers. */
	if (!q || window_backend_is_lost(s->win))
		return UINT64_MAX;
	GUARDED(s->win, window_lost(s->win); return UINT64_MAX);
	/* An answer that waits on time is the model's at the moment of the load. */
	if (window_doorbell_timed(s->win->page))
		ring(s);
	value = __atomic_load_n(q, __ATOMIC_ACQUIRE);
	GUARD_END();
	return value;
}

static void window_write64(void *ctx, uint32_t offset, uint64_t value)
{
	struct window_backend_socket *s = ctx;
	uint64_t *q = mmio_qword(s, offset);

	if (!q || window_backend_is_lost(s->win))
		return;
	GUARDED(s->win, window_lost(s->win); return);
	__atomic_store_n(q, value, __ATOMIC_RELEASE);
	ring(s);
	GUARD_END();
}

/*
 * The discovery table as intel_vsec passes it to the driver: access type
 * LOCAL, the On Demand type, the region's size in dwords, the GUID, and the
 * region's offset from the table's end.  The region must lie in the slot.
 */
static int window_discover(void *ctx, uint32_t *guid)
{
	struct window_backend_socket *s = ctx;
	uint64_t q0, q1, size;
	uint32_t d0, off;
	const char *why = NULL;

	if (window_backend_is_lost(s->win))
		return -ENODEV;
	{
		GUARDED(s->win, window_lost(s->win); return -ENODEV);
		q0 = __atomic_load_n(&s->slot[0], __ATOMIC_ACQUIRE);
		q1 = __atomic_load_n(&s->slot[1], __ATOMIC_ACQUIRE);
		GUARD_END();
	}
	d0 = (uint32_t)q0;
	off = (uint32_t)q1 & ~SDSI_DISC_TBIR_MASK;
	size = (uint64_t)((d0 >> SDSI_DISC_SIZE_SHIFT) & SDSI_DISC_SIZE_MASK) * 4;

	if ((d0 & SDSI_DISC_ACCESS_MASK) != SDSI_DISC_ACCESS_LOCAL ||
	    ((d0 >> SDSI_DISC_TYPE_SHIFT) & SDSI_DISC_TYPE_MASK) != SDSI_DISC_TYPE)
		why = "no On Demand discovery table (access type LOCAL, type 3)";
	else if (size == 0 || size % 8 ||
		 SDSI_DISC_BYTES + (uint64_t)off + size > SDSI_WINDOW_SLOT_SIZE)
		why = "its MMIO region does not lie in the socket's slot";
	if (why) {
		fprintf(stderr, "sdsi-emu: window %s: socket %u: %s (discovery "
			"0x%016" PRIx64 " 0x%016" PRIx64 ")\n", s->win->path,
			s->index, why, q0, q1);
		return -ENODEV;
	}
	__atomic_store_n(&s->mmio_size, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&s->mmio_off, SDSI_DISC_BYTES + off, __ATOMIC_RELEASE);
	__atomic_store_n(&s->mmio_size, (uint32_t)size, __ATOMIC_RELEASE);
	*guid = (uint32_t)(q0 >> 32);
	return 0;
}

/* Sleep, clock and warnings: the FUSE driver's real-time defaults. */
static const struct sdsi_mbox_ops window_ops = {
	.read64 = window_read64,
	.write64 = window_write64,
};

struct sdsi_fusedrv_backend window_backend_for(struct window_backend *w, unsigned int n)
{
	return (struct sdsi_fusedrv_backend){
		.ops = &window_ops,
		.ctx = &w->sock[n],
		.discover = window_discover,
	};
}

static void nap_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000 };

	nanosleep(&ts, NULL);
}

/* One try at mapping the window: 0, or -errno with err filled. */
static int map_window(struct window_backend *w, uint64_t offset, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	fd = window_file_open(w->path, false, &st, err, errlen);
	if (fd < 0)
		return fd;
	/* Mapped past its end, the file would kill us with SIGBUS. */
	if (S_ISREG(st.st_mode) &&
	    ((uint64_t)st.st_size < offset || (uint64_t)st.st_size - offset < w->bytes)) {
		snprintf(err, errlen, "window %s: too short for %u socket%s at offset "
			 "0x%" PRIx64 " (is sdsi-shmem --sockets %u serving it?)", w->path,
			 w->sockets, w->sockets == 1 ? "" : "s", offset, w->sockets);
		close(fd);
		return -ENODEV;
	}
	w->base = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
	ret = w->base == MAP_FAILED ? -errno : 0;
	close(fd);
	if (ret) {
		w->base = NULL;
		snprintf(err, errlen, "window %s: cannot map %zu bytes at offset 0x%" PRIx64
			 ": %s", w->path, w->bytes, offset, strerror(-ret));
	}
	return ret;
}

/* Whether the server announced its page: 0, -ENODEV not yet, -EINVAL never. */
static int check_page(struct window_backend *w, uint64_t offset, char *err, size_t errlen)
{
	const struct window_ctlpage *page = w->page;
	uint32_t magic, version, sockets;

	{
		/* Shrunk since map_window looked: as if nobody served it yet. */
		GUARDED(w, snprintf(err, errlen, "window %s: shrank while it was looked at", w->path);
			   return -ENODEV);
		magic = __atomic_load_n(&page->magic, __ATOMIC_ACQUIRE);
		version = page->version;
		sockets = page->sockets;
		GUARD_END();
	}
	if (magic != SDSI_CTLPAGE_MAGIC) {
		snprintf(err, errlen, "window %s: no sdsi-shmem serves %u socket%s at "
			 "offset 0x%" PRIx64 " (no control page announced)", w->path,
			 w->sockets, w->sockets == 1 ? "" : "s", offset);
		return -ENODEV;
	}
	if (version != SDSI_CTLPAGE_VERSION || sockets != w->sockets) {
		snprintf(err, errlen, "window %s: its server plays %u socket%s with "
			 "control page version %u, not %u socket%s with version %u",
			 w->path, sockets, sockets == 1 ? "" : "s",
			 version, w->sockets, w->sockets == 1 ? "" : "s",
			 SDSI_CTLPAGE_VERSION);
		return -EINVAL;
	}
	return 0;
}

int window_backend_open(struct window_backend *w, const char *path, uint64_t offset,
		    unsigned int sockets, unsigned int wait_ms,
		    char *err, size_t errlen)
{
	unsigned int waited = 0;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!sockets || sockets > WINDOW_BACKEND_MAX_SOCKETS) {
		snprintf(err, errlen, "window %s: %u sockets (sdsi-shmem plays 1 to %u)",
			 path, sockets, WINDOW_BACKEND_MAX_SOCKETS);
		return -EINVAL;
	}
	if (snprintf(w->path, sizeof(w->path), "%s", path) >= (int)sizeof(w->path)) {
		snprintf(err, errlen, "window file name too long");
		return -ENAMETOOLONG;
	}
	w->sockets = sockets;
	w->bytes = (size_t)window_ctlpage_offset(sockets) + SDSI_CTLPAGE_SIZE;
	ret = guard_install();
	if (ret) {
		snprintf(err, errlen, "window %s: cannot catch SIGBUS: %s", path, strerror(-ret));
		return ret;
	}
	/* The server may be starting: the file, its size, then the page come. */
	for (;;) {
		ret = map_window(w, offset, err, errlen);
		if (ret == 0) {
			w->page = (struct window_ctlpage *)(w->base + window_ctlpage_offset(sockets));
			ret = check_page(w, offset, err, errlen);
			if (ret == 0)
				break;
			munmap(w->base, w->bytes);
			w->base = NULL;
		}
		if ((ret != -ENOENT && ret != -ENODEV) || waited >= wait_ms)
			return ret;
		nap_ms(WAIT_STEP_MS);
		waited += WAIT_STEP_MS;
	}
	for (unsigned int n = 0; n < sockets; n++) {
		w->sock[n].win = w;
		w->sock[n].index = n;
		w->sock[n].slot = (uint64_t *)(w->base + (size_t)n * SDSI_WINDOW_SLOT_SIZE);
	}
	return 0;
}

void window_backend_close(struct window_backend *w)
{
	if (w->base)
		munmap(w->base, w->bytes);
	w->base = NULL;
}
