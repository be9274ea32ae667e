// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl violations: what the model recorded of the driver's accesses that the
 * mailbox protocol does not allow (docs/protocol-rules.md).  One JSON object
 * per socket and line, so that a socket without any still answers:
 *
 *   {"socket":0,"protocol_violations":2,"kept":[{"seq":1,"rule":"cpl-twice",
 *    "text":"...","access":"write","offset":"0x0","register":"control",
 *    "value":"0x0000000000000040","time_ns":123}, ...]}
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "sdsi/hw.h"
#include "cli_ctl.h"

struct socket_record {
	uint32_t guid;
	uint64_t count;
	unsigned int kept;
	struct sdsi_violation v[SDSI_MODEL_VIOLATIONS_KEPT];
};

static int take_record(struct sdsi_model *m, void *arg)
{
	struct socket_record *rec = arg;

	rec->guid = sdsi_model_guid(m);
	rec->count = sdsi_model_violation_count(m);
	rec->kept = sdsi_model_violations(m, rec->v, SDSI_MODEL_VIOLATIONS_KEPT);
	return 0;
}

/* The register an offset falls in, by the socket's layout (§2.3). */
static void register_name(uint32_t guid, uint32_t offset, char *out, size_t len)
{
	unsigned int layout = sdsi_guid_layout_or_v1(guid);
	uint32_t ctrl = sdsi_layout_ctrl_size(layout);
	uint32_t regs = ctrl + SDSI_MBOX_SIZE;

	if (offset < ctrl)
		snprintf(out, len, offset ? "control+0x%x" : "control", offset);
	else if (offset < regs)
		snprintf(out, len, "mailbox+0x%x", offset - ctrl);
	else if (offset < regs + sdsi_layout_regs_size(layout))
		snprintf(out, len, "registers+0x%x", offset - regs);
	else
		snprintf(out, len, "outside");
}

static json_object *violation_object(uint32_t guid, const struct sdsi_violation *v)
{
	json_object *o = json_object_new_object();
	char reg[32];

	if (!o)
		return NULL;
	register_name(guid, v->offset, reg, sizeof(reg));
	json_object_object_add(o, "seq", json_object_new_int64((int64_t)v->seq));
	json_object_object_add(o, "rule", json_object_new_string(sdsi_rule_id(v->rule)));
	json_object_object_add(o, "text", json_object_new_string(sdsi_rule_text(v->rule)));
	json_object_object_add(o, "access", json_object_new_string(v->write ? "write" : "read"));
	json_object_object_add(o, "offset", cli_json_hex(v->offset, 1));
	json_object_object_add(o, "register", json_object_new_string(reg));
	json_object_object_add(o, "value", cli_json_hex(v->value, 16));
	json_object_object_add(o, "time_ns", json_object_new_int64((int64_t)v->time_ns));
	return o;
}

static json_object *socket_object(const struct cli_ctl_sockets *b, unsigned int s,
				  const void *record)
{
	const struct socket_record *rec = record;
	json_object *o = json_object_new_object(), *kept = json_object_new_array();

	if (!o || !kept) {
		json_object_put(o);
		json_object_put(kept);
		return NULL;
	}
	json_object_object_add(o, "socket", json_object_new_int64(s));
	json_object_object_add(o, "protocol_violations", json_object_new_int64((int64_t)rec->count));
	for (unsigned int i = 0; i < rec->kept; i++)
		json_object_array_add(kept, violation_object(rec->guid, &rec->v[i]));
	json_object_object_add(o, "kept", kept);
	return o;
}

const struct cli_ctl_report cli_ctl_violations = {
	"violations", take_record, sizeof(struct socket_record), socket_object,
};
