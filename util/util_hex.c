// SPDX-License-Identifier: LGPL-2.1-or-later
/* Hex digits (util_hex.h). */
#include "util_hex.h"

static const char digits[] = "0123456789abcdef";

static char *put_byte(char *p, uint8_t b)
{
	*p++ = digits[b >> 4];
	*p++ = digits[b & 0xf];
	return p;
}

void util_hex(char *out, const void *bytes, size_t len)
{
	const uint8_t *b = bytes;

	for (size_t i = 0; i < len; i++)
		out = put_byte(out, b[i]);
	*out = '\0';
}

void util_hex_key_image(char *out, const uint8_t *image, size_t len)
{
	*out++ = '0';
	*out++ = 'x';
	while (len)
		out = put_byte(out, image[--len]);
	*out = '\0';
}
