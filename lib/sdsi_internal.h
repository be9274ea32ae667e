/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the libsdsi sources; not installed. */
#ifndef SDSI_LIB_INTERNAL_H
#define SDSI_LIB_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "sdsi/le.h"
#include "sdsi/libsdsi.h"

/* Internal functions stay out of the library's dynamic symbol table. */
#define SDSI_HIDDEN __attribute__((visibility("hidden")))

/*
 * The opaque handles of libsdsi.h.  Their layout is the library's own: a
 * field may grow or be added without an ABI break, since callers only hold
 * pointers (docs/library.md).
 */
struct sdsi_error {
	int errnum;			/* positive errno, 0 when no error */
	enum sdsi_error_class cls;
	long offset;			/* byte offset of a malformed field, or -1 */
	char message[512];
};

struct sdsi_device {
	unsigned int devno;		/* N of intel_vsec.sdsi.N, not the socket ID */
	char name[64];			/* "intel_vsec.sdsi.N" */
	char path[SDSI_PATH_SIZE];	/* ROOT/intel_vsec.sdsi.N */
	uint32_t guid;			/* read by open/list; 0 if unreadable */
	bool guid_valid;
	int dirfd;			/* the device directory, opened once (device.c) */
};

/*
 * An attribute of dev opened relative to its directory, O_NOFOLLOW and
 * O_NONBLOCK (a FIFO in a tree given by --sysfs-root never blocks), with
 * oflags (O_RDONLY or O_WRONLY), and checked by its descriptor to be a
 * regular file.  The descriptor, or -1 with *errnum: the open's errno,
 * ELOOP for a symbolic link, EISDIR or ENXIO for what is not a regular
 * file (*kind then says what it is, else NULL).
 */
SDSI_HIDDEN int sdsi_open_attr(const struct sdsi_device *dev, const char *name, int oflags,
			       int *errnum, const char **kind);

/*
 * The root of a device tree, opened once (device_dir.c): a root under
 * /sys as the kernel's links lead, any other walked by sdsi_path.h's rule.
 * The descriptor, or -errno with err (class NO_DEVICE for ENOENT, REFUSED
 * for a link or a directory another user could change).
 */
SDSI_HIDDEN int sdsi_open_tree_root(const char *root, struct sdsi_error *err);

/* dev->name in rootfd (root names it) into dev->dirfd, checked alike: 0 or -errno with err. */
SDSI_HIDDEN int sdsi_open_device_dir(int rootfd, const char *root, struct sdsi_device *dev,
				     struct sdsi_error *err);

/* The message of a failed sdsi_open_attr, in err: "PATH: open: REASON". */
SDSI_HIDDEN int sdsi_fail_attr_open(struct sdsi_error *err, const struct sdsi_device *dev,
				    const char *name, int errnum, const char *kind,
				    bool provisioning);

#define SDSI_PREFLIGHT_MAX_CHECKS	12u	/* every check there is, one record each */

struct sdsi_check {
	const char *name;
	enum sdsi_check_status status;
	char detail[240];
};

struct sdsi_preflight {
	bool last_attempt;	/* one more failure reaches the threshold */
	char warning[256];
	struct sdsi_blob_info blob;
	bool unchanged;		/* already provisioned: nothing needs writing */
	bool forced;		/* unchanged, but SDSI_PREFLIGHT_FORCE asks to write anyway */
	unsigned int num_checks;
	struct sdsi_check checks[SDSI_PREFLIGHT_MAX_CHECKS];
};

/* Fill err (if any) and return -errnum, so callers can `return sdsi_fail(...)`. */
SDSI_HIDDEN int sdsi_fail(struct sdsi_error *err, int errnum, enum sdsi_error_class cls,
	      long offset, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Class of an errno returned by a sysfs attribute. */
SDSI_HIDDEN enum sdsi_error_class sdsi_errno_class(int errnum, bool provisioning);

SDSI_HIDDEN void sdsi_clear_error(struct sdsi_error *err);

/*
 * Whether a foreign blob is at least what the mailbox could authenticate
 * (foreign.c, docs/intel_sdsi.md): true, or false with the reason in why.
 */
SDSI_HIDDEN bool sdsi_foreign_plausible(const uint8_t *blob, size_t len, char *why,
					size_t why_size);

/*
 * The certificates start with a fixed header whose fields are read before
 * anything else is checked: a shorter buffer is malformed.  Returns 0 or
 * -EBADMSG with the offset of the end of the data.
 */
static inline int sdsi_check_cert_header(const char *cert_name, size_t len,
					 unsigned int header_size,
					 struct sdsi_error *err)
{
	if (len >= header_size)
		return 0;
	return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, (long)len,
			 "%s: %zu bytes, the header needs %u",
			 cert_name, len, header_size);
}

#endif /* SDSI_LIB_INTERNAL_H */
