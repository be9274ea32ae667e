/* SPDX-License-Identifier: GPL-2.0-only */
/* The JSON documents' envelope (output_json_doc.c), shared by every printer. */
#ifndef SDSI_TOOLS_INTEL_SDSI_OUTPUT_JSON_H
#define SDSI_TOOLS_INTEL_SDSI_OUTPUT_JSON_H

#include <json-c/json.h>

#include "output.h"

/* A new document, "schema_version" filled. */
json_object *json_new_doc(void);

/*
 * A new document about device (NULL: the saved file of --file, or the
 * device -d asked for), "schema_version", "device" and "file" filled.
 */
json_object *json_device_doc(const struct output *out, const char *device);

/* Print obj as one document, or (--all) keep it for the list; takes obj. */
void json_emit(struct output *out, json_object *obj);

#endif /* SDSI_TOOLS_INTEL_SDSI_OUTPUT_JSON_H */
