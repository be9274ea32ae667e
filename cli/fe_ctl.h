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
#ifndef SDSI_FE_CTL_H
#define SDSI_FE_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdsi_model.h"
#include "fe_reply.h"

#define FE_CTL_MAX_WORDS	16
#define FE_CTL_ADVANCE_MAX_S	315360000ull	/* ten years per jump */

typedef int (*fe_model_fn)(struct sdsi_model *m, void *arg);

/* How a daemon reaches its sockets.  A NULL hook: the daemon cannot. */
struct fe_ctl_backend {
	const char *daemon;		/* named in "not served by" errors */
	unsigned int nsockets;
	void *ctx;
	/*
	 * Run fn on socket s's model between transactions; with reprobe the
	 * driver reads the socket anew afterwards.  fn's result, or -errno.
	 */
	int (*with_model)(void *ctx, unsigned int s, bool reprobe, fe_model_fn fn,
			  void *arg);
	int (*bind)(void *ctx, unsigned int s, bool bind);
	int (*advance)(void *ctx, unsigned int s, uint64_t ns);
	/* 1 bound, 0 unbound; NULL: status leaves "bound" out. */
	int (*bound)(void *ctx, unsigned int s);
};

struct fe_ctl_args;

/*
 * What a report (status, violations) says of a socket: take copies it out
 * of the model between transactions into a record of size bytes (zeroed
 * first), describe makes the socket's JSON object of that record; what
 * names the report in errors.
 */
struct fe_ctl_report {
	const char *what;
	fe_model_fn take;
	size_t size;
	struct json_object *(*describe)(const struct fe_ctl_backend *b, unsigned int s,
					 const void *record);
};

/* A report's data: one JSON object per socket first..last and line. */
void fe_ctl_report_lines(const struct fe_ctl_backend *b, unsigned int first,
			 unsigned int last, const struct fe_ctl_report *report,
			 struct fe_reply *r);

struct fe_ctl_command {
	const char *name;
	const char *usage;	/* the arguments after the name */
	const char *summary;
	/* Check the words after SOCKET (argv[0] is the name); false: r has why. */
	bool (*parse)(int argc, char **argv, struct fe_ctl_args *a, struct fe_reply *r);
	/*
	 * A change to socket s's model, made through the backend's with_model
	 * (with reprobe as it says), or, where the change is not the model's,
	 * apply.
	 */
	fe_model_fn change;
	bool reprobe;
	int (*apply)(const struct fe_ctl_backend *b, unsigned int s, struct fe_ctl_args *a);
	/* The "ok" line; which names the sockets ("socket 0", "sockets 0-3"). */
	void (*reply)(const struct fe_ctl_args *a, const char *which, struct fe_reply *r);
	/* Instead of a change: data lines about sockets first..last (status). */
	const struct fe_ctl_report *report;
};

extern const struct fe_ctl_command fe_ctl_commands[];
extern const unsigned int fe_ctl_command_count;

const struct fe_ctl_command *fe_ctl_find(const char *name);

/* Execute one request line; the answer in the style, for the caller to free. */
char *fe_ctl_execute(const struct fe_ctl_backend *b, const char *line,
		     enum fe_reply_style style);

/* status: one JSON object per socket and line (fe_ctl_status.c). */
extern const struct fe_ctl_report fe_ctl_status;
/* A JSON string "0x..." of at least digits hex digits (fe_ctl_status.c). */
struct json_object *fe_json_hex(unsigned long long v, int digits);

/*
 * violations: per socket, one JSON object and line with its count and the
 * violations the model keeps (fe_ctl_violations.c).
 */
extern const struct fe_ctl_report fe_ctl_violations;

#endif /* SDSI_FE_CTL_H */
