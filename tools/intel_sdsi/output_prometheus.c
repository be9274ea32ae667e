// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prometheus text exposition format 0.0.4.  Samples are collected per metric
 * family and printed at the end (of the one device, or of --all), so that
 * every family appears once, with its HELP and TYPE, whatever the number of
 * sockets.  A device that fails becomes sdsi_up 0 and sdsi_scrape_error 1:
 * the file stays well formed.  A part that lacks the data (a V1 socket
 * without metering asked for -C, a part without attestation asked for
 * --attest verify) is no failure: sdsi_data_available 0.  Each value is
 * labelled with the device, and
 * with the socket ID and PPIN from the registers read before it.  Hex label
 * values and licence type names are those of the JSON contract
 * (docs/schema/README.md), so the two can be joined.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sdsi/license_type.h"
#include "prom_metrics.h"

#define LABELS_MAX 1024

struct sample {
	char *labels;		/* name="value",... escaped, without braces */
	char value[32];
};

struct family_samples {
	struct sample *s;
	size_t n, cap;
};

/* The socket ID and PPIN of a device, from its registers. */
struct socket_labels {
	char device[64];
	char labels[LABELS_MAX];	/* a whole struct labels, never cut short */
};

struct prom_state {
	struct family_samples fam[PROM_FAMILY_COUNT];
	struct socket_labels *sockets;
	size_t num_sockets;
};

struct labels {
	char text[LABELS_MAX];
	size_t len;
};

/* Label values escape backslash, double quote and newline (format 0.0.4). */
static void label(struct labels *l, const char *name, const char *value)
{
	char esc[2 * 256 + 1], *p = esc;

	for (; *value && p < esc + sizeof(esc) - 2; value++) {
		if (*value == '\\' || *value == '"' || *value == '\n') {
			*p++ = '\\';
			*p++ = *value == '\n' ? 'n' : *value;
		} else {
			*p++ = *value;
		}
	}
	*p = '\0';
	l->len += (size_t)snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s%s=\"%s\"",
				   l->len ? "," : "", name, esc);
	if (l->len >= sizeof(l->text))
		l->len = sizeof(l->text) - 1;	/* values are short: never reached */
}

static void label_uint(struct labels *l, const char *name, uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	label(l, name, text);
}

/* PPINs, licence IDs (width 16) and GUIDs (8) as the JSON contract writes them. */
static void label_hex(struct labels *l, const char *name, uint64_t value, int width)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%0*" PRIx64, width, value);
	label(l, name, text);
}

static struct prom_state *state_of(struct output *out)
{
	if (!out->prom) {
		out->prom = calloc(1, sizeof(struct prom_state));
		if (!out->prom) {
			fprintf(stderr, "intel_sdsi: out of memory\n");
			exit(1);
		}
	}
	return out->prom;
}

/* One sample; a label set already in the family is a duplicate and dropped. */
static void add(struct output *out, enum prom_family_id id, const struct labels *l,
		const char *value)
{
	struct family_samples *f = &state_of(out)->fam[id];

	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->s[i].labels, l->text)) {
			out_warn(out, "%s{%s}: a second value for the same labels, not printed",
				 prom_families[id].name, l->text);
			return;
		}
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		struct sample *s = realloc(f->s, cap * sizeof(*s));

		if (!s) {
			fprintf(stderr, "intel_sdsi: out of memory\n");
			exit(1);
		}
		f->s = s;
		f->cap = cap;
	}
	f->s[f->n].labels = strdup(l->text);
	if (!f->s[f->n].labels) {
		fprintf(stderr, "intel_sdsi: out of memory\n");
		exit(1);
	}
	snprintf(f->s[f->n].value, sizeof(f->s[f->n].value), "%s", value);
	f->n++;
}

static void add_uint(struct output *out, enum prom_family_id id, const struct labels *l,
		     uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	add(out, id, l, text);
}

/* count units of unit_ms milliseconds, in seconds, exactly (no float rounding). */
static void add_seconds(struct output *out, enum prom_family_id id, const struct labels *l,
			uint32_t count, uint32_t unit_ms)
{
	const uint64_t ms = (uint64_t)count * unit_ms;
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64 ".%03u", ms / 1000, (unsigned int)(ms % 1000));
	add(out, id, l, text);
}

/* Print every family that has samples, in table order, and forget them. */
static void flush(struct output *out)
{
	struct prom_state *st = state_of(out);

	for (int id = 0; id < PROM_FAMILY_COUNT; id++) {
		struct family_samples *f = &st->fam[id];

		if (!f->n)
			continue;
		printf("# HELP %s %s\n# TYPE %s %s\n", prom_families[id].name,
		       prom_families[id].help, prom_families[id].name, prom_families[id].type);
		for (size_t i = 0; i < f->n; i++) {
			printf("%s{%s} %s\n", prom_families[id].name, f->s[i].labels,
			       f->s[i].value);
			free(f->s[i].labels);
		}
		free(f->s);
		memset(f, 0, sizeof(*f));
	}
	free(st->sockets);
	free(st);
	out->prom = NULL;
}

static void done(struct output *out)
{
	if (!out->in_all)
		flush(out);
}

/* device, socket and ppin: the labels of every value of a device. */
static void socket_base(struct labels *l, const char *device, unsigned int socket_id,
			uint64_t ppin)
{
	l->len = 0;
	l->text[0] = '\0';
	label(l, "device", device);
	label_uint(l, "socket", socket_id);
	label_hex(l, "ppin", ppin, 16);
}

static void prom_registers(struct output *out, const char *device,
			   const struct sdsi_registers *r)
{
	struct prom_state *st = state_of(out);
	struct socket_labels *s = realloc(st->sockets, (st->num_sockets + 1) * sizeof(*s));
	struct labels l;

	if (!s) {
		fprintf(stderr, "intel_sdsi: out of memory\n");
		exit(1);
	}
	st->sockets = s;
	s += st->num_sockets++;
	socket_base(&l, device, r->socket_id, r->ppin);
	snprintf(s->device, sizeof(s->device), "%s", device);
	snprintf(s->labels, sizeof(s->labels), "%s", l.text);
}

/* The base labels of a device whose registers were seen, else device alone. */
static void base_of(struct output *out, const char *device, struct labels *l)
{
	struct prom_state *st = state_of(out);

	for (size_t i = st->num_sockets; i-- > 0;) {
		if (!strcmp(st->sockets[i].device, device)) {
			l->len = (size_t)snprintf(l->text, sizeof(l->text), "%s",
						  st->sockets[i].labels);
			return;
		}
	}
	l->len = 0;
	l->text[0] = '\0';
	label(l, "device", device);
}

static void up(struct output *out, const char *device, bool ok)
{
	struct labels l = { .len = 0 };

	label(&l, "command", out->command);
	label(&l, "device", device ? device : "");
	add(out, PROM_UP, &l, ok ? "1" : "0");
}

/* A labelled 0/1 (kind="akc", ...) on top of the base labels. */
static void flag(struct output *out, enum prom_family_id id, const struct labels *base,
		 const char *name, const char *value, bool set)
{
	struct labels l = *base;

	if (name)
		label(&l, name, value);
	add(out, id, &l, set ? "1" : "0");
}

static void prom_info(struct output *out, const char *device, const struct sdsi_registers *r)
{
	struct labels base, l;

	socket_base(&base, device, r->socket_id, r->ppin);
	l = base;
	label_hex(&l, "guid", r->guid, 8);
	add(out, PROM_SOCKET_INFO, &l, "1");
	flag(out, PROM_ON_DEMAND_ENABLED, &base, NULL, NULL, r->on_demand);
	flag(out, PROM_ATTESTATION_ENABLED, &base, NULL, NULL, r->attestation);
	flag(out, PROM_METERING_ENABLED, &base, NULL, NULL, r->metering);
	flag(out, PROM_AKC_PROVISIONED, &base, NULL, NULL, r->akc_provisioned);
	l = base;
	label(&l, "kind", "akc");
	add_uint(out, PROM_PROV_FAILURES, &l, r->akc_fail_count);
	add_uint(out, PROM_PROV_FAILURE_THRESHOLD, &l, r->akc_fail_threshold);
	l = base;
	label(&l, "kind", "cap");
	add_uint(out, PROM_PROV_FAILURES, &l, r->cap_fail_count);
	add_uint(out, PROM_PROV_FAILURE_THRESHOLD, &l, r->cap_fail_threshold);
	add_uint(out, PROM_UPDATES_AVAILABLE, &base, r->updates_available);
	add_uint(out, PROM_UPDATES_THRESHOLD, &base, r->updates_threshold);
	flag(out, PROM_NVRAM_LIMIT_REACHED, &base, "percent", "50", r->nvram_50);
	flag(out, PROM_NVRAM_LIMIT_REACHED, &base, "percent", "75", r->nvram_75);
	flag(out, PROM_NVRAM_LIMIT_REACHED, &base, "percent", "90", r->nvram_90);
	flag(out, PROM_AUTH_ERROR, &base, "kind", "content", r->content_auth_error);
	flag(out, PROM_AUTH_ERROR, &base, "kind", "metering", r->metering_auth_error);
	up(out, device, true);
	done(out);
}

static void license_type(uint32_t type, char text[16])
{
	const char *name = sdsi_license_type_name(type);

	if (name)
		snprintf(text, 16, "%s", name);
	else
		snprintf(text, 16, "%" PRIu32, type);
}

static void prom_license(struct output *out, const struct labels *base,
			 const struct sdsi_license *lic)
{
	struct labels l = *base, id;
	char type[16] = "", code[5];

	label_uint(&l, "index", lic->index);
	if (lic->present) {
		license_type(lic->type, type);
		label_hex(&l, "id", lic->id, 16);
	} else {
		label(&l, "id", "");
	}
	id = l;
	label(&l, "type", type);
	add(out, PROM_LICENSE_VALID, &l, lic->valid ? "1" : "0");
	if (!lic->present)
		return;
	add_uint(out, PROM_LICENSE_REVISION, &id, lic->revision);
	for (uint32_t k = 0; k < lic->num_features; k++) {
		l = id;
		sdsi_fourcc(sdsi_license_feature(lic, k), code);
		label(&l, "feature", code);
		add(out, PROM_LICENSE_FEATURE, &l, "1");
	}
}

static void prom_state(struct output *out, const char *device, const struct sdsi_state_cert *c)
{
	struct labels base;

	base_of(out, device, &base);
	flag(out, PROM_KEY_PROVISIONED, &base, NULL, NULL, c->key_present);
	if (c->key_present)
		add_uint(out, PROM_KEY_REVISION, &base, c->key_rev_id);
	add_uint(out, PROM_LICENSE_SLOTS, &base, c->num_licenses);
	for (uint32_t i = 0; i < c->num_licenses; i++)
		prom_license(out, &base, &c->licenses[i]);
	up(out, device, true);
	done(out);
}

static void prom_meter(struct output *out, const char *device, const struct sdsi_meter_cert *c,
		       bool current)
{
	const enum prom_family_id feature = current ? PROM_CURRENT_FEATURE : PROM_METER_FEATURE;
	struct labels base, l;
	uint32_t enc, count;
	char code[5];

	base_of(out, device, &base);
	add_seconds(out, current ? PROM_CURRENT_REFERENCE : PROM_METER_REFERENCE, &base,
		    c->mmrc_counter, c->unit_ms);
	for (uint32_t i = 0; i < c->num_counters; i++) {
		sdsi_meter_counter(c, i, &enc, &count);
		sdsi_fourcc(enc, code);
		l = base;
		label(&l, "feature", code);
		add_seconds(out, feature, &l, count, c->unit_ms);
	}
	up(out, device, true);
	done(out);
}

static void prom_error(struct output *out, const char *device, const struct sdsi_error *err)
{
	struct labels l = { .len = 0 };

	out_error_message(sdsi_error_message(err));
	up(out, device, false);
	label(&l, "command", out->command);
	label(&l, "device", device ? device : "");
	label(&l, "reason", sdsi_errno_name(sdsi_error_errno(err)));
	add(out, PROM_SCRAPE_ERROR, &l, "1");
	done(out);
}

/*
 * --attest verify: the verdict, on the socket's labels (the registers were
 * read before it).  check is the first failed check, and present but empty
 * on a part that attested, so that every sample has the same label names.
 * A verdict is a run that worked: sdsi_up 1, whatever the verdict.
 */
static void prom_attestation(struct output *out, const struct attest_report *r)
{
	const bool ok = sdsi_attest_verdict_ok(r->verdict);
	const char *failed = sdsi_attest_verdict_failed_check(r->verdict);
	struct labels l;

	base_of(out, r->device, &l);
	label(&l, "check", ok || !failed ? "" : failed);
	add(out, PROM_ATTESTED, &l, ok ? "1" : "0");
	up(out, r->device, true);
	done(out);
}

/* After the registers (prom_registers): the socket's labels are known. */
static void prom_data_available(struct output *out, const char *device, bool available)
{
	struct labels l;

	base_of(out, device, &l);
	label(&l, "data", out->command);
	add(out, PROM_DATA_AVAILABLE, &l, available ? "1" : "0");
	if (available)
		return;		/* the certificate's own output follows */
	up(out, device, true);
	done(out);
}

static void prom_begin_all(struct output *out)
{
	out->in_all = true;
}

static void prom_end_all(struct output *out)
{
	out->in_all = false;
	flush(out);
}

/*
 * Not reached: the option check allows --format prometheus with -i, -s, -m,
 * -C and --attest verify only.
 */
static void prom_devices(struct output *out, struct sdsi_device *const *devs, size_t count)
{
	text_output_ops.devices(out, devs, count);
}

static void prom_provisioned(struct output *out, const struct provision_report *r)
{
	text_output_ops.provisioned(out, r);
}

static void prom_refused(struct output *out, const struct provision_report *r,
			 const struct sdsi_error *err)
{
	text_output_ops.refused(out, r, err);
}

const struct output_ops prometheus_output_ops = {
	OUTPUT_OPS_REQUIRED(prom),
	.registers = prom_registers,
	.data_available = prom_data_available,
	.attestation = prom_attestation,
};
