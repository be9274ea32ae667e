// SPDX-License-Identifier: GPL-2.0-only
/*
 * The window backend (window_backend.h).  The window is memory another
 * process writes, so every access is an atomic 64-bit load or store: the
 * server's port relies on the driver's stores landing in program order,
 * as x86 MMIO writes do (shmem/sdsi_shmem.c).  Where the last probe found
 * the MMIO region is kept in atomics because the register file is read
 * without the mailbox lock (fusedrv_files.c) while a bind may probe again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "doorbell.h"
#include "sdsi/hw.h"
#include "window_backend.h"

#define WINDOW_PAGE		4096u
#define WAIT_STEP_MS		10u

int emu_window_parse(const char *text, char *path, size_t pathlen,
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

static uint64_t *mmio_qword(const struct emu_window_socket *s, uint32_t offset)
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
static void ring(struct emu_window_socket *s)
{
	struct emu_window *w = s->win;
	uint64_t waited;
	int ret;

	if (!__atomic_load_n(&w->page->doorbell, __ATOMIC_ACQUIRE))
		return;		/* a polling server: it sees the store itself */
	ret = sdsi_doorbell_ring(w->page, SDSI_DOORBELL_LIMIT_MS, &waited);
	if (ret && !__atomic_exchange_n(&w->warned, true, __ATOMIC_RELAXED))
		fprintf(stderr, "sdsi-emu: window %s: %s\n", w->path,
			ret == -ENODEV ? "sdsi-shmem stopped answering the doorbell" :
			"sdsi-shmem did not answer the doorbell in time");
}

static uint64_t window_read64(void *ctx, uint32_t offset)
{
	struct emu_window_socket *s = ctx;
	uint64_t *q = mmio_qword(s, offset);

	if (!q)
		return UINT64_MAX;	/* outside the region: nothing answers */
	/* An answer that waits on time is the model's at the moment of the load. */
	if (sdsi_doorbell_timed(s->win->page))
		ring(s);
	return __atomic_load_n(q, __ATOMIC_ACQUIRE);
}

static void window_write64(void *ctx, uint32_t offset, uint64_t value)
{
	struct emu_window_socket *s = ctx;
	uint64_t *q = mmio_qword(s, offset);

	if (!q)
		return;
	__atomic_store_n(q, value, __ATOMIC_RELEASE);
	ring(s);
}

/*
 * The discovery table as intel_vsec passes it to the driver: access type
 * LOCAL, the On Demand type, the region's size in dwords, the GUID, and the
 * region's offset from the table's end.  The region must lie in the slot.
 */
static int window_discover(void *ctx, uint32_t *guid)
{
	struct emu_window_socket *s = ctx;
	uint64_t q0 = __atomic_load_n(&s->slot[0], __ATOMIC_ACQUIRE);
	uint64_t q1 = __atomic_load_n(&s->slot[1], __ATOMIC_ACQUIRE);
	uint32_t d0 = (uint32_t)q0, off = (uint32_t)q1 & ~SDSI_DISC_TBIR_MASK;
	uint64_t size = (uint64_t)((d0 >> SDSI_DISC_SIZE_SHIFT) & SDSI_DISC_SIZE_MASK) * 4;
	const char *why = NULL;

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

struct sdsi_fusedrv_backend emu_window_backend(struct emu_window *w, unsigned int n)
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
static int map_window(struct emu_window *w, uint64_t offset, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	fd = open(w->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "window %s: %s", w->path, strerror(errno));
		return ret;
	}
	/* Mapped past its end, the file would kill us with SIGBUS. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
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
static int check_page(const struct emu_window *w, uint64_t offset, char *err, size_t errlen)
{
	const struct sdsi_ctlpage *page = w->page;

	if (__atomic_load_n(&page->magic, __ATOMIC_ACQUIRE) != SDSI_CTLPAGE_MAGIC) {
		snprintf(err, errlen, "window %s: no sdsi-shmem serves %u socket%s at "
			 "offset 0x%" PRIx64 " (no control page announced)", w->path,
			 w->sockets, w->sockets == 1 ? "" : "s", offset);
		return -ENODEV;
	}
	if (page->version != SDSI_CTLPAGE_VERSION || page->sockets != w->sockets) {
		snprintf(err, errlen, "window %s: its server plays %u socket%s with "
			 "control page version %u, not %u socket%s with version %u",
			 w->path, page->sockets, page->sockets == 1 ? "" : "s",
			 page->version, w->sockets, w->sockets == 1 ? "" : "s",
			 SDSI_CTLPAGE_VERSION);
		return -EINVAL;
	}
	return 0;
}

int emu_window_open(struct emu_window *w, const char *path, uint64_t offset,
		    unsigned int sockets, unsigned int wait_ms,
		    char *err, size_t errlen)
{
	unsigned int waited = 0;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!sockets || sockets > EMU_WINDOW_MAX_SOCKETS) {
		snprintf(err, errlen, "window %s: %u sockets (sdsi-shmem plays 1 to %u)",
			 path, sockets, EMU_WINDOW_MAX_SOCKETS);
		return -EINVAL;
	}
	if (snprintf(w->path, sizeof(w->path), "%s", path) >= (int)sizeof(w->path)) {
		snprintf(err, errlen, "window file name too long");
		return -ENAMETOOLONG;
	}
	w->sockets = sockets;
	w->bytes = (size_t)sdsi_ctlpage_offset(sockets) + SDSI_CTLPAGE_SIZE;
	/* The server may be starting: the file, its size, then the page come. */
	for (;;) {
		ret = map_window(w, offset, err, errlen);
		if (ret == 0) {
			w->page = (struct sdsi_ctlpage *)(w->base + sdsi_ctlpage_offset(sockets));
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

void emu_window_close(struct emu_window *w)
{
	if (w->base)
		munmap(w->base, w->bytes);
	w->base = NULL;
}
