/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pieces of the JSON output (docs/schema/) that the fleet provisioning
 * document shares, so that it encodes everything as the others do.
 */
#ifndef INTEL_SDSI_OUTPUT_JSON_H
#define INTEL_SDSI_OUTPUT_JSON_H

#include <json-c/json.h>

#include "sdsi/libsdsi.h"

/* "format", "decoded" and "checks": what the pre-flight checks saw. */
void json_add_preflight(json_object *obj, const struct sdsi_preflight *pf);

/* {"errno", "name", "message", "offset"} */
json_object *json_error_object(const struct sdsi_error *err);

/* A new document: {"schema_version"}. */
json_object *json_contract_doc(void);

/* A 64-bit value: "0x" and 16 hex digits. */
json_object *json_contract_hex64(uint64_t v);

/* "akc", "cap", "foreign". */
const char *json_contract_kind(enum sdsi_blob_format format);

#endif /* INTEL_SDSI_OUTPUT_JSON_H */
