// SPDX-License-Identifier: GPL-2.0-only
/* Escapes for names in JSON and text output (util_escape.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <json-c/printbuf.h>

#include "sdsi/utf8.h"

#include "util_escape.h"

static bool utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	while (n) {
		size_t len = sdsi_utf8_sequence(p, n);

		if (!len)
			return false;
		p += len;
		n -= len;
	}
	return true;
}

/* json-c's serializer for a string that is not UTF-8: the escape above. */
static int escaped_string(json_object *obj, struct printbuf *pb, int level, int flags)
{
	const unsigned char *p = (const unsigned char *)json_object_get_string(obj);
	size_t n = (size_t)json_object_get_string_len(obj);
	char esc[8];

	(void)level;
	(void)flags;
	printbuf_memappend(pb, "\"", 1);
	while (n) {
		size_t len = sdsi_utf8_sequence(p, n);

		if (!len) {
			snprintf(esc, sizeof(esc), "\\udc%02x", p[0]);
			printbuf_memappend(pb, esc, 6);
			len = 1;
		} else if (p[0] == '"' || p[0] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)p[0];
			printbuf_memappend(pb, esc, 2);
		} else if (p[0] < 0x20 || p[0] == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", p[0]);
			printbuf_memappend(pb, esc, 6);
		} else {
			printbuf_memappend(pb, (const char *)p, (int)len);
		}
		p += len;
		n -= len;
	}
	printbuf_memappend(pb, "\"", 1);
	return 0;
}

static void escape_tree(json_object *obj)
{
	switch (json_object_get_type(obj)) {
	case json_type_string:
		if (!utf8_valid(json_object_get_string(obj),
				(size_t)json_object_get_string_len(obj)))
			json_object_set_serializer(obj, escaped_string, NULL, NULL);
		break;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(obj); i++)
			escape_tree(json_object_array_get_idx(obj, i));
		break;
	case json_type_object: {
		json_object_object_foreach(obj, key, value) {
			(void)key;	/* keys are the schema's own, ASCII */
			escape_tree(value);
		}
		break;
	}
	default:
		break;
	}
}

void util_json_print_document(json_object *obj)
{
	escape_tree(obj);
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
}

static size_t escape_byte(char out[5], unsigned char c)
{
	if (c == '\\') {
		memcpy(out, "\\\\", 3);
		return 2;
	}
	if (c < 0x20 || c == 0x7f) {
		snprintf(out, 5, "\\x%02x", c);
		return 4;
	}
	out[0] = (char)c;
	out[1] = '\0';
	return 1;
}

const char *util_text_name(char *buf, size_t size, const char *name)
{
	size_t used = 0;
	char one[5];

	if (!size)
		return buf;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		size_t len = escape_byte(one, *p);

		if (used + len >= size)
			break;
		memcpy(buf + used, one, len);
		used += len;
	}
	buf[used] = '\0';
	return buf;
}

void util_fputs_text_name(const char *s, FILE *f)
{
	char one[5];

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		escape_byte(one, *p);
		fputs(one, f);
	}
}
