// SPDX-License-Identifier: GPL-2.0-only
/*
 * Request counters for measuring the driver (bench/run.sh): how many FUSE
 * requests of each kind the kernel sent over the life of the mount.  They
 * answer "where does the time of an open+read+close go" without a debugger:
 * every request is a round trip through the kernel and a worker thread.
 *
 * Off unless SDSI_FUSEDRV_STATS names a file when the driver is created; then
 * each request costs one relaxed atomic add, and the counts are written to
 * that file at unmount, one "NAME COUNT" line per kind seen.  Off, it costs a
 * branch on a flag that never changes.
 */
#include <errno.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedrv_internal.h"

#define STATS_ENV	"SDSI_FUSEDRV_STATS"

/*
 * The kinds this driver can be sent; any other below the table's end is
 * printed by number, any past it as OTHER.
 */
static const char *const opcode_names[FUSEDRV_OPCODE_SLOTS] = {
	[FUSE_LOOKUP] = "LOOKUP",	[FUSE_FORGET] = "FORGET",
	[FUSE_GETATTR] = "GETATTR",	[FUSE_SETATTR] = "SETATTR",
	[FUSE_READLINK] = "READLINK",	[FUSE_OPEN] = "OPEN",
	[FUSE_READ] = "READ",		[FUSE_WRITE] = "WRITE",
	[FUSE_STATFS] = "STATFS",	[FUSE_RELEASE] = "RELEASE",
	[FUSE_FLUSH] = "FLUSH",		[FUSE_INIT] = "INIT",
	[FUSE_OPENDIR] = "OPENDIR",	[FUSE_READDIR] = "READDIR",
	[FUSE_RELEASEDIR] = "RELEASEDIR", [FUSE_ACCESS] = "ACCESS",
	[FUSE_CREATE] = "CREATE",	[FUSE_INTERRUPT] = "INTERRUPT",
	[FUSE_DESTROY] = "DESTROY",	[FUSE_BATCH_FORGET] = "BATCH_FORGET",
	[FUSE_READDIRPLUS] = "READDIRPLUS", [FUSE_GETXATTR] = "GETXATTR",
	[FUSE_LISTXATTR] = "LISTXATTR",	[FUSE_RENAME2] = "RENAME2",
	[0] = "OTHER",
};

void fusedrv_stats_init(struct sdsi_fusedrv *drv)
{
	const char *path = getenv(STATS_ENV);

	if (path && path[0])
		drv->stats_path = strdup(path);
}

/*
 * A request read into memory starts with its header; one left in a pipe
 * (splice, which this driver does not ask for) is counted as OTHER.
 */
void fusedrv_stats_count(struct sdsi_fusedrv *drv, const struct fuse_buf *buf)
{
	const struct fuse_in_header *in = buf->mem;
	uint32_t op = 0;

	if (!(buf->flags & FUSE_BUF_IS_FD) && buf->size >= sizeof(*in))
		op = in->opcode < FUSEDRV_OPCODE_SLOTS ? in->opcode : 0;
	__atomic_fetch_add(&drv->requests[op], 1, __ATOMIC_RELAXED);
}

void fusedrv_stats_write(struct sdsi_fusedrv *drv)
{
	FILE *f;

	if (!drv->stats_path)
		return;
	f = fopen(drv->stats_path, "w");
	if (!f) {
		fprintf(stderr, "sdsi_fusedrv: %s=%s: %s\n", STATS_ENV, drv->stats_path,
			strerror(errno));
	} else {
		for (unsigned int op = 0; op < FUSEDRV_OPCODE_SLOTS; op++) {
			uint64_t n = __atomic_load_n(&drv->requests[op], __ATOMIC_RELAXED);

			if (!n)
				continue;
			if (opcode_names[op])
				fprintf(f, "%s %llu\n", opcode_names[op], (unsigned long long)n);
			else
				fprintf(f, "OP%u %llu\n", op, (unsigned long long)n);
		}
		if (fclose(f) != 0)
			fprintf(stderr, "sdsi_fusedrv: %s=%s: %s\n", STATS_ENV,
				drv->stats_path, strerror(errno));
	}
	free(drv->stats_path);
	drv->stats_path = NULL;
}
