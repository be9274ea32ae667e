// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct sdsi_error as an opaque handle: callers allocate it here and read it
 * through accessors, so that its message buffer is no part of the ABI.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi_internal.h"

struct sdsi_error *sdsi_error_new(void)
{
	struct sdsi_error *err = malloc(sizeof(*err));

	sdsi_clear_error(err);
	return err;
}

void sdsi_error_free(struct sdsi_error *err)
{
	free(err);
}

void sdsi_error_freep(struct sdsi_error **err)
{
	free(*err);
}

int sdsi_error_errno(const struct sdsi_error *err)
{
	return err->errnum;
}

enum sdsi_error_class sdsi_error_class(const struct sdsi_error *err)
{
	return err->cls;
}

long sdsi_error_offset(const struct sdsi_error *err)
{
	return err->offset;
}

const char *sdsi_error_message(const struct sdsi_error *err)
{
	return err->message;
}

int sdsi_error_set(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
		   long offset, const char *fmt, ...)
{
	/* Formatted apart first: the arguments may be err's own message. */
	char message[sizeof(err->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	err->errnum = errnum;
	err->cls = cls;
	err->offset = offset;
	memcpy(err->message, message, sizeof(message));
	return -errnum;
}

void sdsi_error_copy(struct sdsi_error *dst, const struct sdsi_error *src)
{
	*dst = *src;
}

void sdsi_error_prefix(struct sdsi_error *err, const char *prefix)
{
	const size_t cap = sizeof(err->message);
	size_t plen = strlen(prefix) + 2, mlen = strlen(err->message);

	if (plen >= cap)
		return;
	if (plen + mlen >= cap)
		mlen = cap - plen - 1;
	memmove(err->message + plen, err->message, mlen);
	err->message[plen + mlen] = '\0';
	memcpy(err->message, prefix, plen - 2);
	memcpy(err->message + plen - 2, ": ", 2);
}
