// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem: play N On Demand sockets over a shared memory window.
 *
 * In the kernel rig the window is the guest's RAM file on the host, at the
 * physical address of the range the guest reserved (the memory that Linux's
 * intel_sdsi driver maps as its device); inside a guest it would be the
 * test module's /dev/sdsi_window; on a host it may be any file, which is
 * grown to fit.  The control page's magic appears once every socket is laid
 * out, which is the sign of readiness (ctlpage.h).
 *
 * Here: signals, the control socket, and the run from start to end.  The
 * options are in shmem_options.c, the window and its sockets in machine.c,
 * the passes over the window in serve_loop.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "window/ctlpage.h"
#include "cli/cli_state_dir.h"
#include "machine.h"
#include "shmem_options.h"
#include "serve_loop.h"

/*
 * Signals, --exit-with-parent and --ctl.  A parent killed outright (the
 * rig on SIGKILL) must not leave a poller spinning.  A parent that died
 * before prctl() took effect sends nothing, hence the look at getppid():
 * reparented means the parent we started with is gone.
 */
static int start_controls(const struct shmem_options *o, pid_t parent,
			  struct shmem_control *sock, struct shmem_controls *ctl)
{
	char err[256];

	if (shmem_stop_signals_block()) {
		fprintf(stderr, "sdsi-shmem: cannot block SIGINT and SIGTERM: %s\n",
			strerror(errno));
		return -EIO;
	}
	if (o->exit_with_parent) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM)) {
			fprintf(stderr, "sdsi-shmem: --exit-with-parent: %s\n",
				strerror(errno));
			return -errno;
		}
		if (getppid() != parent)
			shmem_stop_requested = 1;
	}
	if (o->ctl) {
		if (shmem_control_listen(sock, o->ctl, err, sizeof(err))) {
			/* err names the socket or its directory itself. */
			fprintf(stderr, "sdsi-shmem: --ctl: %s\n", err);
			return -EIO;
		}
		ctl->sock = sock;
	}
	return 0;
}

/* Announce the page (last: its magic says all is laid out), serve, withdraw. */
static void serve(struct shmem_machine *machine, struct shmem_controls *ctl,
		  const struct shmem_options *o)
{
	struct shmem_poll_stats stats = { 0 };

	if (o->doorbell)
		__atomic_store_n(&ctl->page->doorbell, 1u, __ATOMIC_RELEASE);
	window_ctlpage_open(ctl->page, o->pf.sockets);
	if (o->doorbell)
		shmem_run_doorbell(machine, ctl, &stats);
	else
		shmem_run(machine, ctl, o, &stats);
	window_ctlpage_close(ctl->page);
	shmem_print_stats(&stats, o->doorbell);
	shmem_print_violations(machine);
	if (ctl->sock)
		shmem_control_close(ctl->sock);
}

int main(int argc, char **argv)
{
	struct shmem_machine machine = { 0 };
	struct shmem_options o = { 0 };
	pid_t parent = getppid();	/* first: see --exit-with-parent */
	static struct shmem_control ctl_socket;
	struct shmem_controls ctl = { .sock = NULL };
	size_t window_size;
	int status = 1, ret;
	char *base;
	static struct cli_state_dir state;
	char err[PATH_MAX + 256];

	ret = shmem_parse_options(argc, argv, &o);
	if (ret)
		return ret;
	/* Checked and locked as sdsi-emu's --state (cli_state_dir.h). */
	if (o.pf.state_dir) {
		if (cli_state_dir_open(&state, SHMEM_PROGRAM, o.pf.state_dir, err, sizeof(err))) {
			fprintf(stderr, "sdsi-shmem: %s\n", err);
			return 1;
		}
		o.pf.state_dir = state.path;
	}
	window_size = window_ctlpage_offset(o.pf.sockets) + SDSI_CTLPAGE_SIZE;
	base = shmem_map_window(o.window, o.offset, window_size);
	if (!base) {
		cli_state_dir_close(&state, true);
		return 1;
	}
	/*
	 * A window file reused after a killed run still holds that run's
	 * magic, which would announce readiness before the sockets are laid
	 * out: withdraw it before anything else.
	 */
	ctl.page = (struct window_ctlpage *)(base + window_ctlpage_offset(o.pf.sockets));
	window_ctlpage_close(ctl.page);
	if (!shmem_create_sockets(&machine, &o, base) &&
	    !start_controls(&o, parent, &ctl_socket, &ctl)) {
		serve(&machine, &ctl, &o);
		status = 0;
	}
	for (unsigned int n = 0; n < machine.sockets; n++)
		sdsi_model_destroy(machine.models[n]);
	free(machine.models);
	free(machine.ports);
	munmap(base, window_size);
	cli_state_dir_close(&state, status != 0);
	return status;
}
