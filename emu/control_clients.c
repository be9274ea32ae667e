// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "control_clients.h"

/*
 * Closing a unix socket with unread input resets the connection, and the
 * client may then lose the answer: after the response our side is shut and
 * what the client still sends is read (briefly, and only so much) until it
 * closes.
 */
#define DRAIN_MS	1000
#define DRAIN_MAX	65536

static const char msg_busy[] =
	"error EBUSY: too many control connections, the oldest is closed\n";
static const char msg_too_long[] = "error EMSGSIZE: request longer than 1023 bytes\n";
static const char msg_timeout[] = "error ETIMEDOUT: no request line within 5 s\n";
static const char msg_empty[] = "error ENODATA: empty request\n";
static const char msg_nomem[] = "error ENOMEM: out of memory\n";

uint64_t emu_control_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void emu_control_clients_init(struct emu_control_clients *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned int i = 0; i < EMU_CONTROL_CLIENTS_MAX; i++)
		c->slot[i].fd = -1;
}

static void client_close(struct emu_control_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->owned);
	cl->owned = NULL;
	cl->out = NULL;
	cl->fd = -1;
	cl->phase = EMU_CLIENT_FREE;
}

static void start_drain(struct emu_control_client *cl, uint64_t now)
{
	free(cl->owned);
	cl->owned = NULL;
	cl->out = NULL;
	shutdown(cl->fd, SHUT_WR);
	cl->phase = EMU_CLIENT_DRAINING;
	cl->deadline_ms = now + DRAIN_MS;
	cl->drained = 0;
}

static void send_more(struct emu_control_client *cl, uint64_t now)
{
	while (cl->sent < cl->out_len) {
		ssize_t n = send(cl->fd, cl->out + cl->sent, cl->out_len - cl->sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;		/* poll() says when there is room */
		if (n <= 0) {
			client_close(cl);	/* the client went away */
			return;
		}
		cl->sent += (size_t)n;
	}
	start_drain(cl, now);
}

/* Answer with text; owned (or NULL) is freed once it is sent. */
static void respond(struct emu_control_client *cl, const char *text, char *owned,
		    uint64_t now)
{
	cl->out = text;
	cl->owned = owned;
	cl->out_len = strlen(text);
	cl->sent = 0;
	cl->phase = EMU_CLIENT_WRITING;
	cl->deadline_ms = now + EMU_CONTROL_RESPONSE_MS;
	send_more(cl, now);
}

static void execute(struct emu_control_client *cl, struct emu_control_target *target,
		    uint64_t now)
{
	char *response = emu_control_execute(target, cl->request);

	if (response)
		respond(cl, response, response, now);
	else
		respond(cl, msg_nomem, NULL, now);
}

static void read_request(struct emu_control_client *cl, struct emu_control_target *target,
			 uint64_t now)
{
	size_t room = sizeof(cl->request) - 1 - cl->used;
	ssize_t n = recv(cl->fd, cl->request + cl->used, room, MSG_DONTWAIT);
	char *nl;

	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			client_close(cl);
		return;
	}
	if (n == 0) {
		/* A request without its newline still counts at EOF. */
		cl->request[cl->used] = '\0';
		if (cl->used)
			execute(cl, target, now);
		else
			respond(cl, msg_empty, NULL, now);
		return;
	}
	cl->used += (size_t)n;
	cl->request[cl->used] = '\0';
	nl = strchr(cl->request, '\n');
	if (nl) {
		*nl = '\0';
		execute(cl, target, now);
	} else if (cl->used == sizeof(cl->request) - 1) {
		respond(cl, msg_too_long, NULL, now);
	}
}

static void drain(struct emu_control_client *cl)
{
	char discard[4096];
	ssize_t n = recv(cl->fd, discard, sizeof(discard), MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(cl);
		return;
	}
	cl->drained += (size_t)n;
	if (cl->drained >= DRAIN_MAX)
		client_close(cl);
}

void emu_control_clients_add(struct emu_control_clients *c, int fd, uint64_t now)
{
	struct emu_control_client *cl = NULL, *oldest = NULL;

	for (unsigned int i = 0; i < EMU_CONTROL_CLIENTS_MAX && !cl; i++) {
		if (c->slot[i].phase == EMU_CLIENT_FREE)
			cl = &c->slot[i];
		else if (!oldest || c->slot[i].serial < oldest->serial)
			oldest = &c->slot[i];
	}
	if (!cl) {
		/* One try, without waiting: the notice is a courtesy. */
		send(oldest->fd, msg_busy, sizeof(msg_busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		client_close(oldest);
		cl = oldest;
	}
	memset(cl, 0, sizeof(*cl));
	cl->fd = fd;
	cl->serial = c->next_serial++;
	cl->phase = EMU_CLIENT_READING;
	cl->deadline_ms = now + EMU_CONTROL_REQUEST_MS;
}

short emu_control_client_events(const struct emu_control_client *cl)
{
	switch (cl->phase) {
	case EMU_CLIENT_READING:
	case EMU_CLIENT_DRAINING:
		return POLLIN;
	case EMU_CLIENT_WRITING:
		return POLLOUT;
	default:
		return 0;
	}
}

void emu_control_client_ready(struct emu_control_client *cl, short revents,
			      struct emu_control_target *target, uint64_t now)
{
	if (!revents)
		return;
	switch (cl->phase) {
	case EMU_CLIENT_READING:
		read_request(cl, target, now);
		break;
	case EMU_CLIENT_WRITING:
		send_more(cl, now);
		break;
	case EMU_CLIENT_DRAINING:
		drain(cl);
		break;
	default:
		break;
	}
}

int emu_control_clients_expire(struct emu_control_clients *c, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < EMU_CONTROL_CLIENTS_MAX; i++) {
		struct emu_control_client *cl = &c->slot[i];

		if (cl->phase != EMU_CLIENT_FREE && cl->deadline_ms <= now) {
			if (cl->phase == EMU_CLIENT_READING)
				respond(cl, msg_timeout, NULL, now);
			else
				client_close(cl);	/* will not read or will not close */
		}
		if (cl->phase != EMU_CLIENT_FREE && cl->deadline_ms < next)
			next = cl->deadline_ms;
	}
	if (next == UINT64_MAX)
		return -1;
	return next > now ? (int)(next - now) : 0;
}

void emu_control_clients_close_all(struct emu_control_clients *c)
{
	for (unsigned int i = 0; i < EMU_CONTROL_CLIENTS_MAX; i++)
		if (c->slot[i].phase != EMU_CLIENT_FREE)
			client_close(&c->slot[i]);
}
