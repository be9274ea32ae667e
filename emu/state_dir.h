/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulator's state directory: NVRAM files of the model and the control
 * socket.  Either the user's (--state, created if missing) or a private
 * temporary one that disappears with the emulator.
 */
#ifndef EMU_STATE_DIR_H
#define EMU_STATE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct emu_state_dir {
	char path[PATH_MAX];	/* absolute */
	bool created;		/* made by us in this run */
	bool temporary;		/* removed at exit, whatever happens */
	int lock_fd;		/* the directory, flock()ed while we use it */
};

/*
 * Use requested (NULL: make a temporary directory under $TMPDIR or /tmp).
 * An existing directory must be a real directory (not a symlink) owned by
 * the effective user and not writable by group or others, because the
 * control socket inside it drives the platform; every directory above it
 * must be trusted as trusted_path.h says (checked before anything is
 * created).  The directory is locked (flock) until emu_state_dir_close: a
 * second emulator on it is refused (-EBUSY).  Under that lock, temporary
 * NVRAM files a crash left behind (socket<N>.nvram.tmp.XXXXXX, regular
 * files of ours) are removed.  Returns 0 or -errno with a message in err.
 */
int emu_state_dir_open(struct emu_state_dir *dir, const char *requested,
		       char *err, size_t errlen);

/*
 * Undo emu_state_dir_open: a temporary directory is emptied and removed
 * always; one created from --state only when startup failed (failed = true),
 * so that a failed start leaves nothing behind.
 */
void emu_state_dir_close(struct emu_state_dir *dir, bool failed);

#endif /* EMU_STATE_DIR_H */
