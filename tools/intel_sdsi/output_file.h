/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --output FILE: stdout is collected in memory while the command runs, then
 * written to a temporary file in FILE's directory, synced and renamed over
 * FILE (paths/sdsi_path.h: the directory walked from "/" and checked once,
 * the rename made in it).  A reader (node_exporter's textfile collector)
 * sees the old file or the new one, never a part; a run killed before the
 * end leaves FILE as it was and no temporary file, since none exists until
 * the output is complete.  A run that fails leaves FILE as it was too.
 */
#ifndef SDSI_TOOLS_INTEL_SDSI_OUTPUT_FILE_H
#define SDSI_TOOLS_INTEL_SDSI_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sdsi/libsdsi.h"
#include "paths/sdsi_path.h"

struct output_file {
	const char *path;
	struct sdsi_path_output target;	/* FILE's directory, and FILE as judged */
	FILE *real_stdout;
	char *buf;
	size_t len;
};

/*
 * Open FILE's directory and judge what FILE holds, then send stdout to
 * memory.  FILE must be missing or a regular file that intel_sdsi could
 * have written: text (UTF-8 without control characters but tab, CR and
 * newline), holding no key (sdsi_fd_holds_key); a binary file (an
 * AKC, a CAP, a DER certificate, any other) or a key is refused unless
 * force.  -1 with err otherwise, stdout untouched: class IO (exit 7) for
 * a FIFO, device, directory or a name that cannot be used (ENAMETOOLONG,
 * ENOENT), class REFUSED (exit 5) for a symbolic link (neither followed
 * nor replaced), a directory on the way another user could change
 * (EPERM), a key or a binary file (EEXIST).
 */
int output_file_begin(struct output_file *of, const char *path, bool force,
		      struct sdsi_error *err);

/*
 * Give stdout back and replace FILE with what was printed, keeping an
 * existing FILE's mode (a new one gets 0666 less the umask).  -1 with err
 * when it cannot (class IO; REFUSED when FILE was replaced meanwhile):
 * FILE is then left as it was, and no temporary file stays behind.
 */
int output_file_commit(struct output_file *of, struct sdsi_error *err);

/*
 * The command failed: give stdout back, print what was collected there
 * (an error document in JSON mode) and leave FILE exactly as it was.
 */
void output_file_discard(struct output_file *of);

#endif /* SDSI_TOOLS_INTEL_SDSI_OUTPUT_FILE_H */
