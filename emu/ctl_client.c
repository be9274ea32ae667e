// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control_server.h"
#include "ctl_client.h"
#include "options.h"

#define REQUEST_MAX	1024
#define ERRNO_MAX	4096	/* beyond any errno glibc names */

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

/* Value of "--name VALUE" or "--name=VALUE" at argv[*i], or NULL. */
static const char *option_value(const char *name, int argc, char **argv, int *i,
				bool *matched)
{
	size_t len = strlen(name);

	*matched = false;
	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=') {
		*matched = true;
		return argv[*i] + len + 1;
	}
	if (argv[*i][len] != '\0')
		return NULL;
	*matched = true;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
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

static int send_request(const char *path, const char *request)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t cap = 4096, used = 0, len = strlen(request);
	char *response;
	int fd;
	ssize_t n;

	int e;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "sdsi-emu: ctl: %s: name too long for a unix socket\n", path);
		return SDSI_EXIT_USAGE;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		e = errno;
		fprintf(stderr, "sdsi-emu: ctl: cannot reach the emulator at %s: %s\n",
			path, strerror(e));
		if (fd >= 0)
			close(fd);
		return fd < 0 ? (int)sdsi_exit_for_errno(e) : exit_for_connect(e);
	}
	for (size_t off = 0; off < len; off += (size_t)n) {
		n = send(fd, request + off, len - off, MSG_NOSIGNAL);
		if (n < 0) {
			fprintf(stderr, "sdsi-emu: ctl: %s: %s\n", path, strerror(errno));
			close(fd);
			return SDSI_EXIT_IO;
		}
	}

	response = malloc(cap);
	while (response && (n = recv(fd, response + used, cap - used - 1, 0)) > 0) {
		used += (size_t)n;
		if (used + 1 == cap) {
			char *bigger = realloc(response, cap * 2);

			if (!bigger) {
				free(response);
				response = NULL;
				break;
			}
			response = bigger;
			cap *= 2;
		}
	}
	close(fd);
	if (!response) {
		fprintf(stderr, "sdsi-emu: ctl: out of memory\n");
		return SDSI_EXIT_INTERNAL;
	}
	response[used] = '\0';
	if (used == 0) {
		fprintf(stderr, "sdsi-emu: ctl: no answer from %s\n", path);
		free(response);
		return SDSI_EXIT_IO;
	}
	if (strncmp(response, "error ", 6) == 0) {
		fputs(response, stderr);
		e = exit_for_answer(response);
		free(response);
		return e;
	}
	fputs(response, stdout);
	free(response);
	return fflush(stdout) == 0 && !ferror(stdout) ? SDSI_EXIT_OK : SDSI_EXIT_INTERNAL;
}

int emu_ctl_main(int argc, char **argv)
{
	const char *ctl = NULL, *state = NULL, *value;
	char path[4096], request[REQUEST_MAX];
	bool matched;
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			emu_print_help(stdout);
			return 0;
		}
		value = option_value("--ctl", argc, argv, &i, &matched);
		if (matched) {
			if (!value || !value[0])
				return emu_usage_error("ctl: option '--ctl' needs a socket path");
			ctl = value;
			continue;
		}
		value = option_value("--state", argc, argv, &i, &matched);
		if (matched) {
			if (!value || !value[0])
				return emu_usage_error("ctl: option '--state' needs a directory");
			state = value;
			continue;
		}
		return emu_usage_error("ctl: unknown option '%s'", argv[i]);
	}
	if (ctl && state)
		return emu_usage_error("ctl: give --ctl or --state, not both");
	if (i >= argc)
		return emu_usage_error("ctl: no command given (status, power-cycle, fault, clear, unbind, bind, features, iblock)");

	if (ctl)
		snprintf(path, sizeof(path), "%s", ctl);
	else if (state)
		snprintf(path, sizeof(path), "%s/" EMU_CONTROL_SOCKET_NAME, state);
	else if ((value = getenv("SDSI_EMU_CTL")) && value[0])
		snprintf(path, sizeof(path), "%s", value);
	else
		return emu_usage_error("ctl: no emulator given: use --ctl PATH or --state DIR, or run inside 'sdsi-emu run' (which sets SDSI_EMU_CTL)");

	ret = build_request(argc - i, argv + i, request, sizeof(request));
	if (ret)
		return ret;
	return send_request(path, request);
}
