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
#include <unistd.h>

#include "control.h"
#include "fe_ctl.h"

/*
 * The polling thread serves the socket, and every millisecond it spends
 * here is one a driver may be waiting for RDY: nothing here waits.  Each
 * connection keeps its own state between calls and has this long to send
 * its line, then to take its reply.
 */
#define CLIENT_LIMIT_MS		5000
#define LISTEN_BACKLOG		64
#define BUSY_REPLY	"error: too many control connections, the oldest is closed\n"

/* The window shows the model as at the last store: show the change. */
static int with_model(void *ctx, unsigned int s, bool reprobe, fe_model_fn fn, void *arg)
{
	struct shmem_machine *machine = ctx;
	int ret = fn(machine->models[s], arg);

	sdsi_shmem_sync(&machine->ports[s]);
	return ret;
}

void shmem_control_execute(struct shmem_machine *machine, char *line,
			   char *reply, size_t replylen)
{
	/* No driver to bind here, and the models keep the host's clock. */
	const struct fe_ctl_backend backend = {
		.daemon = "sdsi-shmem",
		.nsockets = machine->sockets,
		.ctx = machine,
		.with_model = with_model,
	};
	char *answer = fe_ctl_execute(&backend, line, FE_REPLY_TERSE);
	size_t len;

	if (!answer) {
		snprintf(reply, replylen, "error: out of memory");
		return;
	}
	len = strlen(answer);
	if (len && answer[len - 1] == '\n')
		len--;		/* the transports add their own */
	if (len >= replylen)
		snprintf(reply, replylen, "error: the answer (%zu bytes) is longer than a reply (%zu); ask for one socket",
			 len, replylen - 1);
	else
		snprintf(reply, replylen, "%.*s", (int)len, answer);
	free(answer);
}

int shmem_control_listen(struct shmem_control *ctl, const char *path,
			 char *err, size_t errlen)
{
	int ret;

	memset(ctl, 0, sizeof(*ctl));
	ctl->listen_fd = ctl->sock.fd = -1;
	for (unsigned int i = 0; i < SHMEM_CONTROL_CLIENTS_MAX; i++)
		ctl->clients[i].fd = -1;
	/* sdsi-emu's rules for its socket (frontend/fe_ctl_socket.h). */
	ret = fe_ctl_socket_check_dir(path, err, errlen);
	if (!ret)
		ret = fe_ctl_socket_listen(&ctl->sock, path, "sdsi-shmem", LISTEN_BACKLOG,
					   err, errlen);
	ctl->listen_fd = ctl->sock.fd;
	return ret;
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
	fe_ctl_socket_close(&ctl->sock, "sdsi-shmem");
	ctl->listen_fd = -1;
}
