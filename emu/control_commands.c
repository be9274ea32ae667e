// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control_commands.h"
#include "control_response.h"
#include "control_status.h"

#define MAX_WORDS	16
/* ctl advance: ten years of model time at most per jump. */
#define ADVANCE_MAX_S	315360000ull

/* Sockets a command applies to: [first, last]. */
struct socket_range {
	unsigned int first, last;
};

static bool parse_sockets(struct emu_control_target *t, const char *word,
			  struct socket_range *range, struct emu_response *r)
{
	unsigned long long n;
	char msg[128];

	if (strcmp(word, "all") == 0) {
		range->first = 0;
		range->last = t->nsockets - 1;
		return true;
	}
	if (!emu_parse_uint(word, 0, t->nsockets - 1, &n)) {
		snprintf(msg, sizeof(msg), "no socket '%s' (sockets are 0-%u and all)",
			 word, t->nsockets - 1);
		emu_respond_error(r, ENODEV, msg);
		return false;
	}
	range->first = range->last = (unsigned int)n;
	return true;
}

static void describe_range(const struct socket_range *range, char *buf, size_t len)
{
	if (range->first == range->last)
		snprintf(buf, len, "socket %u", range->first);
	else
		snprintf(buf, len, "sockets %u-%u", range->first, range->last);
}

static int apply_power_cycle(struct sdsi_model *m, void *arg)
{
	return sdsi_model_power_cycle(m);
}

static int apply_features(struct sdsi_model *m, void *arg)
{
	sdsi_model_set_features(m, *(const uint64_t *)arg);
	return 0;
}

static int apply_iblock(struct sdsi_model *m, void *arg)
{
	sdsi_model_set_iblock(m, *(const bool *)arg);
	return 0;
}

static int apply_fault_set(struct sdsi_model *m, void *arg)
{
	const struct emu_fault_request *f = arg;

	return sdsi_model_fault_set(m, f->kind, f->param, f->count);
}

static int apply_fault_clear(struct sdsi_model *m, void *arg)
{
	const struct emu_fault_request *f = arg;

	if (f->all)
		sdsi_model_fault_clear_all(m);
	else
		sdsi_model_fault_clear(m, f->kind);
	return 0;
}

static bool parse_fault_kind(const char *word, enum sdsi_fault_kind *kind,
			     struct emu_response *r)
{
	char msg[512];
	size_t used;

	if (sdsi_fault_from_name(word, kind) == 0)
		return true;
	used = (size_t)snprintf(msg, sizeof(msg), "unknown fault kind '%s' (known:", word);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT && used < sizeof(msg); k++)
		used += (size_t)snprintf(msg + used, sizeof(msg) - used, " %s",
					 sdsi_fault_name((enum sdsi_fault_kind)k));
	if (used < sizeof(msg))
		snprintf(msg + used, sizeof(msg) - used, ")");
	emu_respond_error(r, EINVAL, msg);
	return false;
}

/* fault SOCKET KIND [--count N] [--param N] */
static bool parse_fault(int argc, char **argv, struct emu_fault_request *f,
			struct emu_response *r)
{
	unsigned long long v;
	char msg[128];

	if (argc < 3) {
		emu_respond_error(r, EINVAL, "usage: fault SOCKET KIND [--count N] [--param N]");
		return false;
	}
	if (!parse_fault_kind(argv[2], &f->kind, r))
		return false;
	for (int i = 3; i < argc; i += 2) {
		bool count = strcmp(argv[i], "--count") == 0;

		if (!count && strcmp(argv[i], "--param") != 0) {
			snprintf(msg, sizeof(msg), "fault: unknown option '%s' (--count N, --param N)",
				 argv[i]);
			emu_respond_error(r, EINVAL, msg);
			return false;
		}
		if (i + 1 >= argc || !emu_parse_uint(argv[i + 1], 0, UINT32_MAX, &v)) {
			snprintf(msg, sizeof(msg), "fault: %s needs a number from 0 to 4294967295",
				 argv[i]);
			emu_respond_error(r, EINVAL, msg);
			return false;
		}
		if (count)
			f->count = (unsigned int)v;
		else
			f->param = (uint32_t)v;
	}
	return true;
}

enum socket_op {
	OP_POWER_CYCLE, OP_FAULT, OP_CLEAR, OP_UNBIND, OP_BIND, OP_FEATURES, OP_IBLOCK,
	OP_ADVANCE,
};

/* The commands that take SOCKET as their first argument, by enum socket_op. */
static const char *const socket_commands[] = {
	"power-cycle", "fault", "clear", "unbind", "bind", "features", "iblock",
	"advance",
};

struct socket_request {
	enum socket_op op;
	struct emu_fault_request fault;
	uint64_t features;
	bool iblock;
	unsigned long long seconds;
};

/* Check the arguments after SOCKET; false after responding with the error. */
static bool parse_socket_request(int argc, char **argv, struct socket_request *req,
				 struct emu_response *r)
{
	char msg[256];

	switch (req->op) {
	case OP_FAULT:
		return parse_fault(argc, argv, &req->fault, r);
	case OP_CLEAR:
		if (argc > 3) {
			emu_respond_error(r, EINVAL, "usage: clear SOCKET [KIND]");
			return false;
		}
		req->fault.all = argc == 2;
		return req->fault.all || parse_fault_kind(argv[2], &req->fault.kind, r);
	case OP_FEATURES:
		if (argc != 3) {
			emu_respond_error(r, EINVAL, "usage: features SOCKET LIST");
			return false;
		}
		if (emu_parse_features(argv[2], &req->features, msg, sizeof(msg))) {
			emu_respond_error(r, EINVAL, msg);
			return false;
		}
		return true;
	case OP_ADVANCE:
		if (argc != 3 || !emu_parse_uint(argv[2], 0, ADVANCE_MAX_S, &req->seconds)) {
			emu_respond_error(r, EINVAL,
					  "usage: advance SOCKET SECONDS (0 to 315360000)");
			return false;
		}
		return true;
	case OP_IBLOCK:
		if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
			emu_respond_error(r, EINVAL, "usage: iblock SOCKET on|off");
			return false;
		}
		req->iblock = strcmp(argv[2], "on") == 0;
		return true;
	default:
		if (argc != 2) {
			snprintf(msg, sizeof(msg), "usage: %s SOCKET", argv[0]);
			emu_respond_error(r, EINVAL, msg);
			return false;
		}
		return true;
	}
}

/* Model changes run under the socket's mailbox lock, between transactions. */
static int apply_socket_request(struct emu_control_target *t, unsigned int s,
				struct socket_request *req)
{
	switch (req->op) {
	case OP_POWER_CYCLE:
		return emu_model_with_socket(t->drv, s, true, apply_power_cycle, NULL);
	case OP_FAULT:
		return emu_model_with_socket(t->drv, s, false, apply_fault_set, &req->fault);
	case OP_CLEAR:
		return emu_model_with_socket(t->drv, s, false, apply_fault_clear, &req->fault);
	case OP_UNBIND:
		return sdsi_fusedrv_unbind(t->drv, s);
	case OP_BIND:
		return sdsi_fusedrv_bind(t->drv, s);
	case OP_FEATURES:
		return emu_model_with_socket(t->drv, s, true, apply_features, &req->features);
	case OP_IBLOCK:
		return emu_model_with_socket(t->drv, s, false, apply_iblock, &req->iblock);
	case OP_ADVANCE:
		/* Model time only: the driver's own timeouts keep real time. */
		return emu_model_clock_advance(&t->clocks[s], req->seconds * 1000000000ull);
	}
	return -EINVAL;
}

static void respond_done(const struct socket_request *req, const char *which,
			 struct emu_response *r)
{
	const struct emu_fault_request *f = &req->fault;

	switch (req->op) {
	case OP_FAULT:
		emu_respond(r, "ok fault %s armed on %s (count %u, param %u)\n",
			sdsi_fault_name(f->kind), which, f->count, f->param);
		break;
	case OP_CLEAR:
		emu_respond(r, "ok cleared %s on %s\n",
			f->all ? "every fault" : sdsi_fault_name(f->kind), which);
		break;
	case OP_FEATURES:
		emu_respond(r, "ok features 0x%llx on %s\n", (unsigned long long)req->features, which);
		break;
	case OP_IBLOCK:
		emu_respond(r, "ok iblock %s on %s\n", req->iblock ? "on" : "off", which);
		break;
	case OP_ADVANCE:
		emu_respond(r, "ok advanced %s by %llu s\n", which, req->seconds);
		break;
	default:
		emu_respond(r, "ok %s %s\n", socket_commands[req->op], which);
		break;
	}
}

static void cmd_on_sockets(struct emu_control_target *t, enum socket_op op,
			   int argc, char **argv, struct emu_response *r)
{
	struct socket_request req = { .op = op };
	struct socket_range range;
	char msg[256], which[32];

	if (argc < 2) {
		snprintf(msg, sizeof(msg), "%s: no SOCKET given", argv[0]);
		emu_respond_error(r, EINVAL, msg);
		return;
	}
	if (!parse_socket_request(argc, argv, &req, r) || !parse_sockets(t, argv[1], &range, r))
		return;

	for (unsigned int s = range.first; s <= range.last; s++) {
		int ret = apply_socket_request(t, s, &req);

		if (ret) {
			snprintf(msg, sizeof(msg), "%s socket %u: %s", argv[0], s, strerror(-ret));
			emu_respond_error(r, -ret, msg);
			return;
		}
	}
	describe_range(&range, which, sizeof(which));
	respond_done(&req, which, r);
}

char *emu_control_execute(struct emu_control_target *t, const char *request)
{
	struct emu_response r = { 0 };
	char *copy = strdup(request), *save = NULL, *word;
	char *argv[MAX_WORDS];
	int argc = 0;

	if (!copy)
		return NULL;
	for (word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		if (argc == MAX_WORDS) {
			emu_respond_error(&r, E2BIG, "too many words in the request");
			goto out;
		}
		argv[argc++] = word;
	}
	if (argc == 0) {
		emu_respond_error(&r, EINVAL, "empty request");
		goto out;
	}
	if (strcmp(argv[0], "status") == 0) {
		emu_control_status(t, argc, argv, &r);
		goto out;
	}
	for (size_t i = 0; i < sizeof(socket_commands) / sizeof(socket_commands[0]); i++) {
		if (strcmp(argv[0], socket_commands[i]) == 0) {
			cmd_on_sockets(t, (enum socket_op)i, argc, argv, &r);
			goto out;
		}
	}
	{
		char msg[160];

		snprintf(msg, sizeof(msg), "unknown command '%.64s' (status, power-cycle, fault, clear, unbind, bind, features, iblock, advance)",
			 argv[0]);
		emu_respond_error(&r, EINVAL, msg);
	}
out:
	free(copy);
	return emu_response_take(&r);
}

void emu_control_target_init(struct emu_control_target *t, struct sdsi_fusedrv *drv,
			     struct sdsi_model **models,
			     struct emu_model_clock *clocks, unsigned int nsockets,
			     const char *tree)
{
	memset(t, 0, sizeof(*t));
	t->drv = drv;
	t->models = models;
	t->clocks = clocks;
	t->nsockets = nsockets;
	t->tree = tree;
}
