/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One way to open a path that matters: a key, a root of trust, an
 * authority's directory, a window, a device tree, a file we write.
 *
 * A name is looked up once.  The walk starts at "/" (a relative name is
 * taken below the working directory's absolute name, getcwd()) and opens
 * each component with openat(O_NOFOLLOW) relative to the descriptor of the
 * one before; no symbolic link is followed anywhere on the way.  Every
 * directory opened is checked by its descriptor (fstat) against the
 * ownership rule: owned by root or by the effective user, and writable by
 * neither group nor others unless it has the sticky bit (as /tmp), where
 * nobody can rename or remove what is ours.  A directory another user could
 * change could have its contents swapped under us; such a path is refused
 * (-EPERM) with a message naming the component and the reason.  What is
 * finally opened is checked by that same descriptor (type, and with
 * SDSI_PATH_OWNED owner and mode), never by a second lookup of the name,
 * and read or written through it.
 *
 * Outputs are written in the directory so opened: a temporary file made
 * with openat, written, fsynced, renamed over the name with renameat, then
 * the directory fsynced; a crash leaves the old file or the new one.
 *
 * Every function returns a descriptor or 0 on success, or -errno with a
 * message of at most errlen bytes in err (NUL-terminated; err may be NULL
 * when errlen is 0).  what names the path's role in messages
 * ("--root-key", "authority directory"); the message always names the
 * path as given.  Used by every program (libsdsi, licensing, the daemons,
 * the tools); it depends on nothing but libc.  Not installed.
 */
#ifndef SDSI_PATHS_PATH_H
#define SDSI_PATHS_PATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Enough for any message of this library: a path of PATH_MAX and a reason. */
#define SDSI_PATH_ERR_SIZE	(PATH_MAX + 512)

/*
 * Flags of the functions below.
 * SDSI_PATH_OWNED: what is opened last is held to the ownership rule too,
 *   and a regular file must not be writable by group or others at all
 *   (the sticky bit means nothing on a file): a key, a root of trust,
 *   a window.  Directories walked through are always held to the rule.
 * SDSI_PATH_NOREPLACE: an output never replaces an existing file (-EEXIST).
 */
#define SDSI_PATH_OWNED		(1u << 0)
#define SDSI_PATH_NOREPLACE	(1u << 1)

/*
 * The ownership rule on one fstat() result: 0, or -EPERM with a message
 * ("what path: NAME is owned by uid U, not by root or uid V, ..." or
 * "... is writable by others (mode 0777) ...").  component names the
 * component that failed (may equal path).  sticky_ok: whether the sticky
 * bit excuses group/other write (directories: true; files: false).
 */
int sdsi_path_check_owner(const struct stat *st, bool sticky_ok, const char *what,
			  const char *path, const char *component, char *err, size_t errlen);

/*
 * Open the directory path, every component walked and checked, the last
 * one included (O_RDONLY | O_DIRECTORY).  A name of PATH_MAX bytes or more
 * (with the working directory's name before a relative one) is
 * -ENAMETOOLONG; an empty one -ENOENT; a symbolic link on the way -ELOOP;
 * a component that is no directory -ENOTDIR.  Returns the descriptor.
 */
int sdsi_path_open_dir(const char *path, const char *what, char *err, size_t errlen);

/*
 * Open the directory that holds path's last component (walked and checked
 * as sdsi_path_open_dir does) and copy that last component into leaf
 * (NAME_MAX + 1 bytes).  A path ending in '/', ".", ".." or naming "/" has
 * no last component of its own: -EISDIR.  Returns the directory's descriptor.
 */
int sdsi_path_open_parent(const char *path, const char *what, char leaf[NAME_MAX + 1],
			  char *err, size_t errlen);

/*
 * Open name (one component, no '/') in the directory dirfd read-only,
 * O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, and check it by its
 * descriptor: a regular file (-EISDIR for a directory, -ENXIO for a FIFO,
 * socket or device, never waited on; -ELOOP for a symbolic link), and with
 * SDSI_PATH_OWNED the ownership rule.  path is the whole name, for
 * messages.  If st is not NULL it receives the fstat() result.  Returns the
 * descriptor.
 */
int sdsi_path_openat_file(int dirfd, const char *name, const char *path, const char *what,
			  unsigned int flags, struct stat *st, char *err, size_t errlen);

/* sdsi_path_open_parent, then sdsi_path_openat_file: a whole path to a regular file. */
int sdsi_path_open_file(const char *path, const char *what, unsigned int flags,
			struct stat *st, char *err, size_t errlen);

/*
 * Read the whole file behind fd (from its current offset) into buf: at
 * most size bytes.  *len receives the count.  A file with more than size
 * bytes is -EFBIG (so a file of exactly size bytes reads whole).  A file
 * that shrinks or grows while read is read as it is.  -errno of read()
 * otherwise.  path and what name it in err.
 */
int sdsi_path_read_fd(int fd, void *buf, size_t size, size_t *len, const char *what,
		      const char *path, char *err, size_t errlen);

/*
 * An output written crash-safely in a directory opened once.
 *
 * sdsi_path_output_open: open path's directory (checked as above) and look
 * at what its name holds now, without following a link: nothing
 * (->existing_fd = -1), or a regular file, opened read-only in
 * ->existing_fd with its fstat in ->existing, so that the caller can judge
 * its content (a key, a licence, a certificate) before anything is
 * written.  A symbolic link is refused (-ELOOP: it is neither followed nor
 * replaced), and so is anything that is not a regular file (-EISDIR,
 * -ENXIO).  With SDSI_PATH_NOREPLACE an existing file is -EEXIST.
 *
 * sdsi_path_output_commit: write data to a temporary file in that
 * directory (".NAME.XXXXXX", the name cut to fit NAME_MAX; its leading dot
 * hides it from globs such as *.prom), with the existing file's mode (its
 * permission bits) or else mode, fsync it, and rename it over the name;
 * then fsync the directory.  The rename is refused if the name changed
 * since sdsi_path_output_open (a file appeared, or another replaced the
 * one judged): -EEXIST or -ESTALE, the name then untouched.  On any
 * failure the temporary file is removed and the name left as it was.
 *
 * sdsi_path_output_close releases the descriptors (always call it; twice
 * is harmless).
 */
struct sdsi_path_output {
	int dirfd;
	char leaf[NAME_MAX + 1];
	const char *path;		/* as given, for messages */
	const char *what;
	unsigned int flags;
	int existing_fd;		/* -1: the name held nothing */
	struct stat existing;
};

int sdsi_path_output_open(struct sdsi_path_output *out, const char *path, const char *what,
			  unsigned int flags, char *err, size_t errlen);
/*
 * As sdsi_path_output_open, for the name leaf (one component) in a
 * directory already opened and checked (dirfd, duplicated: the caller
 * keeps its own); path names it in messages.
 */
int sdsi_path_output_openat(struct sdsi_path_output *out, int dirfd, const char *leaf,
			    const char *path, const char *what, unsigned int flags,
			    char *err, size_t errlen);
int sdsi_path_output_commit(struct sdsi_path_output *out, const void *data, size_t len,
			    mode_t mode, char *err, size_t errlen);
void sdsi_path_output_close(struct sdsi_path_output *out);

#endif /* SDSI_PATHS_PATH_H */
