/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The file a tool is told to write (intel_sdsi --output, sdsi-authority -o).
 * Both write a temporary file and rename it over the name, which would turn
 * a FIFO, a device or a symlink to one into a regular file and lose what it
 * was; and an AKC written over a private key loses the key, the authority
 * with it.  So the name must be missing or a regular file (a symlink is
 * judged by what it points to), and a regular file must not hold a key:
 * neither a private one nor a public one (a trust anchor such as root.pub),
 * in PEM or in DER (sdsi_lic_file_holds_key, licensing/sdsi_lic.h, which
 * needs OpenSSL).  Shared by the tools; not installed.
 */
#ifndef SDSI_OUTPUT_TARGET_H
#define SDSI_OUTPUT_TARGET_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/input_file.h"

/*
 * 0 when path may be replaced: it does not exist (or is a symlink to
 * nothing: the rename replaces the link), or it is a regular file.
 * -EISDIR or -ENXIO with *kind ("a FIFO", ...) for anything else; the
 * stat's own -errno (ENAMETOOLONG, ELOOP, EACCES, ...) with *kind NULL.
 */
static inline int sdsi_output_target_check(const char *path, const char **kind)
{
	struct stat st;

	*kind = NULL;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	return S_ISREG(st.st_mode) ? 0 : sdsi_refuse_kind(st.st_mode, kind);
}

/*
 * The temporary name of a crash-safe write next to base, a file name of up
 * to NAME_MAX bytes: "PREFIX" + base + "SUFFIX" where base is cut so that
 * the whole stays within NAME_MAX.  Only the first bytes of base are kept:
 * the temporary name says which file it is for, not which exactly.
 */
static inline int sdsi_temp_base_len(const char *base, size_t affixes)
{
	size_t len = strlen(base);

	if (len + affixes > NAME_MAX)
		len = NAME_MAX - affixes;
	return (int)len;
}

#endif /* SDSI_OUTPUT_TARGET_H */
