/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The answer to a control command, built a line at a time: "ok ...",
 * data lines (status's JSON), or one error with its errno and message.
 * One answer, two spellings on the wire (cli_reply_render): sdsi-emu's
 * "error ERRNO: message", whose errno `sdsi-emu ctl` turns into an exit
 * status, and sdsi-shmem's terse "ok" / "error: message", which fits the
 * control page's 256-byte reply and which its clients match.
 */
#ifndef SDSI_CLI_REPLY_H
#define SDSI_CLI_REPLY_H

#include <stdbool.h>
#include <stddef.h>

enum cli_reply_style {
	CLI_REPLY_ERRNO,		/* "ok DETAIL" lines, "error ERRNO: message" */
	CLI_REPLY_TERSE,		/* "ok", "error: message" */
};

struct cli_reply {
	int err;		/* 0, or the positive errno of the error */
	char *text;		/* ok and data lines, each ending in '\n' */
	size_t len;
	bool data;		/* text holds data, not an "ok" line */
	bool failed;		/* out of memory */
	char msg[512];		/* the error's message */
	/*
	 * The terse spelling's own message where sdsi-shmem's clients match
	 * an older wording ("unknown request"); empty: msg.
	 */
	char terse[128];
};

/* Append printf-formatted text (an "ok ..." line or data). */
__attribute__((format(printf, 2, 3)))
void cli_reply_add(struct cli_reply *r, const char *fmt, ...);

/* Set the error (the first one given stands). */
__attribute__((format(printf, 3, 4)))
void cli_reply_error(struct cli_reply *r, int err, const char *fmt, ...);

/* The answer as the style spells it, for the caller to free; NULL: ENOMEM. */
char *cli_reply_render(struct cli_reply *r, enum cli_reply_style style);

#endif /* SDSI_CLI_REPLY_H */
