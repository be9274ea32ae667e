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
#include <time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"

#define MAX_WORDS	6
/*
 * The polling thread serves the socket, and every millisecond it spends
 * here is one a driver may be waiting for RDY: nothing here waits.  Each
 * connection keeps its own state between calls and has this long to send
 * its line, then to take its reply.
 */
#define CLIENT_LIMIT_MS		5000
#define LISTEN_BACKLOG		64
#define BUSY_REPLY	"error: too many control connections, the oldest is closed\n"

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

int shmem_control_listen(struct shmem_control *ctl, const char *path,
			 char *err, size_t errlen)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, saved;

	memset(ctl, 0, sizeof(*ctl));
	ctl->listen_fd = -1;
	for (unsigned int i = 0; i < SHMEM_CONTROL_CLIENTS_MAX; i++)
		ctl->clients[i].fd = -1;
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
	    listen(fd, LISTEN_BACKLOG))
		goto fail;
	ctl->listen_fd = fd;
	return 0;
fail:
	saved = errno;
	snprintf(err, errlen, "%s: %s", path, strerror(saved));
	if (fd >= 0)
		close(fd);
	return -saved;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void client_close(struct shmem_control_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	cl->fd = -1;
}

/* Send what is left of the reply; the connection ends with it. */
static void send_reply(struct shmem_control_client *cl)
{
	while (cl->sent < cl->reply_len) {
		ssize_t got = send(cl->fd, cl->reply + cl->sent,
				   cl->reply_len - cl->sent,
				   MSG_NOSIGNAL | MSG_DONTWAIT);

		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;		/* next time round */
		if (got <= 0)
			break;		/* the client went away */
		cl->sent += (size_t)got;
	}
	client_close(cl);
}

static void start_reply(struct shmem_control_client *cl, uint64_t now)
{
	/* Room was kept for the newline. */
	cl->reply_len = strlen(cl->reply);
	cl->reply[cl->reply_len++] = '\n';
	cl->sent = 0;
	cl->replying = true;
	cl->deadline_ms = now + CLIENT_LIMIT_MS;
	send_reply(cl);
}

static void read_line(struct shmem_control_client *cl,
		      struct shmem_machine *machine, uint64_t now)
{
	ssize_t got = recv(cl->fd, cl->line + cl->used,
			   sizeof(cl->line) - 1 - cl->used, MSG_DONTWAIT);

	if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		if (now < cl->deadline_ms)
			return;
		got = 0;	/* out of time: as if it had hung up */
	}
	if (got < 0) {
		client_close(cl);
		return;
	}
	cl->used += (size_t)got;
	cl->line[cl->used] = '\0';
	if (memchr(cl->line, '\n', cl->used)) {
		shmem_control_execute(machine, cl->line, cl->reply,
				      sizeof(cl->reply) - 1);
	} else if (got && cl->used < sizeof(cl->line) - 1) {
		return;		/* more to come */
	} else {
		snprintf(cl->reply, sizeof(cl->reply) - 1,
			 "error: no complete request line");
	}
	start_reply(cl, now);
}

static void accept_clients(struct shmem_control *ctl, uint64_t now)
{
	struct shmem_control_client *cl, *oldest;
	int fd;

	while ((fd = accept4(ctl->listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		cl = oldest = NULL;
		for (unsigned int i = 0; i < SHMEM_CONTROL_CLIENTS_MAX; i++) {
			struct shmem_control_client *c = &ctl->clients[i];

			if (c->fd < 0) {
				cl = c;
				break;
			}
			if (!oldest || c->serial < oldest->serial)
				oldest = c;
		}
		if (!cl) {
			/* Full: the oldest gives way, told why (one try). */
			send(oldest->fd, BUSY_REPLY, sizeof(BUSY_REPLY) - 1,
			     MSG_NOSIGNAL | MSG_DONTWAIT);
			client_close(oldest);
			cl = oldest;
		}
		memset(cl, 0, sizeof(*cl));
		cl->fd = fd;
		cl->serial = ctl->next_serial++;
		cl->deadline_ms = now + CLIENT_LIMIT_MS;
	}
}

void shmem_control_serve(struct shmem_control *ctl,
			 struct shmem_machine *machine)
{
	uint64_t now = now_ms();

	accept_clients(ctl, now);
	for (unsigned int i = 0; i < SHMEM_CONTROL_CLIENTS_MAX; i++) {
		struct shmem_control_client *cl = &ctl->clients[i];

		if (cl->fd < 0)
			continue;
		if (!cl->replying)
			read_line(cl, machine, now);
		else if (now >= cl->deadline_ms)
			client_close(cl);	/* it does not read its reply */
		else
			send_reply(cl);
	}
}

void shmem_control_close(struct shmem_control *ctl)
{
	for (unsigned int i = 0; i < SHMEM_CONTROL_CLIENTS_MAX; i++)
		client_close(&ctl->clients[i]);
	if (ctl->listen_fd >= 0)
		close(ctl->listen_fd);
	ctl->listen_fd = -1;
}
