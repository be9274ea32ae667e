// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control-command table.  Every command but status takes SOCKET first;
 * the arguments after it are parsed before any socket is touched, so a
 * bad request changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_ctl.h"
#include "cli_value.h"
#include "util/util_array.h"

struct cli_ctl_args {
	const struct cli_ctl_command *cmd;
	enum sdsi_fault_kind kind;
	bool all_kinds;
	uint32_t param;
	unsigned int count;
	uint64_t features;
	bool on;
	unsigned long long seconds;
};

static bool parse_kind(const char *word, enum sdsi_fault_kind *kind,
		       struct cli_reply *r)
{
	char known[256];
	size_t used = 0;

	if (sdsi_fault_from_name(word, kind) == 0)
		return true;
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT && used < sizeof(known); k++)
		used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
					 k ? " " : "",
					 sdsi_fault_name((enum sdsi_fault_kind)k));
	cli_reply_error(r, EINVAL, "unknown fault kind '%.32s' (known: %s)", word, known);
	return false;
}

static bool parse_u32(const char *word, uint32_t *v)
{
	unsigned long long n;

	if (!cli_parse_uint(word, 0, UINT32_MAX, &n))
		return false;
	*v = (uint32_t)n;
	return true;
}

/*
 * fault SOCKET KIND [--count N] [--param N]; sdsi-shmem's old positional
 * form, fault SOCKET KIND COUNT PARAM, is accepted too (the kernel rig
 * sends it).
 */
static bool parse_fault(int argc, char **argv, struct cli_ctl_args *a,
			struct cli_reply *r)
{
	uint32_t count = 0;

	if (argc < 3) {
		cli_reply_error(r, EINVAL, "usage: fault N KIND [--count C] [--param P]");
		return false;
	}
	/* The positional form's errors are its usage line, as they were. */
	if (argc == 5 && argv[3][0] != '-') {
		if (sdsi_fault_from_name(argv[2], &a->kind) || !parse_u32(argv[3], &count) ||
		    !parse_u32(argv[4], &a->param)) {
			cli_reply_error(r, EINVAL, "usage: fault N KIND COUNT PARAM");
			return false;
		}
		a->count = count;
		return true;
	}
	if (!parse_kind(argv[2], &a->kind, r))
		return false;
	for (int i = 3; i < argc; i += 2) {
		bool is_count = strcmp(argv[i], "--count") == 0;

		if (!is_count && strcmp(argv[i], "--param") != 0) {
			cli_reply_error(r, EINVAL, "fault: unknown option '%.32s' (--count N, --param N)",
				       argv[i]);
			return false;
		}
		if (i + 1 >= argc || !parse_u32(argv[i + 1], is_count ? &count : &a->param)) {
			cli_reply_error(r, EINVAL, "fault: %s needs a number from 0 to 4294967295",
				       argv[i]);
			return false;
		}
	}
	a->count = count;
	return true;
}

static bool parse_clear(int argc, char **argv, struct cli_ctl_args *a,
			struct cli_reply *r)
{
	if (argc > 3) {
		cli_reply_error(r, EINVAL, "usage: clear N [KIND]");
		return false;
	}
	a->all_kinds = argc == 2;
	return a->all_kinds || parse_kind(argv[2], &a->kind, r);
}

static bool parse_features(int argc, char **argv, struct cli_ctl_args *a,
			   struct cli_reply *r)
{
	char err[256];

	if (argc != 3) {
		cli_reply_error(r, EINVAL, "usage: features N LIST");
		return false;
	}
	if (cli_parse_features(argv[2], &a->features, err, sizeof(err))) {
		cli_reply_error(r, EINVAL, "%s", err);
		return false;
	}
	return true;
}

static bool parse_iblock(int argc, char **argv, struct cli_ctl_args *a,
			 struct cli_reply *r)
{
	if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
		cli_reply_error(r, EINVAL, "usage: iblock N on|off");
		return false;
	}
	a->on = strcmp(argv[2], "on") == 0;
	return true;
}

static bool parse_advance(int argc, char **argv, struct cli_ctl_args *a,
			  struct cli_reply *r)
{
	if (argc != 3 || !cli_parse_uint(argv[2], 0, CLI_CTL_ADVANCE_MAX_S, &a->seconds)) {
		cli_reply_error(r, EINVAL, "usage: advance N SECONDS (0 to %llu)",
			       CLI_CTL_ADVANCE_MAX_S);
		return false;
	}
	return true;
}

/* The commands of SOCKET alone. */
static bool parse_socket_only(int argc, char **argv, struct cli_ctl_args *a,
			      struct cli_reply *r)
{
	if (argc != 2) {
		cli_reply_error(r, EINVAL, "usage: %s N", argv[0]);
		return false;
	}
	return true;
}

/* The reports: an optional SOCKET. */
static bool parse_report(int argc, char **argv, struct cli_ctl_args *a,
			 struct cli_reply *r)
{
	if (argc > 2) {
		cli_reply_error(r, EINVAL, "usage: %s [N]", argv[0]);
		return false;
	}
	return true;
}

static int do_power_cycle(struct sdsi_model *m, void *arg)
{
	return sdsi_model_power_cycle(m);
}

static int do_fault(struct sdsi_model *m, void *arg)
{
	const struct cli_ctl_args *a = arg;

	return sdsi_model_fault_set(m, a->kind, a->param, a->count);
}

static int do_clear(struct sdsi_model *m, void *arg)
{
	const struct cli_ctl_args *a = arg;

	if (a->all_kinds)
		sdsi_model_fault_clear_all(m);
	else
		sdsi_model_fault_clear(m, a->kind);
	return 0;
}

static int do_features(struct sdsi_model *m, void *arg)
{
	sdsi_model_set_features(m, ((const struct cli_ctl_args *)arg)->features);
	return 0;
}

static int do_iblock(struct sdsi_model *m, void *arg)
{
	sdsi_model_set_iblock(m, ((const struct cli_ctl_args *)arg)->on);
	return 0;
}

static int apply_bind(const struct cli_ctl_sockets *b, unsigned int s,
		      struct cli_ctl_args *a)
{
	return b->bind ? b->bind(b->ctx, s, strcmp(a->cmd->name, "bind") == 0) : -EOPNOTSUPP;
}

static int apply_advance(const struct cli_ctl_sockets *b, unsigned int s,
			 struct cli_ctl_args *a)
{
	/* Model time only: the driver's own timeouts keep real time. */
	return b->advance ? b->advance(b->ctx, s, a->seconds * 1000000000ull) : -EOPNOTSUPP;
}

static void reply_plain(const struct cli_ctl_args *a, const char *which,
			struct cli_reply *r)
{
	cli_reply_add(r, "ok %s %s\n", a->cmd->name, which);
}

static void reply_fault(const struct cli_ctl_args *a, const char *which,
			struct cli_reply *r)
{
	cli_reply_add(r, "ok fault %s armed on %s (count %u, param %u)\n",
		     sdsi_fault_name(a->kind), which, a->count, a->param);
}

static void reply_clear(const struct cli_ctl_args *a, const char *which,
			struct cli_reply *r)
{
	cli_reply_add(r, "ok cleared %s on %s\n",
		     a->all_kinds ? "every fault" : sdsi_fault_name(a->kind), which);
}

static void reply_features(const struct cli_ctl_args *a, const char *which,
			   struct cli_reply *r)
{
	cli_reply_add(r, "ok features 0x%llx on %s\n", (unsigned long long)a->features,
		     which);
}

static void reply_iblock(const struct cli_ctl_args *a, const char *which,
			 struct cli_reply *r)
{
	cli_reply_add(r, "ok iblock %s on %s\n", a->on ? "on" : "off", which);
}

static void reply_advance(const struct cli_ctl_args *a, const char *which,
			  struct cli_reply *r)
{
	cli_reply_add(r, "ok advanced %s by %llu s\n", which, a->seconds);
}

const struct cli_ctl_command cli_ctl_commands[] = {
	{ "status", "[N]", "one JSON object per socket and line, with its protocol_violations count",
	  parse_report, .report = &cli_ctl_status },
	{ "violations", "[N]",
	  "one JSON object per socket and line: the count and the last 8 mailbox protocol violations (rule, access, register, value)",
	  parse_report, .report = &cli_ctl_violations },
	{ "power-cycle", "N", "cold power cycle, then the driver reprobes",
	  parse_socket_only, .change = do_power_cycle, .reprobe = true, .reply = reply_plain },
	{ "fault", "N KIND [--count C] [--param P]",
	  "arm a fault for C transactions (default 0: until cleared); P is the latency in us of rdy-latency and owner-delay, the bytes added to MSG_SIZE of msg-size; fault N KIND C P is the same",
	  parse_fault, .change = do_fault, .reply = reply_fault },
	{ "clear", "N [KIND]", "clear one fault, or all of them",
	  parse_clear, .change = do_clear, .reply = reply_clear },
	{ "unbind", "N", "as writing to drivers/intel_sdsi/unbind",
	  parse_socket_only, .apply = apply_bind, .reply = reply_plain },
	{ "bind", "N", "as writing to drivers/intel_sdsi/bind",
	  parse_socket_only, .apply = apply_bind, .reply = reply_plain },
	{ "features", "N LIST", "set the enabled features, then reprobe",
	  parse_features, .change = do_features, .reprobe = true, .reply = reply_features },
	{ "iblock", "N on|off", "set or clear the in-band lock",
	  parse_iblock, .change = do_iblock, .reply = reply_iblock },
	{ "advance", "N SECONDS",
	  "move the socket's model time forward by SECONDS (0..315360000); meters count it as powered-up time",
	  parse_advance, .apply = apply_advance, .reply = reply_advance },
};

const unsigned int cli_ctl_command_count =
	UTIL_ARRAY_SIZE(cli_ctl_commands);

const struct cli_ctl_command *cli_ctl_find(const char *name)
{
	for (unsigned int i = 0; i < cli_ctl_command_count; i++)
		if (strcmp(cli_ctl_commands[i].name, name) == 0)
			return &cli_ctl_commands[i];
	return NULL;
}

/* SOCKET: N or all, as [first, last]. */
static bool parse_sockets(const struct cli_ctl_sockets *b, const char *word,
			  unsigned int *first, unsigned int *last, struct cli_reply *r)
{
	unsigned long long n;

	if (strcmp(word, "all") == 0) {
		*first = 0;
		*last = b->nsockets - 1;
		return true;
	}
	if (!cli_parse_uint(word, 0, b->nsockets - 1, &n)) {
		cli_reply_error(r, ENODEV, "no socket '%.32s' (0..%u)", word, b->nsockets - 1);
		return false;
	}
	*first = *last = (unsigned int)n;
	return true;
}

static void run_on_sockets(const struct cli_ctl_sockets *b, struct cli_ctl_args *a,
			   int argc, char **argv, struct cli_reply *r)
{
	unsigned int first = 0, last = b->nsockets - 1;
	char which[32];

	if (argc < 2 && !a->cmd->report) {
		cli_reply_error(r, EINVAL, "%s: no socket given (N or all)", argv[0]);
		return;
	}
	if (!a->cmd->parse(argc, argv, a, r))
		return;
	if (argc >= 2 && !parse_sockets(b, argv[1], &first, &last, r))
		return;
	if (a->cmd->report) {
		cli_ctl_report_lines(b, first, last, a->cmd->report, r);
		return;
	}
	for (unsigned int s = first; s <= last; s++) {
		int ret = a->cmd->change ?
			  b->with_model(b->ctx, s, a->cmd->reprobe, a->cmd->change, a) :
			  a->cmd->apply(b, s, a);

		if (ret == -EOPNOTSUPP) {
			cli_reply_error(r, EOPNOTSUPP, "%s: not served by %s", argv[0], b->daemon);
			return;
		}
		if (ret) {
			cli_reply_error(r, -ret, "%s socket %u: %s", argv[0], s, strerror(-ret));
			return;
		}
	}
	if (first == last)
		snprintf(which, sizeof(which), "socket %u", first);
	else
		snprintf(which, sizeof(which), "sockets %u-%u", first, last);
	a->cmd->reply(a, which, r);
}

static void unknown_command(const char *word, struct cli_reply *r)
{
	char known[256];
	size_t used = 0;

	for (unsigned int i = 0; i < cli_ctl_command_count && used < sizeof(known); i++)
		used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
					 i ? ", " : "", cli_ctl_commands[i].name);
	cli_reply_error(r, EINVAL, "unknown command '%.32s' (%s)", word, known);
	/* sdsi-shmem's clients (the kernel rig) match its older wording. */
	snprintf(r->terse, sizeof(r->terse), "unknown request '%.32s'", word);
}

char *cli_ctl_execute(const struct cli_ctl_sockets *b, const char *line,
		     enum cli_reply_style style)
{
	struct cli_reply r = { 0 };
	struct cli_ctl_args a = { 0 };
	char *copy = strdup(line), *save = NULL, *word;
	char *argv[CLI_CTL_MAX_WORDS];
	int argc = 0;

	if (!copy)
		return NULL;
	for (word = strtok_r(copy, " \t\r\n", &save); word;
	     word = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc == CLI_CTL_MAX_WORDS) {
			cli_reply_error(&r, E2BIG, "too many words in the request (at most %d)",
				       CLI_CTL_MAX_WORDS);
			goto out;
		}
		argv[argc++] = word;
	}
	if (argc == 0) {
		cli_reply_error(&r, EINVAL, "empty request");
		goto out;
	}
	a.cmd = cli_ctl_find(argv[0]);
	if (!a.cmd)
		unknown_command(argv[0], &r);
	else
		run_on_sockets(b, &a, argc, argv, &r);
out:
	free(copy);
	return cli_reply_render(&r, style);
}
