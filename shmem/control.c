// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control requests of sdsi-shmem.  Every request that changes the model
 * ends with shmem_port_sync(), because the window shows the model only as
 * it was at the last driver store.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "cli/cli_ctl.h"

/*
 * The longest answer a socket's client takes (with room for its newline):
 * a socket's violations fit.  The control page's replies are shorter.
 */
#define REPLY_MAX		4096

/* The window shows the model as at the last store: show the change. */
static int with_model(void *ctx, unsigned int s, bool reprobe, cli_model_fn fn, void *arg)
{
	struct shmem_machine *machine = ctx;
	int ret = fn(machine->models[s], arg);

	shmem_port_sync(&machine->ports[s]);
	return ret;
}

void shmem_control_execute(struct shmem_machine *machine, const char *line,
			   char *reply, size_t replylen)
{
	/* No driver to bind here, and the models keep the host's clock. */
	const struct cli_ctl_sockets backend = {
		.daemon = "sdsi-shmem",
		.nsockets = machine->sockets,
		.ctx = machine,
		.with_model = with_model,
	};
	char *answer = cli_ctl_execute(&backend, line, CLI_REPLY_TERSE);
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
	ctl->server.sock.fd = -1;
	/* sdsi-emu's rules for its socket (cli/cli_ctl_socket.h). */
	ret = cli_ctl_socket_check_dir(path, err, errlen);
	if (ret)
		return ret;
	return cli_ctl_server_listen(&ctl->server, path, "sdsi-shmem", CLI_REPLY_TERSE,
				    err, errlen);
}

/* A request from the socket: the answer as the control page's, on a line. */
static char *execute(void *ctx, const char *request)
{
	char *reply = malloc(REPLY_MAX + 1);
	size_t len;

	if (!reply)
		return NULL;
	shmem_control_execute(ctx, request, reply, REPLY_MAX);
	len = strlen(reply);
	reply[len] = '\n';
	reply[len + 1] = '\0';
	return reply;
}

void shmem_control_serve(struct shmem_control *ctl,
			 struct shmem_machine *machine)
{
	const struct cli_ctl_handler handler = { .ctx = machine, .execute = execute };

	cli_ctl_server_serve(&ctl->server, &handler, -1, false);
}

/* A request from the control page: the page's text, the socket's commands. */
static void execute_page(void *ctx, const char *request, char *reply,
			 size_t replylen)
{
	shmem_control_execute(ctx, request, reply, replylen);
}

bool shmem_control_serve_page(struct window_ctlpage *page,
			      struct shmem_machine *machine)
{
	const struct window_ctlpage_handler handler = {
		.ctx = machine,
		.execute = execute_page,
	};

	return window_ctlpage_serve(page, &handler);
}

void shmem_control_close(struct shmem_control *ctl)
{
	cli_ctl_server_close(&ctl->server);
}
