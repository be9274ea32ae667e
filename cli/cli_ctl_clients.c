// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli_ctl_clients.h"

/*
 * Closing a unix socket with unread input resets the connection, and the
 * client may then lose the answer: after the response our side is shut and
 * what the client still sends is read (briefly, and only so much) until it
 * closes.
 */
#define DRAIN_MS	1000
#define DRAIN_MAX	65536

/* sdsi-emu's: `sdsi-emu ctl` turns the errno into its exit status. */
static const struct cli_ctl_dialect errno_dialect = {
	.busy = "error EBUSY: too many control connections, the oldest is closed\n",
	.too_long = "error EMSGSIZE: request longer than 1023 bytes\n",
	.timeout = "error ETIMEDOUT: no request line within 5 s\n",
	.empty = "error ENODATA: empty request\n",
	.unterminated = NULL,
	.nomem = "error ENOMEM: out of memory\n",
	.too_big = "error EMSGSIZE: answer longer than 65536 bytes\n",
	.clients_max = 32,
	.request_max = 1024,
};

/*
 * sdsi-shmem's: its lines are the control page's (256 bytes), and a line
 * that is not all there, for whatever reason, is one error to its clients.
 */
#define TERSE_INCOMPLETE	"error: no complete request line\n"
static const struct cli_ctl_dialect terse_dialect = {
	.busy = "error: too many control connections, the oldest is closed\n",
	.too_long = TERSE_INCOMPLETE,
	.timeout = TERSE_INCOMPLETE,
	.empty = TERSE_INCOMPLETE,
	.unterminated = TERSE_INCOMPLETE,
	.nomem = "error: out of memory\n",
	.too_big = "error: answer longer than 65536 bytes\n",
	.clients_max = 16,
	.request_max = 256,
};

_Static_assert(CLI_CTL_ANSWER_MAX == 65536, "the too_big messages name the bound");
_Static_assert(CLI_CTL_CLIENTS_MAX >= 32 && CLI_CTL_REQUEST_MAX >= 1024,
	       "the slots hold every dialect's limits");

const struct cli_ctl_dialect *cli_ctl_dialect(enum cli_reply_style style)
{
	return style == CLI_REPLY_TERSE ? &terse_dialect : &errno_dialect;
}

void cli_ctl_clients_init(struct cli_ctl_clients *c, enum cli_reply_style style)
{
	memset(c, 0, sizeof(*c));
	c->dialect = cli_ctl_dialect(style);
	for (unsigned int i = 0; i < CLI_CTL_CLIENTS_MAX; i++)
		c->slot[i].fd = -1;
}

static void client_close(struct cli_ctl_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->owned);
	cl->owned = NULL;
	cl->out = NULL;
	cl->fd = -1;
	cl->phase = CLI_CTL_CLIENT_FREE;
}

static void start_drain(struct cli_ctl_client *cl, uint64_t now)
{
	free(cl->owned);
	cl->owned = NULL;
	cl->out = NULL;
	shutdown(cl->fd, SHUT_WR);
	cl->phase = CLI_CTL_CLIENT_DRAINING;
	cl->deadline_ms = now + DRAIN_MS;
	cl->drained = 0;
}

static void send_more(struct cli_ctl_client *cl, uint64_t now)
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
static void respond(struct cli_ctl_client *cl, const char *text, char *owned,
		    uint64_t now)
{
	cl->out = text;
	cl->owned = owned;
	cl->out_len = strlen(text);
	cl->sent = 0;
	cl->phase = CLI_CTL_CLIENT_WRITING;
	cl->deadline_ms = now + CLI_CTL_RESPONSE_MS;
	send_more(cl, now);
}

static void execute(const struct cli_ctl_dialect *d, struct cli_ctl_client *cl,
		    const struct cli_ctl_handler *handler, uint64_t now)
{
	char *response = handler->execute(handler->ctx, cl->request);

	if (response && strlen(response) > CLI_CTL_ANSWER_MAX) {
		free(response);		/* no client would take it */
		respond(cl, d->too_big, NULL, now);
	} else if (response) {
		respond(cl, response, response, now);
	} else {
		respond(cl, d->nomem, NULL, now);
	}
}

/* The client closed its side: what it sent is all there will be. */
static void request_ended(const struct cli_ctl_dialect *d, struct cli_ctl_client *cl,
			  const struct cli_ctl_handler *handler, uint64_t now)
{
	cl->request[cl->used] = '\0';
	if (!cl->used)
		respond(cl, d->empty, NULL, now);
	else if (d->unterminated)
		respond(cl, d->unterminated, NULL, now);
	else
		execute(d, cl, handler, now);
}

static void read_request(const struct cli_ctl_dialect *d, struct cli_ctl_client *cl,
			 const struct cli_ctl_handler *handler, uint64_t now)
{
	size_t room = d->request_max - 1 - cl->used;
	ssize_t n = recv(cl->fd, cl->request + cl->used, room, MSG_DONTWAIT);
	char *nl;

	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			client_close(cl);
		return;
	}
	if (n == 0) {
		request_ended(d, cl, handler, now);
		return;
	}
	cl->used += (size_t)n;
	cl->request[cl->used] = '\0';
	nl = memchr(cl->request, '\n', cl->used);
	if (nl) {
		*nl = '\0';
		execute(d, cl, handler, now);
	} else if (cl->used == d->request_max - 1) {
		respond(cl, d->too_long, NULL, now);
	}
}

static void drain(struct cli_ctl_client *cl)
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

void cli_ctl_clients_add(struct cli_ctl_clients *c, int fd, uint64_t now)
{
	struct cli_ctl_client *cl = NULL, *oldest = NULL;

	for (unsigned int i = 0; i < c->dialect->clients_max && !cl; i++) {
		if (c->slot[i].phase == CLI_CTL_CLIENT_FREE)
			cl = &c->slot[i];
		else if (!oldest || c->slot[i].serial < oldest->serial)
			oldest = &c->slot[i];
	}
	if (!cl) {
		/* One try, without waiting: the notice is a courtesy. */
		send(oldest->fd, c->dialect->busy, strlen(c->dialect->busy),
		     MSG_NOSIGNAL | MSG_DONTWAIT);
		client_close(oldest);
		cl = oldest;
	}
	memset(cl, 0, sizeof(*cl));
	cl->fd = fd;
	cl->serial = c->next_serial++;
	cl->phase = CLI_CTL_CLIENT_READING;
	cl->deadline_ms = now + CLI_CTL_REQUEST_MS;
}

short cli_ctl_client_events(const struct cli_ctl_client *cl)
{
	switch (cl->phase) {
	case CLI_CTL_CLIENT_READING:
	case CLI_CTL_CLIENT_DRAINING:
		return POLLIN;
	case CLI_CTL_CLIENT_WRITING:
		return POLLOUT;
	default:
		return 0;
	}
}

void cli_ctl_client_ready(const struct cli_ctl_clients *c, struct cli_ctl_client *cl,
			 short revents, const struct cli_ctl_handler *handler, uint64_t now)
{
	if (!revents)
		return;
	switch (cl->phase) {
	case CLI_CTL_CLIENT_READING:
		read_request(c->dialect, cl, handler, now);
		break;
	case CLI_CTL_CLIENT_WRITING:
		send_more(cl, now);
		break;
	case CLI_CTL_CLIENT_DRAINING:
		drain(cl);
		break;
	default:
		break;
	}
}

int cli_ctl_clients_expire(struct cli_ctl_clients *c, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < CLI_CTL_CLIENTS_MAX; i++) {
		struct cli_ctl_client *cl = &c->slot[i];

		if (cl->phase != CLI_CTL_CLIENT_FREE && cl->deadline_ms <= now) {
			if (cl->phase == CLI_CTL_CLIENT_READING)
				respond(cl, c->dialect->timeout, NULL, now);
			else
				client_close(cl);	/* will not read or will not close */
		}
		if (cl->phase != CLI_CTL_CLIENT_FREE && cl->deadline_ms < next)
			next = cl->deadline_ms;
	}
	if (next == UINT64_MAX)
		return -1;
	return next > now ? (int)(next - now) : 0;
}

void cli_ctl_clients_close_all(struct cli_ctl_clients *c)
{
	for (unsigned int i = 0; i < CLI_CTL_CLIENTS_MAX; i++)
		if (c->slot[i].phase != CLI_CTL_CLIENT_FREE)
			client_close(&c->slot[i]);
}
