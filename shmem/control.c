// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control requests of sdsi-shmem.  Every request that changes the model
 * ends with sdsi_shmem_sync(), because the window shows the model only as
 * it was at the last driver store.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"

#define MAX_WORDS	6
/*
 * The polling thread serves the socket, and every millisecond it spends
 * here is one a driver may be waiting for RDY.  A client that sends its
 * line at once is answered well within the limit; a slow one is turned
 * away rather than let stall the poller, and a flood is left for later.
 */
#define CLIENT_READ_LIMIT_US	100000
#define CLIENTS_PER_SERVE	4

static int parse_u64(const char *text, uint64_t *out)
{
	char *end;

	if (!text || !*text || *text == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(text, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int parse_socket(struct shmem_machine *machine, const char *text,
			unsigned int *n, char *reply, size_t replylen)
{
	uint64_t v;

	if (parse_u64(text, &v) || v >= machine->sockets) {
		snprintf(reply, replylen, "error: no socket '%s' (0..%u)",
			 text ? text : "", machine->sockets - 1);
		return -EINVAL;
	}
	*n = (unsigned int)v;
	return 0;
}

static int cmd_fault(struct sdsi_model *m, char **w, int nw, char *reply,
		     size_t replylen)
{
	enum sdsi_fault_kind kind;
	uint64_t count, param;

	if (nw != 5 || sdsi_fault_from_name(w[2], &kind) ||
	    parse_u64(w[3], &count) || parse_u64(w[4], &param) ||
	    count > UINT32_MAX || param > UINT32_MAX) {
		snprintf(reply, replylen,
			 "error: usage: fault N KIND COUNT PARAM");
		return -EINVAL;
	}
	if (sdsi_model_fault_set(m, kind, (uint32_t)param,
				 (unsigned int)count)) {
		snprintf(reply, replylen, "error: the model refused fault %s",
			 w[2]);
		return -EINVAL;
	}
	return 0;
}

static int cmd_clear(struct sdsi_model *m, char **w, int nw, char *reply,
		     size_t replylen)
{
	enum sdsi_fault_kind kind;

	if (nw == 2) {
		sdsi_model_fault_clear_all(m);
		return 0;
	}
	if (nw != 3 || sdsi_fault_from_name(w[2], &kind)) {
		snprintf(reply, replylen, "error: usage: clear N [KIND]");
		return -EINVAL;
	}
	sdsi_model_fault_clear(m, kind);
	return 0;
}

static int cmd_setting(struct sdsi_model *m, char **w, int nw, char *reply,
		       size_t replylen)
{
	uint64_t value;

	if (!strcmp(w[0], "iblock") && nw == 3 &&
	    (!strcmp(w[2], "on") || !strcmp(w[2], "off"))) {
		sdsi_model_set_iblock(m, !strcmp(w[2], "on"));
		return 0;
	}
	if (!strcmp(w[0], "features") && nw == 3 && !parse_u64(w[2], &value)) {
		sdsi_model_set_features(m, value);
		return 0;
	}
	snprintf(reply, replylen, "error: usage: %s",
		 strcmp(w[0], "iblock") ? "features N VALUE" : "iblock N on|off");
	return -EINVAL;
}

void shmem_control_execute(struct shmem_machine *machine, char *line,
			   char *reply, size_t replylen)
{
	char *w[MAX_WORDS + 1], *save = NULL;
	unsigned int n;
	int nw = 0, ret;

	for (char *t = strtok_r(line, " \t\r\n", &save); t && nw <= MAX_WORDS;
	     t = strtok_r(NULL, " \t\r\n", &save))
		w[nw++] = t;
	if (nw < 2 || nw > MAX_WORDS) {
		snprintf(reply, replylen, "error: expected COMMAND N [ARGS]");
		return;
	}
	if (parse_socket(machine, w[1], &n, reply, replylen))
		return;

	snprintf(reply, replylen, "ok");
	if (!strcmp(w[0], "power-cycle") && nw == 2) {
		ret = sdsi_model_power_cycle(machine->models[n]);
		if (ret)
			snprintf(reply, replylen, "error: power cycle: %s",
				 strerror(-ret));
	} else if (!strcmp(w[0], "fault")) {
		cmd_fault(machine->models[n], w, nw, reply, replylen);
	} else if (!strcmp(w[0], "clear")) {
		cmd_clear(machine->models[n], w, nw, reply, replylen);
	} else if (!strcmp(w[0], "iblock") || !strcmp(w[0], "features")) {
		cmd_setting(machine->models[n], w, nw, reply, replylen);
	} else {
		snprintf(reply, replylen, "error: unknown request '%s'", w[0]);
		return;
	}
	sdsi_shmem_sync(&machine->ports[n]);
}

int shmem_control_listen(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, saved;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(err, errlen, "%s: path too long for a Unix socket",
			 path);
		return -ENAMETOOLONG;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(fd, 8))
		goto fail;
	return fd;
fail:
	saved = errno;
	snprintf(err, errlen, "%s: %s", path, strerror(saved));
	if (fd >= 0)
		close(fd);
	return -saved;
}

static void serve_one(int fd, struct shmem_machine *machine)
{
	struct timeval limit = { .tv_usec = CLIENT_READ_LIMIT_US };
	char line[256], reply[256 + 1];
	size_t len = 0, sent = 0, total;
	ssize_t got;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
	while (len < sizeof(line) - 1) {
		got = read(fd, line + len, sizeof(line) - 1 - len);
		if (got <= 0)
			break;
		len += (size_t)got;
		if (memchr(line, '\n', len))
			break;
	}
	line[len] = '\0';
	if (!memchr(line, '\n', len)) {
		snprintf(reply, sizeof(reply) - 1,
			 "error: no complete request line");
	} else {
		shmem_control_execute(machine, line, reply, sizeof(reply) - 1);
	}
	/* Room was kept for the newline. */
	total = strlen(reply);
	reply[total++] = '\n';
	/* A client that hung up first must not kill us with SIGPIPE. */
	while (sent < total) {
		got = send(fd, reply + sent, total - sent, MSG_NOSIGNAL);
		if (got <= 0)
			break;
		sent += (size_t)got;
	}
}

void shmem_control_serve(int listen_fd, struct shmem_machine *machine)
{
	int fd;

	for (int i = 0; i < CLIENTS_PER_SERVE; i++) {
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			break;
		serve_one(fd, machine);
		close(fd);
	}
}
