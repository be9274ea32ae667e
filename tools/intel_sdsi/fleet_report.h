/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The result of a fleet provisioning run (intel_sdsi --all -a / -c): one
 * entry per socket in device order, one per blob tried on it, and the files
 * of the source.  cmd_fleet.c fills it and prints it through the output's
 * fleet operation (output.h): output_fleet.c as text, output_json.c as one
 * JSON document.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_FLEET_REPORT_H
#define SDSI_TOOLS_INTEL_SDSI_FLEET_REPORT_H

#include "cap_match.h"
#include "tool_options.h"
#include "output.h"

/* What became of one blob on one socket; the words are those of the JSON. */
enum blob_outcome {
	BLOB_WRITTEN,		/* "written": pre-flight passed, the write succeeded */
	BLOB_UNCHANGED,		/* "unchanged": already provisioned, nothing written */
	BLOB_PLANNED,		/* "planned": --dry-run, would be written */
	BLOB_REFUSED,		/* "refused": a pre-flight check failed, nothing written */
	BLOB_FAILED,		/* "failed": the write failed (rejected, busy, ...) */
	BLOB_SKIPPED,		/* "skipped": not tried, an earlier blob failed */
};

/* What became of one socket. */
enum socket_outcome {
	SOCKET_PROVISIONED,	/* "provisioned": at least one blob written, none failed */
	SOCKET_PLANNED,		/* "planned": --dry-run, at least one blob would be written */
	SOCKET_UNCHANGED,	/* "unchanged": every blob for it already provisioned */
	SOCKET_NO_MATCH,	/* "no_match": no CAP bound to its PPIN */
	SOCKET_FAILED,		/* "failed" */
};

struct blob_result {
	size_t file;			/* index in the blob set */
	enum blob_outcome outcome;
	struct sdsi_preflight *pf;	/* checks made (none when skipped) */
	struct sdsi_error *err;		/* refused or failed: why */
};

struct socket_result {
	struct sdsi_device *dev;
	bool have_regs;
	struct sdsi_registers regs;	/* as first read, PPIN included */
	bool failed;			/* the socket itself: err says why */
	struct sdsi_error *err;
	struct sdsi_error *state_warning;	/* errno set: state certificate unreadable */
	size_t nblobs;
	struct blob_result *blobs;	/* in file name order */
	enum socket_outcome outcome;
};

struct fleet_report {
	const struct cli *cli;
	const struct blob_set *set;
	struct socket_result *sockets;
	size_t count;
	size_t totals[SOCKET_FAILED + 1];	/* sockets per outcome */
};

const char *blob_outcome_name(enum blob_outcome outcome);
const char *socket_outcome_name(enum socket_outcome outcome);

/* The error a socket's result carries, or NULL when it did not fail. */
const struct sdsi_error *socket_error(const struct socket_result *s);

/* Whether the blobs tried on socket s include file i of the set. */
bool socket_tried_file(const struct socket_result *s, size_t file);

/*
 * Whether a CAP run leaves something unmatched: a file of the source no
 * socket used (a CAP bound to a PPIN no socket has, a file that cannot be
 * used), the source directory empty, or, for a directory, a socket without
 * a CAP.  Such a run ends with exit 5 once the rest is done.
 */
bool fleet_unmatched(const struct fleet_report *report);

/* Whether file i of the set was tried on some socket. */
bool fleet_file_used(const struct fleet_report *report, size_t file);

/* Failures, warnings (and notes when verbose), unusable files: on stderr. */
void fleet_diagnose(const struct output *out, const struct fleet_report *report);

/* text_output_ops' fleet (output_fleet.c). */
void print_fleet_text(struct output *out, const struct fleet_report *report);

#endif /* SDSI_TOOLS_INTEL_SDSI_FLEET_REPORT_H */
