/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The answer of the control socket, built a line at a time: "ok ...", JSON
 * lines, or "error <ERRNO>: <message>" with the errno's symbolic name.
 */
#ifndef EMU_CONTROL_RESPONSE_H
#define EMU_CONTROL_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>

struct emu_response {
	char *text;
	size_t len;
	bool failed;		/* out of memory */
};

/* Append printf-formatted text; an allocation failure is remembered. */
__attribute__((format(printf, 2, 3)))
void emu_respond(struct emu_response *r, const char *fmt, ...);
void emu_respond_error(struct emu_response *r, int err, const char *what);

/* The whole answer for the caller to free, or NULL if memory ran out. */
char *emu_response_take(struct emu_response *r);

#endif /* EMU_CONTROL_RESPONSE_H */
