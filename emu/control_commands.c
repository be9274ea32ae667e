// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sdsi/hw.h"
#include "control_commands.h"

#define MAX_WORDS	8

struct response {
	char *text;
	size_t len;
	bool failed;		/* out of memory */
};

__attribute__((format(printf, 2, 3)))
static void respond(struct response *r, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		r->failed = true;
		return;
	}
	char *bigger = realloc(r->text, r->len + (size_t)n + 1);

	if (!bigger) {
		r->failed = true;
		free(line);
		return;
	}
	memcpy(bigger + r->len, line, (size_t)n + 1);
	r->text = bigger;
	r->len += (size_t)n;
	free(line);
}

static void respond_error(struct response *r, int err, const char *what)
{
	const char *name = strerrorname_np(err);

	respond(r, "error %s: %s\n", name ? name : "EIO", what);
}

/* Sockets a command applies to: [first, last]. */
struct socket_range {
	unsigned int first, last;
};

static bool parse_sockets(struct emu_control_target *t, const char *word,
			  struct socket_range *range, struct response *r)
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
		respond_error(r, ENODEV, msg);
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

static bool socket_bound(struct emu_control_target *t, unsigned int socket)
{
	char path[4096];
	struct stat st;

	/* The driver link exists exactly while the socket is bound, however it
	 * was unbound (here or through drivers/intel_sdsi/unbind). */
	snprintf(path, sizeof(path), "%s/devices/intel_vsec.sdsi.%u/driver", t->tree, socket);
	return lstat(path, &st) == 0;
}

static int read_ppin(struct sdsi_model *m, void *arg)
{
	uint32_t ctrl = sdsi_model_guid(m) == SDSI_GUID_V1 ? SDSI_CTRL_SIZE_V1 : SDSI_CTRL_SIZE_V2;

	*(uint64_t *)arg = sdsi_model_read64(m, ctrl + SDSI_MBOX_SIZE + SDSI_REG_PPIN);
	return 0;
}

static void cmd_status(struct emu_control_target *t, int argc, char **argv,
		       struct response *r)
{
	if (argc != 1) {
		respond_error(r, EINVAL, "usage: status");
		return;
	}
	for (unsigned int i = 0; i < t->nsockets; i++) {
		uint64_t ppin = 0;
		bool first = true;

		sdsi_fusedrv_with_socket(t->drv, i, false, read_ppin, &ppin);
		respond(r, "{\"socket\":%u,\"guid\":\"0x%x\",\"bound\":%s,\"ppin\":\"0x%016llx\",\"faults\":[",
			i, (unsigned int)sdsi_model_guid(t->models[i]),
			socket_bound(t, i) ? "true" : "false", (unsigned long long)ppin);
		pthread_mutex_lock(&t->faults_lock);
		for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++) {
			const struct emu_fault_record *f = &t->faults[i][k];

			if (!f->armed)
				continue;
			respond(r, "%s{\"kind\":\"%s\",\"count\":%u,\"param\":%u}", first ? "" : ",",
				sdsi_fault_name((enum sdsi_fault_kind)k), f->count, f->param);
			first = false;
		}
		pthread_mutex_unlock(&t->faults_lock);
		respond(r, "]}\n");
	}
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

struct fault_request {
	enum sdsi_fault_kind kind;
	bool all;		/* clear: every kind */
	uint32_t param;
	unsigned int count;
};

static int apply_fault_set(struct sdsi_model *m, void *arg)
{
	const struct fault_request *f = arg;

	return sdsi_model_fault_set(m, f->kind, f->param, f->count);
}

static int apply_fault_clear(struct sdsi_model *m, void *arg)
{
	const struct fault_request *f = arg;

	if (f->all)
		sdsi_model_fault_clear_all(m);
	else
		sdsi_model_fault_clear(m, f->kind);
	return 0;
}

static bool parse_fault_kind(const char *word, enum sdsi_fault_kind *kind,
			     struct response *r)
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
	respond_error(r, EINVAL, msg);
	return false;
}

/* fault SOCKET KIND [--count N] [--param N] */
static bool parse_fault(int argc, char **argv, struct fault_request *f, struct response *r)
{
	unsigned long long v;
	char msg[128];

	if (argc < 3) {
		respond_error(r, EINVAL, "usage: fault SOCKET KIND [--count N] [--param N]");
		return false;
	}
	if (!parse_fault_kind(argv[2], &f->kind, r))
		return false;
	for (int i = 3; i < argc; i += 2) {
		bool count = strcmp(argv[i], "--count") == 0;

		if (!count && strcmp(argv[i], "--param") != 0) {
			snprintf(msg, sizeof(msg), "fault: unknown option '%s' (--count N, --param N)",
				 argv[i]);
			respond_error(r, EINVAL, msg);
			return false;
		}
		if (i + 1 >= argc || !emu_parse_uint(argv[i + 1], 0, UINT32_MAX, &v)) {
			snprintf(msg, sizeof(msg), "fault: %s needs a number from 0 to 4294967295",
				 argv[i]);
			respond_error(r, EINVAL, msg);
			return false;
		}
		if (count)
			f->count = (unsigned int)v;
		else
			f->param = (uint32_t)v;
	}
	return true;
}

static void record_fault(struct emu_control_target *t, unsigned int socket,
			 const struct fault_request *f, bool armed)
{
	pthread_mutex_lock(&t->faults_lock);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++) {
		struct emu_fault_record *rec = &t->faults[socket][k];

		if (!f->all && k != (int)f->kind)
			continue;
		rec->armed = armed;
		rec->param = armed ? f->param : 0;
		rec->count = armed ? f->count : 0;
	}
	pthread_mutex_unlock(&t->faults_lock);
}

/* The commands that take SOCKET as their first argument. */
static void cmd_on_sockets(struct emu_control_target *t, int argc, char **argv,
			   struct response *r)
{
	const char *cmd = argv[0];
	struct socket_range range;
	struct fault_request fault = { 0 };
	uint64_t features = 0;
	bool iblock = false;
	char msg[256], which[32];
	int ret = 0;

	if (argc < 2) {
		snprintf(msg, sizeof(msg), "%s: no SOCKET given", cmd);
		respond_error(r, EINVAL, msg);
		return;
	}
	if (strcmp(cmd, "fault") == 0) {
		if (!parse_fault(argc, argv, &fault, r))
			return;
	} else if (strcmp(cmd, "clear") == 0) {
		if (argc > 3) {
			respond_error(r, EINVAL, "usage: clear SOCKET [KIND]");
			return;
		}
		fault.all = argc == 2;
		if (!fault.all && !parse_fault_kind(argv[2], &fault.kind, r))
			return;
	} else if (strcmp(cmd, "features") == 0) {
		if (argc != 3) {
			respond_error(r, EINVAL, "usage: features SOCKET LIST");
			return;
		}
		if (emu_parse_features(argv[2], &features, msg, sizeof(msg))) {
			respond_error(r, EINVAL, msg);
			return;
		}
	} else if (strcmp(cmd, "iblock") == 0) {
		if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
			respond_error(r, EINVAL, "usage: iblock SOCKET on|off");
			return;
		}
		iblock = strcmp(argv[2], "on") == 0;
	} else if (argc != 2) {
		snprintf(msg, sizeof(msg), "usage: %s SOCKET", cmd);
		respond_error(r, EINVAL, msg);
		return;
	}
	if (!parse_sockets(t, argv[1], &range, r))
		return;

	for (unsigned int s = range.first; s <= range.last && ret == 0; s++) {
		if (strcmp(cmd, "power-cycle") == 0)
			ret = sdsi_fusedrv_with_socket(t->drv, s, true, apply_power_cycle, NULL);
		else if (strcmp(cmd, "fault") == 0)
			ret = sdsi_fusedrv_with_socket(t->drv, s, false, apply_fault_set, &fault);
		else if (strcmp(cmd, "clear") == 0)
			ret = sdsi_fusedrv_with_socket(t->drv, s, false, apply_fault_clear, &fault);
		else if (strcmp(cmd, "features") == 0)
			ret = sdsi_fusedrv_with_socket(t->drv, s, true, apply_features, &features);
		else if (strcmp(cmd, "iblock") == 0)
			ret = sdsi_fusedrv_with_socket(t->drv, s, false, apply_iblock, &iblock);
		else if (strcmp(cmd, "bind") == 0)
			ret = sdsi_fusedrv_bind(t->drv, s);
		else
			ret = sdsi_fusedrv_unbind(t->drv, s);
		if (ret == 0 && (strcmp(cmd, "fault") == 0 || strcmp(cmd, "clear") == 0))
			record_fault(t, s, &fault, strcmp(cmd, "fault") == 0);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s socket %u: %s", cmd, s, strerror(-ret));
			respond_error(r, -ret, msg);
			return;
		}
	}

	describe_range(&range, which, sizeof(which));
	if (strcmp(cmd, "fault") == 0)
		respond(r, "ok fault %s armed on %s (count %u, param %u)\n",
			sdsi_fault_name(fault.kind), which, fault.count, fault.param);
	else if (strcmp(cmd, "clear") == 0)
		respond(r, "ok cleared %s on %s\n",
			fault.all ? "every fault" : sdsi_fault_name(fault.kind), which);
	else if (strcmp(cmd, "features") == 0)
		respond(r, "ok features 0x%llx on %s\n", (unsigned long long)features, which);
	else if (strcmp(cmd, "iblock") == 0)
		respond(r, "ok iblock %s on %s\n", iblock ? "on" : "off", which);
	else
		respond(r, "ok %s %s\n", cmd, which);
}

static const char *const socket_commands[] = {
	"power-cycle", "fault", "clear", "unbind", "bind", "features", "iblock",
};

char *emu_control_execute(struct emu_control_target *t, const char *request)
{
	struct response r = { 0 };
	char *copy = strdup(request), *save = NULL, *word;
	char *argv[MAX_WORDS];
	int argc = 0;

	if (!copy)
		return NULL;
	for (word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		if (argc == MAX_WORDS) {
			respond_error(&r, E2BIG, "too many words in the request");
			goto out;
		}
		argv[argc++] = word;
	}
	if (argc == 0) {
		respond_error(&r, EINVAL, "empty request");
		goto out;
	}
	if (strcmp(argv[0], "status") == 0) {
		cmd_status(t, argc, argv, &r);
		goto out;
	}
	for (size_t i = 0; i < sizeof(socket_commands) / sizeof(socket_commands[0]); i++) {
		if (strcmp(argv[0], socket_commands[i]) == 0) {
			cmd_on_sockets(t, argc, argv, &r);
			goto out;
		}
	}
	{
		char msg[160];

		snprintf(msg, sizeof(msg), "unknown command '%.64s' (status, power-cycle, fault, clear, unbind, bind, features, iblock)",
			 argv[0]);
		respond_error(&r, EINVAL, msg);
	}
out:
	free(copy);
	if (r.failed) {
		free(r.text);
		return NULL;
	}
	return r.text;
}

void emu_control_target_init(struct emu_control_target *t, struct sdsi_fusedrv *drv,
			     struct sdsi_model **models, unsigned int nsockets,
			     const char *tree, uint32_t rdy_latency_us)
{
	memset(t, 0, sizeof(*t));
	t->drv = drv;
	t->models = models;
	t->nsockets = nsockets;
	t->tree = tree;
	pthread_mutex_init(&t->faults_lock, NULL);
	for (unsigned int i = 0; i < nsockets && rdy_latency_us; i++) {
		t->faults[i][SDSI_FAULT_RDY_LATENCY].armed = true;
		t->faults[i][SDSI_FAULT_RDY_LATENCY].param = rdy_latency_us;
	}
}

void emu_control_target_fini(struct emu_control_target *t)
{
	pthread_mutex_destroy(&t->faults_lock);
}
