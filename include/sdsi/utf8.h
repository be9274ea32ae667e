/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one reading of UTF-8 that libsdsi (is a foreign blob text?) and the
 * tools (which names need escaping?) share, so that both agree on what
 * valid UTF-8 is: shortest form only, no surrogates (U+D800..U+DFFF),
 * nothing above U+10FFFF, as RFC 3629 says.
 */
#ifndef SDSI_UTF8_H
#define SDSI_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the valid UTF-8 sequence at s (at most n > 0 bytes), or 0. */
static inline size_t sdsi_utf8_sequence(const unsigned char *s, size_t n)
{
	uint32_t cp, min;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

#endif /* SDSI_UTF8_H */
