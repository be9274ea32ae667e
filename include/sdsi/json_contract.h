/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The version of the JSON contract of intel_sdsi and sdsi-authority
 * (docs/schema/): every document either program prints carries it as
 * "schema_version".  "MAJOR.MINOR": a new field bumps MINOR, anything a
 * reader of the old version could misread (a field removed, renamed or
 * encoded differently) bumps MAJOR.  Both programs print the same value, and
 * tests/tool/test_json_schema.py checks it against docs/schema/common.json.
 * Not installed: a header of the programs, not of libsdsi.
 */
#ifndef SDSI_JSON_CONTRACT_H
#define SDSI_JSON_CONTRACT_H

#define SDSI_JSON_SCHEMA_VERSION "1.0"

#endif /* SDSI_JSON_CONTRACT_H */
