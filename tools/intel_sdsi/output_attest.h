/* SPDX-License-Identifier: GPL-2.0-only */
/* --attest verify's verdict in text and in JSON (docs/schema/attestation.json). */
#ifndef SDSI_TOOLS_INTEL_SDSI_OUTPUT_ATTEST_H
#define SDSI_TOOLS_INTEL_SDSI_OUTPUT_ATTEST_H

#include "output.h"

void text_attestation(struct output *out, const struct attest_report *report);
void json_attestation(struct output *out, const struct attest_report *report);

#endif /* SDSI_TOOLS_INTEL_SDSI_OUTPUT_ATTEST_H */
