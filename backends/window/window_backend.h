/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FUSE driver's second backend: sockets reached through the shared
 * memory window that sdsi-shmem plays, the very bytes Linux's intel_sdsi
 * reaches in the kernel rig (shmem/sdsi_shmem.h, docs/conformance.md).
 *
 * Each socket's slot starts with its discovery table; a probe reads it
 * (as intel_vsec hands it to the Linux driver) for the GUID and for where
 * the MMIO region lies.  Every access of the driver core is then a 64-bit
 * load or store in that region.  When the server answers the doorbell
 * (sdsi-shmem --doorbell), each store is followed by a ring that waits
 * until the model's answer is in the window, and while an answer waits on
 * time alone each load is preceded by one, exactly as the sdsi-doorbell
 * QEMU plugin does for the real driver: no answer then depends on how
 * the host schedules the server.  Without the doorbell (sdsi-shmem
 * polling) loads and stores are all there is.
 *
 * The file is opened as window_file.h says, and a file that shrinks while
 * mapped is an error of its sockets, never a SIGBUS (window_backend.c).
 *
 * Power cycles, faults and BIOS settings are not the driver's business:
 * they go to sdsi-shmem (its control page or --ctl socket).
 */
#ifndef SDSI_BACKENDS_WINDOW_BACKEND_H
#define SDSI_BACKENDS_WINDOW_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "window/ctlpage.h"
#include "drivers/fuse/sdsi_fusedrv.h"

/* sdsi-shmem plays at most this many sockets. */
#define WINDOW_BACKEND_MAX_SOCKETS	8u

struct window_backend;

struct window_backend_socket {
	struct window_backend *win;
	unsigned int index;
	uint64_t *slot;			/* the discovery table */
	/* Where the last probe found the MMIO region; atomics (see .c). */
	uint32_t mmio_off;		/* bytes from the slot start */
	uint32_t mmio_size;		/* 0: not probed, or no device */
};

struct window_backend {
	char *base;			/* mapping of slots and control page */
	size_t bytes;
	unsigned int sockets;
	struct window_ctlpage *page;
	bool warned;			/* atomic: the lost server was reported */
	bool lost;			/* atomic: the file shrank under an access */
	bool stop_on_loss;		/* atomic: then SIGTERM ourselves */
	char path[4096];
	struct window_backend_socket sock[WINDOW_BACKEND_MAX_SOCKETS];
};

/*
 * Parse FILE[:OFFSET] (OFFSET decimal or 0x hex, page-aligned, as
 * sdsi-shmem --offset takes it).  0 or -EINVAL with the reason in err.
 */
int window_backend_parse(const char *text, char *path, size_t pathlen,
		     uint64_t *offset, char *err, size_t errlen);

/*
 * Map the window of `sockets` slots at offset in path, once a server has
 * announced its control page there for that many sockets: waits up to
 * wait_ms for it.  0, or -errno with err naming the file and the reason
 * (-ENOENT no such file, -ENODEV no server announced, -EINVAL a server of
 * another socket count).
 */
int window_backend_open(struct window_backend *w, const char *path, uint64_t offset,
		    unsigned int sockets, unsigned int wait_ms,
		    char *err, size_t errlen);

/* Socket n's backend, for struct sdsi_fusedrv_config. */
struct sdsi_fusedrv_backend window_backend_for(struct window_backend *w, unsigned int n);

/*
 * Whether the window file shrank under one of its accesses (a SIGBUS the
 * backend caught): its sockets then answer no more, loads reading all
 * ones; said once on stderr.
 */
bool window_backend_is_lost(const struct window_backend *w);

/* From now on, a lost window also sends the process SIGTERM (a mount stops). */
void window_backend_stop_on_loss(struct window_backend *w);

void window_backend_close(struct window_backend *w);

#endif /* SDSI_BACKENDS_WINDOW_BACKEND_H */
