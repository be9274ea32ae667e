/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The private mount namespace of `sdsi-emu run`: where the emulated tree is
 * mounted so that programs find it at /sys/bus/auxiliary, as on a machine
 * with the intel_sdsi driver loaded.  Every mount made here lives only in the
 * namespace, so nothing can leak to the rest of the system, even if the
 * emulator is killed.
 */
#ifndef SDSI_EMU_NAMESPACE_H
#define SDSI_EMU_NAMESPACE_H

#include <stdbool.h>
#include <stddef.h>

struct emu_namespace {
	bool bus_tmpfs;		/* a tmpfs covers /sys/bus (no auxiliary bus here) */
	bool module_tmpfs;	/* a tmpfs covers /sys/module (to add intel_sdsi) */
	bool modules_bound;	/* /proc/modules covered */
	bool dev_tmpfs;		/* a tmpfs covers /dev (to add isdsiN) */
};

/*
 * Whether this root has what run needs: / a mount point, /proc and /sys
 * mounted, /dev/fuse; a chroot into a plain directory has none of them.
 * Returns 0, or -ENOENT with err naming each one lacking and how to give it.
 */
int emu_ns_check_root(char *err, size_t errlen);

/*
 * unshare(CLONE_NEWNS) and make every mount private.  Must run before any
 * thread exists: a mount namespace is per thread, and threads started later
 * inherit it.  Returns 0 or -errno with a message in err.
 */
int emu_ns_enter(char *err, size_t errlen);

/*
 * Make /sys/bus/auxiliary an empty directory, ready for the tree: if it does
 * not exist, cover /sys/bus with a tmpfs that shows every original bus again
 * and has a new auxiliary directory.  Unless the machine has its own, give
 * /sys/module an intel_sdsi directory whose drivers/auxiliary:intel_sdsi
 * links to the tree's driver directory (a tmpfs covers /sys/module the same
 * way).  Then list intel_sdsi in /proc/modules
 * (its file, holding the original lines plus ours, is an unnamed temporary
 * in scratch_dir; on a kernel without it, a note on stderr unless quiet).
 * Returns 0 or -errno with a message in err; on failure
 * whatever was done is undone.
 */
int emu_ns_prepare(struct emu_namespace *ns, const char *scratch_dir, bool quiet,
		   char *err, size_t errlen);

/*
 * Show the file at source (the tree's isdsiN) as /dev/name, mode 0600: the
 * first call covers /dev with a tmpfs that shows every original entry
 * again, as /sys/bus is covered, so nothing is created in the machine's
 * /dev.  Returns 0 or -errno with a message in err.
 */
int emu_ns_add_device(struct emu_namespace *ns, const char *source, const char *name,
		      char *err, size_t errlen);

/* Undo emu_ns_prepare (after the tree is unmounted). */
void emu_ns_restore(struct emu_namespace *ns);

#define EMU_AUXILIARY_BUS	"/sys/bus/auxiliary"

#endif /* SDSI_EMU_NAMESPACE_H */
