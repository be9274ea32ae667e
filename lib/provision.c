// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Provisioning: the single write the driver turns into a PROVISION_AKC or
 * PROVISION_CAP mailbox command (the checks before it are in preflight.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sdsi/blob_kind.h"
#include "sdsi/hw.h"
#include "sdsi_internal.h"

/* The public enum counts AKC from 0: the vocabulary's kinds start at foreign. */
static enum sdsi_payload_kind payload_kind(enum sdsi_blob_kind kind)
{
	return kind == SDSI_BLOB_AKC ? SDSI_PAYLOAD_AKC : SDSI_PAYLOAD_CAP;
}

const char *sdsi_blob_file(enum sdsi_blob_kind kind)
{
	return sdsi_payload_file_name(payload_kind(kind));
}

const char *sdsi_blob_name(enum sdsi_blob_kind kind)
{
	return sdsi_payload_name(payload_kind(kind));
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * Relative to the device directory, no link followed, a regular file
 * (sdsi_open_attr): never a write through a link to someone's file.
 */
static int write_once(const struct sdsi_device *dev, const char *name, const uint8_t *blob,
		      size_t len, int *errnum, const char **kind)
{
	ssize_t put;
	int fd;

	fd = sdsi_open_attr(dev, name, O_WRONLY, errnum, kind);
	if (fd < 0)
		return -1;
	put = write(fd, blob, len);
	*errnum = put < 0 ? errno : 0;
	close(fd);
	if (put >= 0 && (size_t)put != len)
		*errnum = EPROTO;
	return *errnum ? -1 : 0;
}

int sdsi_provision(const struct sdsi_device *dev, enum sdsi_blob_kind kind,
		   const uint8_t *blob, size_t len, const struct sdsi_provision_options *opts,
		   struct sdsi_error *err)
{
	unsigned int attempts = 1 + (opts ? opts->busy_retries : 0);
	char path[SDSI_PATH_SIZE + 32];
	unsigned int attempt;
	const char *kind_of_file = NULL;
	int e = 0;

	sdsi_clear_error(err);
	snprintf(path, sizeof(path), "%s/%s", dev->path, sdsi_blob_file(kind));
	for (attempt = 1; attempt <= attempts; attempt++) {
		if (write_once(dev, sdsi_blob_file(kind), blob, len, &e, &kind_of_file) == 0)
			return 0;
		if (kind_of_file || e == ELOOP)
			return sdsi_fail_attr_open(err, dev, sdsi_blob_file(kind), e, kind_of_file,
						   true);
		if (e != EBUSY || attempt == attempts)
			break;
		sleep_ms(opts->busy_delay_ms);
	}
	if (e == EBUSY)
		return sdsi_fail(err, e, SDSI_ERR_IO, -1,
				 "%s: %s (%u attempt%s); retry later or with --retry",
				 path, sdsi_errno_meaning(e, true), attempt, attempt == 1 ? "" : "s");
	if (e == EPROTO)
		return sdsi_fail(err, e, SDSI_ERR_IO, -1, "%s: short write of a %zu-byte %s",
				 path, len, sdsi_blob_name(kind));
	return sdsi_fail(err, e, sdsi_errno_class(e, true), -1, "%s: %s",
			 path, sdsi_errno_meaning(e, true));
}
