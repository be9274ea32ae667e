// SPDX-License-Identifier: GPL-2.0-only
/* ctl status: each socket as one JSON object on a line, built with json-c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "sdsi/hw.h"
#include "fe_ctl.h"

/* Registers and faults of one socket, read between transactions. */
struct socket_snapshot {
	uint32_t guid;
	uint64_t ppin;
	struct sdsi_fault_state faults[SDSI_FAULT_KIND_COUNT];
	uint64_t violations;
};

static int snapshot(struct sdsi_model *m, void *arg)
{
	struct socket_snapshot *snap = arg;
	uint32_t regs;

	snap->guid = sdsi_model_guid(m);
	regs = sdsi_layout_regs_offset(sdsi_guid_layout_or_v1(snap->guid));
	snap->ppin = sdsi_model_peek64(m, regs + SDSI_REG_PPIN);
	snap->violations = sdsi_model_violation_count(m);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++)
		sdsi_model_fault_get(m, (enum sdsi_fault_kind)k, &snap->faults[k]);
	return 0;
}

/* "0x..." with at least digits hex digits: JSON numbers lose 64-bit values. */
json_object *fe_json_hex(unsigned long long v, int digits)
{
	char text[32];

	snprintf(text, sizeof(text), "0x%0*llx", digits, v);
	return json_object_new_string(text);
}

static json_object *faults_array(const struct socket_snapshot *snap)
{
	json_object *faults = json_object_new_array();

	for (int k = 0; k < SDSI_FAULT_KIND_COUNT && faults; k++) {
		const struct sdsi_fault_state *f = &snap->faults[k];
		json_object *o;

		if (!f->armed)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "kind", json_object_new_string(
			sdsi_fault_name((enum sdsi_fault_kind)k)));
		json_object_object_add(o, "remaining", json_object_new_int64(f->remaining));
		json_object_object_add(o, "param", json_object_new_int64(f->param));
		json_object_array_add(faults, o);
	}
	return faults;
}

static json_object *socket_object(const struct fe_ctl_backend *b, unsigned int s,
				  const struct socket_snapshot *snap)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "socket", json_object_new_int64(s));
	json_object_object_add(o, "guid", fe_json_hex(snap->guid, 1));
	if (b->bound)
		json_object_object_add(o, "bound", json_object_new_boolean(b->bound(b->ctx, s) > 0));
	json_object_object_add(o, "ppin", fe_json_hex(snap->ppin, 16));
	json_object_object_add(o, "faults", faults_array(snap));
	json_object_object_add(o, "protocol_violations",
			       json_object_new_int64((int64_t)snap->violations));
	return o;
}

void fe_ctl_status(const struct fe_ctl_backend *b, unsigned int first,
		   unsigned int last, struct fe_reply *r)
{
	r->data = true;
	for (unsigned int s = first; s <= last; s++) {
		struct socket_snapshot snap = { 0 };
		json_object *o;
		int ret = b->with_model(b->ctx, s, false, snapshot, &snap);

		if (ret) {
			fe_reply_error(r, -ret, "status socket %u: %s", s, strerror(-ret));
			return;
		}
		o = socket_object(b, s, &snap);
		if (!o) {
			r->failed = true;
			return;
		}
		fe_reply_add(r, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
}
