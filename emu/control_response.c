// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control_response.h"

void emu_respond(struct emu_response *r, const char *fmt, ...)
{
	va_list ap;
	char *line, *bigger;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		r->failed = true;
		return;
	}
	bigger = realloc(r->text, r->len + (size_t)n + 1);

	if (!bigger) {
		r->failed = true;
		free(line);
		return;
	}
	memcpy(bigger + r->len, line, (size_t)n + 1);
	r->text = bigger;
	r->len += (size_t)n;
	free(line);
}

void emu_respond_error(struct emu_response *r, int err, const char *what)
{
	const char *name = strerrorname_np(err);

	emu_respond(r, "error %s: %s\n", name ? name : "EIO", what);
}

char *emu_response_take(struct emu_response *r)
{
	if (r->failed) {
		free(r->text);
		return NULL;
	}
	return r->text;
}
