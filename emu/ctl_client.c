// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "control_server.h"
#include "ctl_client.h"
#include "cli/cli_ctl.h"
#include "cli/cli_ctl_clients.h"
#include "cli/cli_getopt.h"
#include "cli/cli_value.h"
#include "emu_options.h"

#define REQUEST_MAX	1024
#define ERRNO_MAX	4096	/* beyond any errno glibc names */
/*
 * How long ctl waits for the emulator (to connect, to take the request, to
 * answer).  The server gives a client 5 s to send and 5 s to read, and a
 * command runs between two mailbox transactions, so a live emulator answers
 * well within this; one that is stopped (SIGSTOP, a debugger) would hang us.
 */
#define TIMEOUT_DEFAULT_S	30
#define TIMEOUT_MAX_S		3600

/* The class of the errno an error answer names ("error ENODEV: ..."). */
static int exit_for_answer(const char *response)
{
	const char *name = response + strlen("error ");
	size_t len = strcspn(name, ":");
	const char *known;

	for (int e = 1; e < ERRNO_MAX; e++) {
		known = strerrorname_np(e);
		if (known && strlen(known) == len && !strncmp(known, name, len))
			return sdsi_exit_for_errno(e);
	}
	return SDSI_EXIT_IO;
}

/* Nobody listens at the path: there is no emulator, which is "no device". */
static int exit_for_connect(int e)
{
	if (e == ENOENT || e == ECONNREFUSED || e == ENOTSOCK)
		return SDSI_EXIT_NO_DEVICE;
	return sdsi_exit_for_errno(e);
}

static int build_request(int argc, char **argv, char *request, size_t size)
{
	size_t used = 0;

	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (len == 0 || strpbrk(argv[i], " \t\r\n"))
			return emu_usage_error("ctl: argument '%s' is empty or contains white space", argv[i]);
		if (used + len + 2 > size)
			return emu_usage_error("ctl: command too long (at most %zu bytes)", size - 2);
		if (used)
			request[used++] = ' ';
		memcpy(request + used, argv[i], len);
		used += len;
	}
	request[used++] = '\n';
	request[used] = '\0';
	return 0;
}

/* Both directions, connect() included: a Unix connect waits as a send does. */
static int set_timeout(int fd, unsigned int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/* An emulator that took too long: told as such, with the I/O status. */
static int timed_out(const char *path, unsigned int seconds)
{
	fprintf(stderr, "sdsi-emu: ctl: no answer from %s within %u s (--timeout)\n",
		path, seconds);
	return SDSI_EXIT_IO;
}

/* A connected socket to path with the timeout set, or -1 and *status. */
static int connect_to(const char *path, unsigned int timeout, int *status)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, e;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "sdsi-emu: ctl: %s: name too long for a unix socket\n", path);
		*status = SDSI_EXIT_USAGE;
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && set_timeout(fd, timeout) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
		return fd;
	e = errno;
	if (fd >= 0 && (e == EAGAIN || e == EINPROGRESS)) {
		*status = timed_out(path, timeout);	/* a full backlog */
	} else {
		fprintf(stderr, "sdsi-emu: ctl: cannot reach the emulator at %s: %s\n",
			path, strerror(e));
		*status = fd < 0 ? (int)sdsi_exit_for_errno(e) : exit_for_connect(e);
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * The whole answer, until the emulator closes, in a buffer of
 * CLI_CTL_ANSWER_MAX + 1 bytes and a NUL: a server that sends more is not
 * one of ours (or is broken), and is stopped there rather than read into
 * memory without end.  NULL with errno on failure (EMSGSIZE: too long).
 */
static char *read_answer(int fd, size_t *used)
{
	char *response = malloc(CLI_CTL_ANSWER_MAX + 2);
	ssize_t n;

	*used = 0;
	if (!response) {
		errno = ENOMEM;
		return NULL;
	}
	while ((n = recv(fd, response + *used, CLI_CTL_ANSWER_MAX + 1 - *used, 0)) != 0) {
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			free(response);		/* the timeout: errno says so */
			return NULL;
		}
		if (n < 0)
			break;	/* a reset: what came is the answer, as before */
		*used += (size_t)n;
		if (*used > CLI_CTL_ANSWER_MAX) {
			free(response);
			errno = EMSGSIZE;
			return NULL;
		}
	}
	response[*used] = '\0';
	return response;
}

/*
 * The answer as it may reach a terminal: a server's bytes other than
 * printable ASCII and the newline (an escape sequence, a NUL, a carriage
 * return) as \xHH, so that whatever listens on the socket cannot move the
 * cursor, retitle the window or hide lines.  Our daemons answer in
 * printable ASCII only, which is printed unchanged.
 */
static void print_escaped(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n' || (c >= 0x20 && c < 0x7f))
			putc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

/* Print the answer where it belongs; the exit status it stands for. */
static int print_answer(const char *path, char *response, size_t used)
{
	int status;

	if (used == 0) {
		fprintf(stderr, "sdsi-emu: ctl: no answer from %s\n", path);
		status = SDSI_EXIT_IO;
	} else if (strncmp(response, "error ", 6) == 0) {
		print_escaped(stderr, response, used);
		status = exit_for_answer(response);
	} else {
		print_escaped(stdout, response, used);
		status = fflush(stdout) == 0 && !ferror(stdout) ? SDSI_EXIT_OK
								: SDSI_EXIT_INTERNAL;
	}
	free(response);
	return status;
}

static int send_request(const char *path, const char *request, unsigned int timeout)
{
	size_t used, len = strlen(request);
	char *response;
	int fd, status;
	ssize_t n;

	fd = connect_to(path, timeout, &status);
	if (fd < 0)
		return status;
	for (size_t off = 0; off < len; off += (size_t)n) {
		n = send(fd, request + off, len - off, MSG_NOSIGNAL);
		if (n < 0) {
			status = errno == EAGAIN || errno == EWOULDBLOCK ? timed_out(path, timeout)
									 : SDSI_EXIT_IO;
			if (status == SDSI_EXIT_IO)
				fprintf(stderr, "sdsi-emu: ctl: %s: %s\n", path, strerror(errno));
			close(fd);
			return status;
		}
	}
	response = read_answer(fd, &used);
	if (!response) {
		status = errno;
		close(fd);
		if (status == EAGAIN || status == EWOULDBLOCK)
			return timed_out(path, timeout);
		if (status == EMSGSIZE) {
			fprintf(stderr, "sdsi-emu: ctl: %s: answer longer than %d bytes, the protocol's limit\n",
				path, CLI_CTL_ANSWER_MAX);
			return SDSI_EXIT_IO;
		}
		fprintf(stderr, "sdsi-emu: ctl: %s: %s\n", path, strerror(status));
		return status == ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
	}
	close(fd);
	return print_answer(path, response, used);
}

/* No command, or one the table does not know: the commands, exit 2. */
static int list_commands(const char *why)
{
	fprintf(stderr, "sdsi-emu: ctl: %s; the commands are:\n", why);
	emu_print_ctl_commands(stderr);
	emu_print_usage_hint();
	return SDSI_EXIT_USAGE;
}

struct ctl_args {
	const char *ctl, *state;
	unsigned int timeout;
};

/*
 * One option of ctl, as its table (emu/emu_options.c) names them: 0, or
 * the usage status.
 */
static int ctl_option(const struct cli_option *o, const char *value, struct ctl_args *a)
{
	unsigned long long v;

	/* getopt takes "--ctl=" as a value; an empty one is none. */
	if (!value[0]) {
		char name[64], msg[128];

		snprintf(name, sizeof(name), "--%s", o->name);
		cli_getopt_needs_value(msg, sizeof(msg), name);
		return emu_usage_error("ctl: %s", msg);
	}
	if (!strcmp(o->name, "ctl"))
		a->ctl = value;
	else if (!strcmp(o->name, "state"))
		a->state = value;
	else if (cli_parse_uint(value, 1, TIMEOUT_MAX_S, &v))
		a->timeout = (unsigned int)v;
	else
		return emu_usage_error("ctl: --timeout: '%s' is not a number from 1 to %u",
				       value, TIMEOUT_MAX_S);
	return 0;
}

int emu_ctl_main(int argc, char **argv)
{
	struct ctl_args a = { .timeout = TIMEOUT_DEFAULT_S };
	struct cli_getopt_spec spec = { .stop_at_operand = true };
	char path[4096], request[REQUEST_MAX], msg[256];
	const char *value;
	int c, i, ret;

	spec.opts = emu_ctl_options(&spec.count);

	/* The options stop at COMMAND, whose arguments are the server's. */
	optind = 1;
	while ((c = cli_getopt(&spec, argc, argv, msg, sizeof(msg))) != -1) {
		const struct cli_option *o = cli_option_by_id(spec.opts, spec.count, c);

		if (c == CLI_GETOPT_ERROR)
			return emu_usage_error("ctl: %s", msg);
		if (c == 'h') {
			emu_print_help(stdout);
			return 0;
		}
		ret = ctl_option(o, optarg, &a);
		if (ret)
			return ret;
	}
	i = optind;
	if (a.ctl && a.state)
		return emu_usage_error("ctl: give --ctl or --state, not both");
	if (i >= argc)
		return list_commands("no command given");
	if (!cli_ctl_find(argv[i])) {
		char why[128];

		snprintf(why, sizeof(why), "unknown command '%.64s'", argv[i]);
		return list_commands(why);
	}

	if (a.ctl)
		snprintf(path, sizeof(path), "%s", a.ctl);
	else if (a.state)
		snprintf(path, sizeof(path), "%s/" EMU_CONTROL_SOCKET_NAME, a.state);
	else if ((value = getenv("SDSI_EMU_CTL")) && value[0])
		snprintf(path, sizeof(path), "%s", value);
	else
		return emu_usage_error("ctl: no emulator given: use --ctl PATH or --state DIR, or run inside 'sdsi-emu run' (which sets SDSI_EMU_CTL)");

	ret = build_request(argc - i, argv + i, request, sizeof(request));
	if (ret)
		return ret;
	return send_request(path, request, a.timeout);
}
