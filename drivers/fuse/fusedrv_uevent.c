// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's uevent file.  Writing it asks the kernel for a synthetic
 * uevent; the kernel parses the text first and refuses with EINVAL what it
 * cannot parse (docs/interface.md §9.3).  The emulation has no uevent socket
 * to send on, so it only parses: a program gets the answer the kernel would
 * give, and udev hears nothing.
 *
 * The grammar, as the kernel reads it: one trailing newline (or NUL) is
 * dropped; then an action name, optionally followed by one space and
 * arguments.  The arguments run to the end of the write, and without one
 * trailing newline or NUL are
 * a UUID (8-4-4-4-12 hex digits), then any number of " KEY=VALUE" with KEY
 * and VALUE non-empty runs of ASCII letters and digits.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "fusedrv_internal.h"
#include "util/util_array.h"

#define UUID_TEXT_LEN	36

static const char *const uevent_actions[] = {
	"add", "remove", "change", "move", "online", "offline", "bind", "unbind",
};

static size_t drop_one_terminator(const char *buf, size_t len)
{
	if (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	return len;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ASCII only: the kernel's isalnum() knows nothing of the C locale. */
static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool uuid_text_valid(const char *p)
{
	for (int i = 0; i < UUID_TEXT_LEN; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? p[i] != '-' : !is_hex(p[i]))
			return false;
	}
	return true;
}

/* Length of the run of letters and digits at p before delim or end; 0 if none or bad. */
static size_t word_len(const char *p, const char *end, char delim)
{
	const char *q = p;

	while (q < end && *q != delim) {
		if (!is_alnum(*q))
			return 0;
		q++;
	}
	return (size_t)(q - p);
}

static int check_args(const char *buf, size_t len)
{
	const char *p, *end;
	size_t n;

	len = drop_one_terminator(buf, len);
	if (len < UUID_TEXT_LEN || !uuid_text_valid(buf))
		return -EINVAL;
	p = buf + UUID_TEXT_LEN;
	end = buf + len;
	while (p < end) {
		if (*p++ != ' ')
			return -EINVAL;
		n = word_len(p, end, '=');		/* KEY */
		if (n == 0 || p + n >= end)
			return -EINVAL;
		p += n + 1;				/* past '=' */
		n = word_len(p, end, ' ');		/* VALUE */
		if (n == 0)
			return -EINVAL;
		p += n;
	}
	return 0;
}

int fusedrv_check_uevent(const char *buf, size_t len)
{
	const size_t whole = len;
	const char *space;
	size_t action_len;

	len = drop_one_terminator(buf, len);
	if (len == 0)
		return -EINVAL;
	space = memchr(buf, ' ', len);
	action_len = space ? (size_t)(space - buf) : len;
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(uevent_actions); i++) {
		if (strlen(uevent_actions[i]) != action_len ||
		    memcmp(uevent_actions[i], buf, action_len) != 0)
			continue;
		if (!space)
			return 0;
		/* the arguments run to the end of the write: they drop their own terminator */
		return check_args(space + 1, whole - action_len - 1);
	}
	return -EINVAL;
}
