/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The metric families of `intel_sdsi --format prometheus`: one table that
 * the output module prints from and the man page documents, so the two
 * cannot disagree.  docs/prometheus.md gives each family's source field.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_PROM_METRICS_H
#define SDSI_TOOLS_INTEL_SDSI_PROM_METRICS_H

enum prom_family_id {
	/* Every command: whether each device could be read. */
	PROM_UP,
	PROM_SCRAPE_ERROR,
	/* -s, -m, -C, --attest verify: whether the part offers what the command reads. */
	PROM_DATA_AVAILABLE,
	/* -i: the registers. */
	PROM_SOCKET_INFO,
	PROM_ON_DEMAND_ENABLED,
	PROM_ATTESTATION_ENABLED,
	PROM_METERING_ENABLED,
	PROM_AKC_PROVISIONED,
	PROM_PROV_FAILURES,
	PROM_PROV_FAILURE_THRESHOLD,
	PROM_UPDATES_AVAILABLE,
	PROM_UPDATES_THRESHOLD,
	PROM_NVRAM_LIMIT_REACHED,
	PROM_AUTH_ERROR,
	/* -s: the state certificate. */
	PROM_KEY_PROVISIONED,
	PROM_KEY_REVISION,
	PROM_LICENSE_SLOTS,
	PROM_LICENSE_VALID,
	PROM_LICENSE_REVISION,
	PROM_LICENSE_FEATURE,
	/* -m: the meter certificate; -C: the live meter. */
	PROM_METER_FEATURE,
	PROM_METER_REFERENCE,
	PROM_CURRENT_FEATURE,
	PROM_CURRENT_REFERENCE,
	/* --attest verify: the verdict. */
	PROM_ATTESTED,
	PROM_FAMILY_COUNT
};

struct prom_family {
	const char *name;
	const char *type;	/* "gauge" or "counter" */
	const char *command;	/* the option that prints it */
	const char *labels;	/* comma-separated, in the order printed */
	const char *help;	/* the HELP line: no backslash, no newline */
};

extern const struct prom_family prom_families[PROM_FAMILY_COUNT];

#endif /* SDSI_TOOLS_INTEL_SDSI_PROM_METRICS_H */
