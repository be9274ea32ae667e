// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

#define EXIT_CANNOT_EXECUTE	127

extern char **environ;

void emu_forwarded_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static char *env_entry(const char *name, const char *value)
{
	size_t len = strlen(name) + strlen(value) + 2;
	char *entry = malloc(len);

	if (entry)
		snprintf(entry, len, "%s=%s", name, value);
	return entry;
}

static bool is_ours(const char *entry)
{
	return strncmp(entry, "SDSI_EMU_CTL=", 13) == 0 ||
	       strncmp(entry, "SDSI_EMU_STATE=", 15) == 0;
}

/* Our environment with the emulator's two variables replaced; built before
 * fork() because the child of a threaded process must not allocate. */
static char **child_environment(const char *ctl_path, const char *state_dir)
{
	size_t n = 0, used = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!is_ours(environ[i]))
			env[used++] = environ[i];
	}
	env[used] = env_entry("SDSI_EMU_CTL", ctl_path);
	env[used + 1] = env_entry("SDSI_EMU_STATE", state_dir);
	if (!env[used] || !env[used + 1]) {
		free(env[used]);
		free(env[used + 1]);
		free(env);
		return NULL;
	}
	return env;
}

static void free_environment(char **env)
{
	size_t n = 0;

	while (env[n])
		n++;
	/* The two last entries are ours; the rest belong to environ. */
	free(env[n - 1]);
	free(env[n - 2]);
	free(env);
}

static void exec_command(char *const argv[], char **env, const sigset_t *exec_mask,
			 pid_t parent, int report_fd)
{
	ssize_t written;
	int e;

	/* A command in the namespace of a dead emulator would see a dead tree. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(EXIT_CANNOT_EXECUTE);
	sigprocmask(SIG_SETMASK, exec_mask, NULL);
	execvpe(argv[0], argv, env);
	e = errno;
	/* A pipe write of 4 bytes is atomic; there is no one to tell if it fails. */
	written = write(report_fd, &e, sizeof(e));
	(void)written;
	_exit(EXIT_CANNOT_EXECUTE);
}

static int wait_forwarding(pid_t pid)
{
	sigset_t set;
	int status;

	emu_forwarded_signals(&set);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		int sig = sigwaitinfo(&set, NULL);

		if (sig < 0)
			continue;	/* EINTR from a stopped/continued process */
		if (sig != SIGCHLD) {
			kill(pid, sig);
			continue;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int emu_child_run(char *const argv[], const char *ctl_path,
		  const char *state_dir, const sigset_t *exec_mask)
{
	char **env = child_environment(ctl_path, state_dir);
	int report[2], exec_errno = 0, status;
	pid_t parent = getpid(), pid;
	ssize_t n;

	if (!env) {
		fprintf(stderr, "sdsi-emu: out of memory\n");
		return 1;
	}
	if (pipe2(report, O_CLOEXEC) < 0) {
		fprintf(stderr, "sdsi-emu: pipe: %s\n", strerror(errno));
		free_environment(env);
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "sdsi-emu: fork: %s\n", strerror(errno));
		close(report[0]);
		close(report[1]);
		free_environment(env);
		return 1;
	}
	if (pid == 0)
		exec_command(argv, env, exec_mask, parent, report[1]);

	close(report[1]);
	free_environment(env);
	/* EOF when exec succeeded (close-on-exec), else the child's errno. */
	do {
		n = read(report[0], &exec_errno, sizeof(exec_errno));
	} while (n < 0 && errno == EINTR);
	close(report[0]);

	status = wait_forwarding(pid);
	if (n == (ssize_t)sizeof(exec_errno)) {
		fprintf(stderr, "sdsi-emu: cannot execute '%s': %s\n", argv[0],
			strerror(exec_errno));
		return EXIT_CANNOT_EXECUTE;
	}
	return status;
}
