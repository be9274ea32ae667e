/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file of /proc shown otherwise inside `sdsi-emu run`'s private mount
 * namespace (/proc/modules listing intel_sdsi, /proc/cpuinfo naming the
 * emulated processors): a file with the new contents bound over it,
 * read-only as the real one.  The two differ only in what they write.
 */
#ifndef SDSI_EMU_PROC_BIND_H
#define SDSI_EMU_PROC_BIND_H

#include <stdbool.h>
#include <stddef.h>

/* The largest /proc file read whole (a /proc/cpuinfo of thousands of CPUs fits). */
#define EMU_PROC_READ_MAX	(16u << 20)

/* Write the new contents to fd: 0 or -errno. */
typedef int emu_proc_fill_fn(int fd, void *ctx);

/*
 * Bind what fill writes over proc_path: through a file ".NAME.XXXXXX" in
 * scratch_dir (NAME the last part of proc_path), mode 0444, unlinked as
 * soon as it is mounted so that the scratch directory keeps nothing (an
 * unnamed O_TMPFILE cannot be a bind source).  *bound is set once the bind
 * is in place, even if making it read-only then fails; undoing it is the
 * caller's.  0, or -errno with err "cannot create a file in DIR: ..." or
 * "cannot WHAT in PROC_PATH: ...".
 */
int emu_proc_bind(const char *proc_path, const char *scratch_dir, const char *what,
		  emu_proc_fill_fn *fill, void *ctx, bool *bound, char *err, size_t errlen);

#endif /* SDSI_EMU_PROC_BIND_H */
