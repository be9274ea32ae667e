// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_sdsi's diagnostics on stderr (output.h), the same for every output
 * format: stdout carries the result alone, so that a JSON or Prometheus
 * consumer never reads a warning as data.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/util_escape.h"
#include "output.h"

void out_error_message(const char *message)
{
	fputs("intel_sdsi: ", stderr);
	util_fputs_text_name(message, stderr);
	fputc('\n', stderr);
}

static void diag(const char *fmt, va_list ap)
{
	char *message;

	if (vasprintf(&message, fmt, ap) < 0) {
		fputs("intel_sdsi: out of memory\n", stderr);
		return;
	}
	out_error_message(message);
	free(message);
}

void out_warn(const struct output *out, const char *fmt, ...)
{
	va_list ap;

	if (out->quiet)
		return;
	va_start(ap, fmt);
	diag(fmt, ap);
	va_end(ap);
}

void out_note(const struct output *out, const char *fmt, ...)
{
	va_list ap;

	if (!out->verbose)
		return;
	va_start(ap, fmt);
	diag(fmt, ap);
	va_end(ap);
}

const char *requested_device(const char *devno, char *buf, size_t size)
{
	unsigned int n;

	if (!devno || sdsi_parse_devno(devno, &n, NULL))
		return NULL;
	snprintf(buf, size, SDSI_DEVICE_PREFIX "%u", n);
	return buf;
}
