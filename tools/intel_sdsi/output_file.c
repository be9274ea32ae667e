// SPDX-License-Identifier: GPL-2.0-only
/*
 * --output FILE, crash-safe and in a directory opened once
 * (sdsi_path_output: temporary file there, fsync, renameat only if FILE
 * still holds what was judged, fsync of the directory).  The temporary
 * name starts with a dot and does not end in .prom: node_exporter's
 * textfile collector reads *.prom only, and never picks it up.
 *
 * What FILE holds is judged before the command runs, from the descriptor
 * opened then: only a file intel_sdsi could have written (text) is
 * replaced, so no AKC, CAP, certificate or key is ever turned into a
 * report (issue 24).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/utf8.h"
#include "output_file.h"
#include "tool_error.h"

/* Larger than any output of ours: such a FILE was not written by intel_sdsi. */
#define OUTPUT_JUDGE_MAX	(16u * 1024u * 1024u)

/* The class of a failure of sdsi_path.h: a safety refusal, or a file that cannot be written. */
static enum sdsi_error_class path_class(int rc)
{
	return rc == -ELOOP || rc == -EPERM || rc == -ESTALE || rc == -EEXIST ?
	       SDSI_ERR_REFUSED : SDSI_ERR_IO;
}

/* Whether the n bytes at p are text we could have printed. */
static bool is_our_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t len;

		if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t' && p[i] != '\r')
			return false;
		if (p[i] == 0x7f)
			return false;
		len = sdsi_utf8_sequence(p + i, n - i);
		if (!len)
			return false;
		i += len;
	}
	return true;
}

/*
 * Whether the file behind fd (size bytes) may be replaced: never a key;
 * otherwise one intel_sdsi could have written, or anything with force.
 * 0, or -1 with err (REFUSED, EEXIST) naming what it holds.
 */
static int judge_existing(struct output_file *of, int fd, off_t size, bool force,
			  struct sdsi_error *err)
{
	unsigned char *data;
	size_t n = 0;
	ssize_t got;
	int rc = 0;

	if (sdsi_fd_holds_key(fd))
		return tool_error(err, EEXIST, SDSI_ERR_REFUSED,
			    "--output %s: holds a key (PEM or DER); refusing to replace it", of->path);
	if (force)
		return 0;
	if (size > (off_t)OUTPUT_JUDGE_MAX)
		return tool_error(err, EEXIST, SDSI_ERR_REFUSED,
			    "--output %s: %lld bytes, larger than any output of intel_sdsi; refusing to replace it (--force replaces it)",
			    of->path, (long long)size);
	data = malloc((size_t)size + 1);
	if (!data)
		return tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "--output %s: out of memory", of->path);
	while (n <= (size_t)size && (got = pread(fd, data + n, (size_t)size + 1 - n, (off_t)n))) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = tool_error(err, errno, SDSI_ERR_IO, "--output %s: reading what it holds: %s",
				  of->path, strerror(errno));
			break;
		}
		n += (size_t)got;
	}
	if (!rc && !is_our_text(data, n))
		rc = tool_error(err, EEXIST, SDSI_ERR_REFUSED,
			  "--output %s: holds binary data (an AKC, a CAP, a certificate?) that intel_sdsi did not write; refusing to replace it (--force replaces it)",
			  of->path);
	free(data);
	return rc;
}

int output_file_begin(struct output_file *of, const char *path, bool force,
		      struct sdsi_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	FILE *mem;
	int rc;

	memset(of, 0, sizeof(*of));
	of->path = path;
	of->target.dirfd = of->target.existing_fd = -1;
	/* Before the command runs: no mailbox transaction for a file never written. */
	rc = sdsi_path_output_open(&of->target, path, "--output", 0, msg, sizeof(msg));
	if (rc) {
		bool replaceable = rc == -ELOOP || rc == -EISDIR || rc == -ENXIO;

		return tool_error(err, -rc, path_class(rc), "%s%s", msg,
			    replaceable ? "; refusing to replace it" : "");
	}
	if (of->target.existing_fd >= 0 &&
	    judge_existing(of, of->target.existing_fd, of->target.existing.st_size, force, err)) {
		sdsi_path_output_close(&of->target);
		return -1;
	}
	mem = open_memstream(&of->buf, &of->len);
	if (!mem) {
		sdsi_path_output_close(&of->target);
		return tool_error(err, errno, SDSI_ERR_IO, "--output %s: collecting the output: %s", path,
			    strerror(errno));
	}
	/* glibc's stdout is a plain variable: everything printed lands in mem. */
	of->real_stdout = stdout;
	stdout = mem;
	return 0;
}

/* The mode a plain creat() would give: 0666 less the umask, readable by node_exporter. */
static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* stdout back to the terminal; 0, or -1 when the collected output is incomplete. */
static int restore_stdout(struct output_file *of)
{
	int rc = fclose(stdout);

	stdout = of->real_stdout;
	return rc ? -1 : 0;
}

int output_file_commit(struct output_file *of, struct sdsi_error *err)
{
	char msg[SDSI_PATH_ERR_SIZE];
	int rc;

	if (restore_stdout(of)) {
		rc = tool_error(err, ENOMEM, SDSI_ERR_IO, "--output %s: collecting the output: %s",
			  of->path, strerror(ENOMEM));
		goto out;
	}
	rc = sdsi_path_output_commit(&of->target, of->buf, of->len, creation_mode(), msg,
				     sizeof(msg));
	if (rc)
		rc = tool_error(err, -rc, path_class(rc), "%s", msg);
out:
	sdsi_path_output_close(&of->target);
	free(of->buf);
	of->buf = NULL;
	return rc ? -1 : 0;
}

void output_file_discard(struct output_file *of)
{
	bool complete = restore_stdout(of) == 0;

	if (complete && of->len)
		fwrite(of->buf, 1, of->len, stdout);
	fprintf(stderr, "intel_sdsi: --output %s: left as it was: the command failed\n", of->path);
	sdsi_path_output_close(&of->target);
	free(of->buf);
	of->buf = NULL;
}
