// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-doorbell: a QEMU TCG plugin that rings sdsi-shmem's doorbell
 * (doorbell.h) for the kernel rig, so that Linux's intel_sdsi meets the
 * model at each access instead of racing a polling thread.
 *
 *   qemu-system-x86_64 ... -plugin libsdsi-doorbell.so,window=RAMFILE,\
 *       phys=ADDR,sockets=N
 *
 * RAMFILE is the guest's RAM file (memory-backend-file, share=on), ADDR
 * the guest-physical start of the window sdsi-shmem --doorbell plays in it
 * (at the same offset of the file), N its socket count.
 *
 * Only module code is instrumented (intel_sdsi's readq and writeq are
 * inlined into it), which keeps the cost away from the rest of the guest:
 *  - every store by module code gets a memory callback, which QEMU runs
 *    right after the access; one that landed in a socket slot of the window
 *    rings and waits for the answer, so the answer is in place before the
 *    driver's next instruction;
 *  - every 64-bit load from memory by module code (readq is one) gets a
 *    callback before it executes; it rings only while sdsi-shmem says an
 *    answer waits on time (RDY latency), so that the load sees the model's
 *    answer at that moment.
 * A ring that is not answered (sdsi-shmem gone, or stuck past the limit)
 * ends QEMU with a message: the guest never goes on without its hardware.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doorbell.h"
#include "qemu_plugin_api.h"

SDSI_QEMU_PLUGIN_EXPORT int qemu_plugin_version = SDSI_QEMU_PLUGIN_API;

/*
 * Where x86-64 Linux loads modules (MODULES_VADDR to MODULES_END with
 * the 1 GiB kernel image that KASLR kernels such as Debian's use).
 */
#define MODULES_START	0xffffffffc0000000ull
#define MODULES_END	0xffffffffff000000ull

/* Exit status of QEMU when the doorbell fails. */
#define DOORBELL_FAILED	70

struct doorbell_plugin {
	uint64_t phys;			/* guest-physical start of the window */
	uint64_t slots_bytes;		/* the sockets' slots, not the control page */
	size_t map_bytes;
	void *map;
	struct window_ctlpage *page;
	unsigned int limit_ms;
	/* Updated by vCPU threads, printed at exit. */
	uint64_t store_rings;
	uint64_t load_rings;
	uint64_t longest_wait_ns;
};

static struct doorbell_plugin plugin;

static void ring(const char *why, uint64_t vaddr)
{
	uint64_t waited, longest;
	int ret;

	ret = window_doorbell_ring(plugin.page, plugin.limit_ms, &waited);
	if (ret) {
		fprintf(stderr, "sdsi-doorbell: %s at 0x%" PRIx64 ": %s\n", why,
			vaddr, ret == -ENODEV ?
			"sdsi-shmem does not answer the doorbell (it exited?)" :
			"sdsi-shmem did not answer within the limit");
		fflush(stderr);
		_exit(DOORBELL_FAILED);
	}
	longest = __atomic_load_n(&plugin.longest_wait_ns, __ATOMIC_RELAXED);
	while (waited > longest &&
	       !__atomic_compare_exchange_n(&plugin.longest_wait_ns, &longest,
					    waited, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void after_store(unsigned int vcpu, qemu_plugin_meminfo_t info,
			uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;

	if (!qemu_plugin_mem_is_store(info))
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	/* The window is RAM to QEMU (the shared file), never I/O. */
	if (!hw || qemu_plugin_hwaddr_is_io(hw) ||
	    qemu_plugin_hwaddr_phys_addr(hw) - plugin.phys >= plugin.slots_bytes)
		return;
	__atomic_add_fetch(&plugin.store_rings, 1, __ATOMIC_RELAXED);
	ring("store", vaddr);
}

static void before_load(unsigned int vcpu, void *udata)
{
	if (!window_doorbell_timed(plugin.page))
		return;
	__atomic_add_fetch(&plugin.load_rings, 1, __ATOMIC_RELAXED);
	ring("load", (uint64_t)(uintptr_t)udata);
}

/*
 * A 64-bit load from memory into a register: REX.W, opcode 8B, a ModRM
 * byte that names memory (mod not 3).  That is how x86's readq is built,
 * whatever registers the compiler picks.
 */
static bool is_load64(const uint8_t *code, size_t len)
{
	return len >= 3 && (code[0] & 0xf8) == 0x48 && code[1] == 0x8b &&
	       (code[2] >> 6) != 3;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		if (va < MODULES_START || va >= MODULES_END)
			continue;
		qemu_plugin_register_vcpu_mem_cb(insn, after_store,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_W, NULL);
		if (is_load64(qemu_plugin_insn_data(insn),
			      qemu_plugin_insn_size(insn)))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, before_load, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)va);
	}
}

/* On stderr: qemu_plugin_outs() writes only under QEMU's -d plugin. */
static void at_exit(qemu_plugin_id_t id, void *udata)
{
	fprintf(stderr, "sdsi-doorbell: %" PRIu64 " rings after stores, %"
		PRIu64 " before timed loads; longest wait %" PRIu64 " us\n",
		plugin.store_rings, plugin.load_rings,
		plugin.longest_wait_ns / 1000);
}

static int parse_u64(const char *text, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(text, &end, 0);
	return errno || !*text || *end ? -EINVAL : 0;
}

/* window=, phys= and sockets= (and limit-ms=), as QEMU passes them. */
static int parse_args(int argc, char **argv, const char **window,
		      uint64_t *sockets)
{
	uint64_t limit = WINDOW_DOORBELL_LIMIT_MS;
	bool have_phys = false;

	*window = NULL;
	*sockets = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int bad = 0;

		if (!strncmp(a, "window=", 7) && a[7]) {
			*window = a + 7;
		} else if (!strncmp(a, "phys=", 5)) {
			bad = parse_u64(a + 5, &plugin.phys) ||
			      plugin.phys % 4096;
			have_phys = true;
		} else if (!strncmp(a, "sockets=", 8)) {
			bad = parse_u64(a + 8, sockets) || !*sockets ||
			      *sockets > 8;
		} else if (!strncmp(a, "limit-ms=", 9)) {
			bad = parse_u64(a + 9, &limit) || !limit ||
			      limit > 3600000;
		} else {
			bad = 1;
		}
		if (bad) {
			fprintf(stderr, "sdsi-doorbell: bad argument '%s'\n", a);
			return -EINVAL;
		}
	}
	if (!*window || !have_phys || !*sockets) {
		fprintf(stderr, "sdsi-doorbell: needs window=FILE, phys=ADDR "
			"(page-aligned) and sockets=1..8\n");
		return -EINVAL;
	}
	plugin.limit_ms = (unsigned int)limit;
	return 0;
}

SDSI_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
						const qemu_info_t *info,
						int argc, char **argv)
{
	const char *window;
	uint64_t sockets;
	struct stat st;
	int fd;

	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "sdsi-doorbell: x86_64 system emulation only\n");
		return -1;
	}
	if (parse_args(argc, argv, &window, &sockets))
		return -1;
	plugin.slots_bytes = sockets * SDSI_WINDOW_SLOT_SIZE;
	plugin.map_bytes = window_ctlpage_offset((unsigned int)sockets) +
			   SDSI_CTLPAGE_SIZE;
	fd = open(window, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "sdsi-doorbell: %s: %s\n", window,
			strerror(errno));
		return -1;
	}
	/* Mapped past its end, the file would kill QEMU with SIGBUS. */
	if (fstat(fd, &st) || (uint64_t)st.st_size < plugin.phys ||
	    (uint64_t)st.st_size - plugin.phys < plugin.map_bytes) {
		fprintf(stderr, "sdsi-doorbell: %s: too short for a window of "
			"%" PRIu64 " sockets at 0x%" PRIx64 "\n", window,
			sockets, plugin.phys);
		close(fd);
		return -1;
	}
	plugin.map = mmap(NULL, plugin.map_bytes, PROT_READ | PROT_WRITE,
			  MAP_SHARED, fd, (off_t)plugin.phys);
	close(fd);
	if (plugin.map == MAP_FAILED) {
		fprintf(stderr, "sdsi-doorbell: %s: cannot map the window at "
			"0x%" PRIx64 ": %s\n", window, plugin.phys,
			strerror(errno));
		return -1;
	}
	plugin.page = (struct window_ctlpage *)((char *)plugin.map +
						window_ctlpage_offset((unsigned int)sockets));
	/* sdsi-shmem --doorbell is up before QEMU starts, or nothing answers. */
	if (__atomic_load_n(&plugin.page->magic, __ATOMIC_ACQUIRE) !=
	    SDSI_CTLPAGE_MAGIC || !plugin.page->doorbell ||
	    plugin.page->sockets != sockets) {
		fprintf(stderr, "sdsi-doorbell: %s: no sdsi-shmem --doorbell "
			"with %" PRIu64 " sockets serves the window at 0x%"
			PRIx64 "\n", window, sockets, plugin.phys);
		munmap(plugin.map, plugin.map_bytes);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
