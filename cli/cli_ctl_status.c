// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl status: each socket as one JSON object on a line, built with json-c;
 * and the walk over the sockets that every report takes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sdsi/hw.h"
#include "cli_ctl.h"

/* Registers and faults of one socket, read between transactions. */
struct socket_snapshot {
	uint32_t guid;
	uint64_t ppin;
	struct sdsi_fault_state faults[SDSI_FAULT_KIND_COUNT];
	uint64_t violations;
	uint64_t spdm_errors;
};

static int snapshot(struct sdsi_model *m, void *arg)
{
	struct socket_snapshot *snap = arg;
	uint32_t regs;

	snap->guid = sdsi_model_guid(m);
	regs = sdsi_layout_regs_offset(sdsi_guid_layout_or_v1(snap->guid));
	snap->ppin = sdsi_model_peek64(m, regs + SDSI_REG_PPIN);
	snap->violations = sdsi_model_violation_count(m);
	snap->spdm_errors = sdsi_model_spdm_errors(m);
	for (int k = 0; k < SDSI_FAULT_KIND_COUNT; k++)
		sdsi_model_fault_get(m, (enum sdsi_fault_kind)k, &snap->faults[k]);
	return 0;
}

/* "0x..." with at least digits hex digits: JSON numbers lose 64-bit values. */
json_object *cli_json_hex(unsigned long long v, int digits)
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

static json_object *socket_object(const struct cli_ctl_sockets *b, unsigned int s,
				  const void *record)
{
	const struct socket_snapshot *snap = record;
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "socket", json_object_new_int64(s));
	json_object_object_add(o, "guid", cli_json_hex(snap->guid, 1));
	if (b->bound)
		json_object_object_add(o, "bound", json_object_new_boolean(b->bound(b->ctx, s) > 0));
	json_object_object_add(o, "ppin", cli_json_hex(snap->ppin, 16));
	json_object_object_add(o, "faults", faults_array(snap));
	/* A requester's SPDM misuse, answered with an ERROR: not the mailbox's. */
	json_object_object_add(o, "spdm_errors",
			       json_object_new_int64((int64_t)snap->spdm_errors));
	json_object_object_add(o, "protocol_violations",
			       json_object_new_int64((int64_t)snap->violations));
	return o;
}

void cli_ctl_report_lines(const struct cli_ctl_sockets *b, unsigned int first,
			 unsigned int last, const struct cli_ctl_report *report,
			 struct cli_reply *r)
{
	void *record = malloc(report->size);

	r->data = true;
	if (!record) {
		r->failed = true;
		return;
	}
	for (unsigned int s = first; s <= last; s++) {
		json_object *o;
		int ret;

		memset(record, 0, report->size);
		ret = b->with_model(b->ctx, s, false, report->take, record);
		if (ret) {
			cli_reply_error(r, -ret, "%s socket %u: %s", report->what, s,
				       strerror(-ret));
			break;
		}
		o = report->describe(b, s, record);
		if (!o) {
			r->failed = true;
			break;
		}
		cli_reply_add(r, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
	free(record);
}

const struct cli_ctl_report cli_ctl_status = {
	"status", snapshot, sizeof(struct socket_snapshot), socket_object,
};
