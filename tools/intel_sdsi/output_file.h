/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --output FILE: stdout is collected in memory while the command runs, then
 * written to a temporary file in FILE's directory, synced and renamed over
 * FILE.  A reader (node_exporter's textfile collector) sees the old file or
 * the new one, never a part; a run killed before the end leaves FILE as it
 * was and no temporary file, since none exists until the output is complete.
 */
#ifndef INTEL_SDSI_OUTPUT_FILE_H
#define INTEL_SDSI_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "sdsi/libsdsi.h"

struct output_file {
	const char *path;
	char dir[SDSI_PATH_SIZE];
	FILE *real_stdout;
	char *buf;
	size_t len;
};

/*
 * Check that FILE's directory exists and FILE is missing or a regular file
 * (a symlink judged by its target), then send stdout to memory.  -1 with
 * err otherwise, stdout untouched: class IO (exit 7) for a FIFO, device,
 * directory or a name that cannot be used (ENAMETOOLONG, ELOOP), class
 * REFUSED (exit 5, EEXIST) for a file that holds a private key.
 */
int output_file_begin(struct output_file *of, const char *path, struct sdsi_error *err);

/*
 * Give stdout back and replace FILE with what was printed.  -1 with err
 * (class IO) when it cannot: FILE is then left as it was, and no temporary
 * file stays behind.
 */
int output_file_commit(struct output_file *of, struct sdsi_error *err);

#endif /* INTEL_SDSI_OUTPUT_FILE_H */
