/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A daemon's state directory: NVRAM files of the model (and sdsi-emu's
 * control socket).  Either the user's (--state, created if missing) or a
 * private temporary one that disappears with the daemon.  sdsi-emu and
 * sdsi-shmem check and lock it alike.
 */
#ifndef SDSI_CLI_STATE_DIR_H
#define SDSI_CLI_STATE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct cli_state_dir {
	const char *program;	/* names the daemon in messages */
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
 * must be trusted as cli_trusted_path.h says (checked before anything is
 * created).  The directory is locked (flock) until cli_state_dir_close: a
 * second emulator on it is refused (-EBUSY).  Under that lock, temporary
 * NVRAM files a crash left behind (socket<N>.nvram.tmp.XXXXXX, regular
 * files of ours) are removed.  Returns 0 or -errno with a message in err.
 */
int cli_state_dir_open(struct cli_state_dir *dir, const char *program, const char *requested,
		      char *err, size_t errlen);

/*
 * Open the directory path itself, never through a symbolic link (-ENOTDIR),
 * and check that it is owned by the effective user and writable by neither
 * group nor others (-EPERM): what lies in it drives or records a platform.
 * what names its role in the message ("state directory").  Returns the
 * directory's descriptor or -errno with a message in err.
 */
int cli_private_dir_open(const char *path, const char *what, char *err, size_t errlen);

/*
 * Undo cli_state_dir_open: a temporary directory is emptied and removed
 * always; one created from --state only when startup failed (failed = true),
 * so that a failed start leaves nothing behind.
 */
void cli_state_dir_close(struct cli_state_dir *dir, bool failed);

#endif /* SDSI_CLI_STATE_DIR_H */
