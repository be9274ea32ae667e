/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What `run` and `mount` share: the state directory, the control socket,
 * the models, the mounted tree and the thread serving the control socket,
 * set up in that order and torn down in the reverse one.
 */
#ifndef SDSI_EMU_SESSION_H
#define SDSI_EMU_SESSION_H

#include <limits.h>
#include <stdbool.h>

#include "control_server.h"
#include "emu_options.h"
#include "platform.h"
#include "cli/cli_state_dir.h"

struct emu_session {
	const struct emu_options *opts;
	struct cli_state_dir state;
	struct emu_control_server control;
	struct emu_platform platform;
	struct sdsi_fusedrv *drv;
	struct emu_control_target target;
	char tree[PATH_MAX];
};

/*
 * State directory, control socket (before any thread: see emu_control_bind)
 * and models.  Returns 0, or -errno after printing the reason; on failure
 * nothing is left behind.
 */
int emu_session_open(struct emu_session *s, const struct emu_options *opts);

/* Mount the tree at mountpoint and serve the control socket. */
int emu_session_serve(struct emu_session *s, const char *mountpoint);

/* Undo everything; failed: startup failed, so remove what it created. */
void emu_session_close(struct emu_session *s, bool failed);

#endif /* SDSI_EMU_SESSION_H */
