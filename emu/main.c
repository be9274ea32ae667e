// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-emu: emulated Intel On Demand sockets behind the sysfs interface of
 * the Linux intel_sdsi driver.  See man/sdsi-emu.1.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "ctl_client.h"
#include "mount.h"
#include "emu_options.h"
#include "run.h"

static int serve(enum emu_command command, int argc, char **argv)
{
	struct emu_options opts;
	sigset_t blocked, original;
	int ret;

	ret = emu_options_parse(command, argc, argv, &opts);
	if (ret)
		return ret;

	/* Before any thread exists, so that only sigwaitinfo() sees them. */
	emu_forwarded_signals(&blocked);
	sigaddset(&blocked, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &blocked, &original);

	if (command == EMU_CMD_RUN)
		return emu_run(&opts, &original);
	return emu_mount(&opts);
}

int main(int argc, char **argv)
{
	const char *command = argc > 1 ? argv[1] : NULL;

	if (!command) {
		fprintf(stderr, "sdsi-emu: no command given (run, mount or ctl)\n");
		emu_print_usage_hint();
		return EMU_EXIT_USAGE;
	}
	if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0) {
		emu_print_help(stdout);
		return 0;
	}
	/* The build makes the bash completion, the tests the option list. */
	if (strcmp(command, "--dump-bash-completion") == 0) {
		emu_print_completion(stdout);
		return 0;
	}
	if (strcmp(command, "--dump-options") == 0) {
		emu_print_option_list(stdout);
		return 0;
	}
	if (strcmp(command, "--version") == 0) {
		printf("sdsi-emu " SDSI_VERSION "\n");
		return 0;
	}
	if (strcmp(command, "run") == 0)
		return serve(EMU_CMD_RUN, argc - 1, argv + 1);
	if (strcmp(command, "mount") == 0)
		return serve(EMU_CMD_MOUNT, argc - 1, argv + 1);
	if (strcmp(command, "ctl") == 0)
		return emu_ctl_main(argc - 1, argv + 1);

	fprintf(stderr, "sdsi-emu: unknown command '%s' (run, mount or ctl)\n", command);
	emu_print_usage_hint();
	return EMU_EXIT_USAGE;
}
