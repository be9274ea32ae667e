// SPDX-License-Identifier: GPL-2.0-only
#include <signal.h>
#include <stdio.h>

#include "child.h"
#include "mount.h"
#include "ready.h"
#include "session.h"
#include "window_mount.h"

int emu_mount(const struct emu_options *opts)
{
	struct emu_session session;
	char what[64];
	sigset_t stop;
	int ret, sig;

	if (opts->window)
		return emu_window_mount(opts);
	ret = emu_session_open(&session, opts);
	if (ret)
		return sdsi_exit_for_errno(ret);
	ret = emu_session_serve(&session, opts->mountpoint);
	if (ret) {
		emu_session_close(&session, true);
		return sdsi_exit_for_errno(ret);
	}
	snprintf(what, sizeof(what), "%u socket%s", session.platform.nsockets,
		 session.platform.nsockets == 1 ? "" : "s");
	emu_mount_ready(what, session.tree, session.control.path);

	emu_forwarded_signals(&stop);
	do {
		sig = sigwaitinfo(&stop, NULL);
	} while (sig < 0);

	emu_mount_stopping();
	emu_session_close(&session, false);
	return 0;
}
