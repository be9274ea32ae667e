/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One table of print operations per output format (text, JSON, Prometheus):
 * every command and every error goes through it, so --format covers everything.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_OUTPUT_H
#define SDSI_TOOLS_INTEL_SDSI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "sdsi/libsdsi.h"

struct output;
struct fleet_report;

struct provision_report {
	const char *device;		/* intel_vsec.sdsi.N */
	const char *attr_path;		/* .../provision_akc */
	const char *blob_path;		/* the file given to -a / -c */
	enum sdsi_blob_kind kind;
	size_t bytes;
	bool dry_run;
	bool written;			/* the provision file was written */
	/* The decoded blob and every check's result. */
	const struct sdsi_preflight *preflight;
};

/* --attest verify on one device: the verdict and what it was verified against. */
struct attest_report {
	const char *device;			/* intel_vsec.sdsi.N */
	const char *trust;			/* --trust, or the default directory */
	const struct sdsi_attest_verdict *verdict;
};

struct output_ops {
	/* --all: results of several devices follow, in device order. */
	void (*begin_all)(struct output *out);
	void (*end_all)(struct output *out);
	void (*devices)(struct output *out, struct sdsi_device *const *devs, size_t count);
	/* device is NULL when decoding a --file. */
	void (*info)(struct output *out, const char *device, const struct sdsi_registers *regs);
	void (*state)(struct output *out, const char *device, const struct sdsi_state_cert *cert);
	void (*meter)(struct output *out, const char *device, const struct sdsi_meter_cert *cert,
		      bool current);
	void (*provisioned)(struct output *out, const struct provision_report *report);
	/* A pre-flight refusal: the error, with the decoded blob and the checks. */
	void (*refused)(struct output *out, const struct provision_report *report,
			const struct sdsi_error *err);
	void (*error)(struct output *out, const char *device, const struct sdsi_error *err);
	/*
	 * --all -a / -c: the fleet provisioning report (fleet_report.h); NULL
	 * for an output that provisioning refuses (Prometheus, tool_options.c).
	 */
	void (*fleet)(struct output *out, const struct fleet_report *report);
	/*
	 * --attest verify: one device's verdict, attested or not.
	 */
	void (*attestation)(struct output *out, const struct attest_report *report);
	/*
	 * Optional (NULL: not called): the registers -s, -m and -C read before
	 * the certificate, for outputs that label every value with the socket.
	 */
	void (*registers)(struct output *out, const char *device,
			  const struct sdsi_registers *regs);
	/*
	 * Optional (NULL: a part that lacks the data is a refusal): whether the
	 * socket offers the data of -s, -m or -C, for outputs that monitor a
	 * fleet of mixed parts; a part without it is then healthy, not failed.
	 */
	void (*data_available)(struct output *out, const char *device, bool available);
};

/*
 * The nine callbacks every output has, from functions named PREFIX_begin_all
 * ... PREFIX_error: an output that forgets one fails to compile, and the
 * three tables cannot drift apart.  The optional ones follow it by hand.
 */
#define OUTPUT_OPS_REQUIRED(prefix)				\
	.begin_all = prefix##_begin_all, .end_all = prefix##_end_all,	\
	.devices = prefix##_devices, .info = prefix##_info,		\
	.state = prefix##_state, .meter = prefix##_meter,		\
	.provisioned = prefix##_provisioned,				\
	.refused = prefix##_refused, .error = prefix##_error

struct output {
	const struct output_ops *ops;
	bool quiet;
	bool verbose;
	bool in_all;
	const char *file;	/* --file PATH, named by text headers */
	/*
	 * What an error document names when the failure is not about an opened
	 * device: the AKC or CAP of -a/-c, the device -d asked for (its sysfs
	 * name, intel_vsec.sdsi.N), each NULL when none.
	 */
	const char *error_file;
	const char *error_device;
	void *json_all;		/* JSON mode: the list collecting --all results */
	const char *command;	/* "info", "state", ...: the long option run */
	void *prom;		/* Prometheus mode: the samples collected so far */
	/*
	 * A complete document was printed although the status may not be 0:
	 * --all's (every device's result, failures included) or an attestation
	 * verdict (a part that failed attestation is a result, not a failure
	 * to run); --output writes it whatever the status.
	 */
	bool complete_document;
};

extern const struct output_ops text_output_ops;
extern const struct output_ops json_output_ops;
extern const struct output_ops prometheus_output_ops;

/* Diagnostics on stderr: warnings unless quiet, notes only when verbose. */
void out_warn(const struct output *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void out_note(const struct output *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * An error message on stderr, "intel_sdsi: MESSAGE", with the control
 * characters of the file names it holds escaped (util/util_escape.h).
 */
void out_error_message(const char *message);

/*
 * The sysfs name of the device -d DEVNO asks for (intel_vsec.sdsi.N) in buf,
 * for out->error_device; NULL when DEVNO is no device number.
 */
const char *requested_device(const char *devno, char *buf, size_t size);


#endif /* SDSI_TOOLS_INTEL_SDSI_OUTPUT_H */
