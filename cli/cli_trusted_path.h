/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether only we (and root) can change what a path leads to.  The state
 * directory holds the control socket, which drives the platform, and the
 * NVRAM; if a directory on the way to it belonged to another user, or
 * others could write to it, they could move our directory aside and put
 * theirs in its place.  The rule is the one OpenSSH's StrictModes applies
 * to the way to a user's keys.
 */
#ifndef SDSI_CLI_TRUSTED_PATH_H
#define SDSI_CLI_TRUSTED_PATH_H

#include <stddef.h>

/*
 * Check every directory from / down to dir (an absolute path without
 * symbolic links, "." or ".." components, such as realpath() returns):
 * each must be owned by root or the effective user and writable by neither
 * its group nor others, except a root-owned directory with the sticky bit
 * (such as /tmp), where nobody can remove or rename what is ours.
 * what names dir's role in the message ("the state directory's parent").
 * Returns 0, or -EPERM (or the error of lstat()) with a message naming the
 * offending component and the reason.
 */
int cli_check_trusted_path(const char *dir, const char *what, char *err, size_t errlen);

#endif /* SDSI_CLI_TRUSTED_PATH_H */
