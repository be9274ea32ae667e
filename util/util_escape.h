/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names the tools did not choose (file names, paths inside messages) reach
 * two contracts: JSON, which must be valid UTF-8, and a terminal, where a
 * newline or an escape sequence in a name would forge lines or colours.
 * Both escapes are documented in docs/schema/README.md ("Names").
 * Shared by intel_sdsi and sdsi-authority; GPL-2.0-only like them, and apart
 * from the rest of util/ (LGPL) since it needs json-c.
 */
#ifndef SDSI_UTIL_ESCAPE_H
#define SDSI_UTIL_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * Print obj to stdout as the tools' JSON documents are printed (pretty,
 * spaced, "/" unescaped), then a newline.  Every string that is not valid
 * UTF-8 is written with each byte that is not part of a valid sequence as
 * the escape \udcNN (U+DC80..U+DCFF, Python's "surrogateescape"): lossless,
 * and unambiguous since valid UTF-8 never encodes a surrogate.
 */
void util_json_print_document(json_object *obj);

/*
 * name with every control character (bytes 0x00-0x1f and 0x7f) written as
 * \xNN and every backslash as \\, for text output; returns buf, which
 * holds at most size - 1 bytes (a longer result is cut, never mid-escape).
 */
const char *util_text_name(char *buf, size_t size, const char *name);

/* Room for util_text_name() of a path of PATH_MAX bytes, all of them escaped. */
#define UTIL_TEXT_NAME_SIZE	(4 * 4096 + 1)

/* fputs(util_text_name(s)) without a buffer: for messages of any length. */
void util_fputs_text_name(const char *s, FILE *f);

#endif /* SDSI_UTIL_ESCAPE_H */
