/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control commands of sdsi-emu and sdsi-shmem: one table (name, usage,
 * parse, change, reply) that both daemons execute, so the grammar, the
 * limits and the answers are the same.  What differs between the two
 * daemons is only how a command reaches a socket: the backend.
 *
 *   status [N] | violations [N] | power-cycle N | unbind N | bind N
 *   fault N KIND [--count C] [--param P]   (or: fault N KIND C P)
 *   clear N [KIND] | features N LIST | iblock N on|off | advance N SECONDS
 * N is a socket number or "all".
 */
#ifndef SDSI_CLI_CTL_H
#define SDSI_CLI_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sdsi_model.h"
#include "cli_reply.h"

#define CLI_CTL_MAX_WORDS	16
#define CLI_CTL_ADVANCE_MAX_S	315360000ull	/* ten years per jump */

typedef int (*cli_model_fn)(struct sdsi_model *m, void *arg);

/* How a daemon reaches its sockets.  A NULL hook: the daemon cannot. */
struct cli_ctl_sockets {
	const char *daemon;		/* named in "not served by" errors */
	unsigned int nsockets;
	void *ctx;
	/*
	 * Run fn on socket s's model between transactions; with reprobe the
	 * driver reads the socket anew afterwards.  fn's result, or -errno.
	 */
	int (*with_model)(void *ctx, unsigned int s, bool reprobe, cli_model_fn fn,
			  void *arg);
	int (*bind)(void *ctx, unsigned int s, bool bind);
	int (*advance)(void *ctx, unsigned int s, uint64_t ns);
	/* 1 bound, 0 unbound; NULL: status leaves "bound" out. */
	int (*bound)(void *ctx, unsigned int s);
};

struct cli_ctl_args;

/*
 * What a report (status, violations) says of a socket: take copies it out
 * of the model between transactions into a record of size bytes (zeroed
 * first), describe makes the socket's JSON object of that record; what
 * names the report in errors.
 */
struct cli_ctl_report {
	const char *what;
	cli_model_fn take;
	size_t size;
	struct json_object *(*describe)(const struct cli_ctl_sockets *b, unsigned int s,
					 const void *record);
};

/* A report's data: one JSON object per socket first..last and line. */
void cli_ctl_report_lines(const struct cli_ctl_sockets *b, unsigned int first,
			 unsigned int last, const struct cli_ctl_report *report,
			 struct cli_reply *r);

struct cli_ctl_command {
	const char *name;
	const char *usage;	/* the arguments after the name */
	const char *summary;
	/* Check the words after SOCKET (argv[0] is the name); false: r has why. */
	bool (*parse)(int argc, char **argv, struct cli_ctl_args *a, struct cli_reply *r);
	/*
	 * A change to socket s's model, made through the backend's with_model
	 * (with reprobe as it says), or, where the change is not the model's,
	 * apply.
	 */
	cli_model_fn change;
	bool reprobe;
	int (*apply)(const struct cli_ctl_sockets *b, unsigned int s, struct cli_ctl_args *a);
	/* The "ok" line; which names the sockets ("socket 0", "sockets 0-3"). */
	void (*reply)(const struct cli_ctl_args *a, const char *which, struct cli_reply *r);
	/* Instead of a change: data lines about sockets first..last (status). */
	const struct cli_ctl_report *report;
};

extern const struct cli_ctl_command cli_ctl_commands[];
extern const unsigned int cli_ctl_command_count;

const struct cli_ctl_command *cli_ctl_find(const char *name);

/* Execute one request line; the answer in the style, for the caller to free. */
char *cli_ctl_execute(const struct cli_ctl_sockets *b, const char *line,
		     enum cli_reply_style style);

/* status: one JSON object per socket and line (cli_ctl_status.c). */
extern const struct cli_ctl_report cli_ctl_status;
/* A JSON string "0x..." of at least digits hex digits (cli_ctl_status.c). */
struct json_object *cli_json_hex(unsigned long long v, int digits);

/*
 * violations: per socket, one JSON object and line with its count and the
 * violations the model keeps (cli_ctl_violations.c).
 */
extern const struct cli_ctl_report cli_ctl_violations;

#endif /* SDSI_CLI_CTL_H */
