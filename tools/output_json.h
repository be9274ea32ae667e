/* SPDX-License-Identifier: GPL-2.0-only */
/* Pieces of the JSON output that the fleet provisioning document shares. */
#ifndef INTEL_SDSI_OUTPUT_JSON_H
#define INTEL_SDSI_OUTPUT_JSON_H

#include <json-c/json.h>

#include "sdsi/libsdsi.h"

/* "format", "decoded" and "checks": what the pre-flight checks saw. */
void json_add_preflight(json_object *obj, const struct sdsi_preflight *pf);

/* {"errno", "name", "message"} */
json_object *json_error_object(const struct sdsi_error *err);

#endif /* INTEL_SDSI_OUTPUT_JSON_H */
