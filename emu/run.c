// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "child.h"
#include "cpuinfo.h"
#include "namespace.h"
#include "run.h"
#include "session.h"

#define ERR_MAX	1024

/* The namespace is the machine's own business: its failures are system failures. */
static int namespace_failed(int ret)
{
	return ret == -ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
}

/*
 * /dev/isdsiN for each part whose ENABLED_FEATURES has bit 12 at probe, as
 * Linux's driver registers its misc device at probe: the tree's isdsiN,
 * which only this thread can look up, bound there.
 */
static int bind_spdm_devices(struct emu_namespace *ns, const struct emu_session *session,
			     char *err, size_t errlen)
{
	char name[32], source[PATH_MAX + 32];
	int ret;

	for (unsigned int i = 0; i < session->platform.nsockets; i++) {
		if (sdsi_fusedrv_spdm_name(session->drv, i, name, sizeof(name)) < 0)
			continue;
		snprintf(source, sizeof(source), "%s/%s", session->tree, name);
		ret = emu_ns_add_device(ns, source, name, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

int emu_run(const struct emu_options *opts, const sigset_t *exec_mask)
{
	struct emu_namespace ns;
	struct emu_session session;
	bool cpuinfo = false;
	char err[ERR_MAX];
	int ret, status;

	if (geteuid() != 0) {
		fprintf(stderr, "sdsi-emu: run must be started as root: it mounts the tree "
			"at " EMU_AUXILIARY_BUS " in a private mount namespace "
			"(sdsi-emu mount DIR serves it elsewhere)\n");
		return SDSI_EXIT_PERMISSION;
	}
	/* A chroot's root lacks mounts that a failure further on would only name. */
	ret = emu_ns_check_root(err, sizeof(err));
	if (!ret)	/* First, while this is the only thread: see emu_ns_enter. */
		ret = emu_ns_enter(err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sdsi-emu: %s\n", err);
		return namespace_failed(ret);
	}
	ret = emu_session_open(&session, opts);
	if (ret)
		return sdsi_exit_for_errno(ret);
	ret = emu_ns_prepare(&ns, session.state.path, opts->quiet, err, sizeof(err));
	if (!ret) {
		ret = emu_cpuinfo_bind(&cpuinfo, session.state.path, opts->pf.guid,
				       opts->pf.sockets, err, sizeof(err));
		if (ret)
			emu_ns_restore(&ns);
	}
	if (ret) {
		fprintf(stderr, "sdsi-emu: %s\n", err);
		emu_session_close(&session, true);
		return namespace_failed(ret);
	}
	ret = emu_session_serve(&session, EMU_AUXILIARY_BUS);
	if (ret) {
		emu_session_close(&session, true);
		emu_cpuinfo_unbind(&cpuinfo);
		emu_ns_restore(&ns);
		return sdsi_exit_for_errno(ret);
	}

	ret = bind_spdm_devices(&ns, &session, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sdsi-emu: %s\n", err);
		emu_session_close(&session, true);
		emu_cpuinfo_unbind(&cpuinfo);
		emu_ns_restore(&ns);
		return namespace_failed(ret);
	}

	status = emu_child_run(opts->run_argv, session.control.path, session.state.path,
			       exec_mask);

	emu_session_close(&session, false);
	emu_cpuinfo_unbind(&cpuinfo);
	emu_ns_restore(&ns);
	return status;
}
