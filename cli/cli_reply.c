// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_reply.h"

void cli_reply_add(struct cli_reply *r, const char *fmt, ...)
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

void cli_reply_error(struct cli_reply *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->err)
		return;
	r->err = err > 0 ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

char *cli_reply_render(struct cli_reply *r, enum cli_reply_style style)
{
	const char *name;
	char *out = NULL;
	int n;

	if (r->failed) {
		free(r->text);
		r->text = NULL;
		return NULL;
	}
	if (r->err) {
		name = strerrorname_np(r->err);
		if (style == CLI_REPLY_TERSE)
			n = asprintf(&out, "error: %s\n", r->terse[0] ? r->terse : r->msg);
		else
			n = asprintf(&out, "error %s: %s\n", name ? name : "EIO", r->msg);
		free(r->text);
		r->text = NULL;
		return n < 0 ? NULL : out;
	}
	if (style == CLI_REPLY_TERSE && !r->data) {
		free(r->text);
		r->text = NULL;
		return strdup("ok\n");
	}
	out = r->text ? r->text : strdup("ok\n");
	r->text = NULL;
	return out;
}
