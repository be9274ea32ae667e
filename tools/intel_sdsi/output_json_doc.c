// SPDX-License-Identifier: GPL-2.0-only
/*
 * The envelope every JSON document of intel_sdsi shares: the contract's
 * version, the device and file it is about, and where it goes (stdout, or
 * the --all list).  Its own file so that each printer (output_json.c,
 * output_attest.c) reaches it without reaching the others.
 */
#include "sdsi/json_contract.h"
#include "output_json.h"
#include "util/util_escape.h"

json_object *json_new_doc(void)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "schema_version",
			       json_object_new_string(SDSI_JSON_SCHEMA_VERSION));
	return obj;
}

/*
 * A document about one device, or about the saved file of --file (device
 * null); an error names the device -d asked for and the AKC or CAP of -a/-c
 * even when the failure came before they were opened.
 */
json_object *json_device_doc(const struct output *out, const char *device)
{
	json_object *obj = json_new_doc();
	const char *file = device || !out->file ? out->error_file : out->file;

	if (!device && !out->file)
		device = out->error_device;
	json_object_object_add(obj, "device", device ? json_object_new_string(device) : NULL);
	json_object_object_add(obj, "file", file ? json_object_new_string(file) : NULL);
	return obj;
}

void json_emit(struct output *out, json_object *obj)
{
	if (out->in_all) {
		json_object_array_add(out->json_all, obj);
		return;
	}
	util_json_print_document(obj);
	json_object_put(obj);
}
