// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Provisioning: the pre-flight checks that keep a doomed blob from burning one
 * of the few attempts a socket allows per power cycle, and the single write
 * the driver turns into a PROVISION_AKC or PROVISION_CAP mailbox command.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sdsi/hw.h"
#include "sdsi_internal.h"

const char *sdsi_blob_file(enum sdsi_blob_kind kind)
{
	return kind == SDSI_BLOB_AKC ? "provision_akc" : "provision_cap";
}

const char *sdsi_blob_name(enum sdsi_blob_kind kind)
{
	return kind == SDSI_BLOB_AKC ? "AKC" : "CAP";
}

static int check_layout(const struct sdsi_registers *regs, struct sdsi_error *err)
{
	size_t expected;

	if (!regs->guid_known)
		return sdsi_fail(err, ENOTSUP, SDSI_ERR_REFUSED, -1,
				 "unrecognized GUID 0x%x: refusing to provision an unknown register layout",
				 regs->guid);
	expected = regs->guid == SDSI_GUID_V1 ? SDSI_REGS_SIZE_V1 : SDSI_REGS_SIZE_V2;
	if (regs->size != expected)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_REFUSED, -1,
				 "registers: %zu bytes, GUID 0x%x has %zu: refusing to provision on a layout that does not match",
				 regs->size, regs->guid, expected);
	return 0;
}

int sdsi_preflight(const struct sdsi_registers *regs, enum sdsi_blob_kind kind,
		   size_t blob_len, struct sdsi_preflight *pf, struct sdsi_error *err)
{
	const char *name = sdsi_blob_name(kind);
	unsigned int count, threshold;
	int ret;

	sdsi_clear_error(err);
	memset(pf, 0, sizeof(*pf));
	ret = check_layout(regs, err);
	if (ret)
		return ret;
	if (blob_len == 0)
		return sdsi_fail(err, ENODATA, SDSI_ERR_REFUSED, -1, "the %s file is empty", name);
	if (blob_len > SDSI_BLOB_MAX)
		return sdsi_fail(err, EOVERFLOW, SDSI_ERR_REFUSED, -1,
				 "the %s file is %zu bytes, the mailbox takes at most %u",
				 name, blob_len, SDSI_BLOB_MAX);
	if (!regs->on_demand)
		return sdsi_fail(err, EPERM, SDSI_ERR_REFUSED, -1,
				 "On Demand feature is present but not enabled: unable to provision");
	if (regs->updates_available == 0)
		return sdsi_fail(err, EDQUOT, SDSI_ERR_REFUSED, -1,
				 "Maximum number of updates (%u) has been reached. Power cycle the system to provision again",
				 regs->updates_threshold);
	count = kind == SDSI_BLOB_AKC ? regs->akc_fail_count : regs->cap_fail_count;
	threshold = kind == SDSI_BLOB_AKC ? regs->akc_fail_threshold : regs->cap_fail_threshold;
	if (count >= threshold)
		return sdsi_fail(err, EDQUOT, SDSI_ERR_REFUSED, -1,
				 "Maximum number of %s provision failures (%u) has been reached. Power cycle the system to reset the counter",
				 name, threshold);
	if (kind == SDSI_BLOB_CAP && !regs->akc_provisioned)
		return sdsi_fail(err, ENOKEY, SDSI_ERR_REFUSED, -1,
				 "no AKC is provisioned: the CAP could not be authenticated; provision the AKC first");
	if (count + 1 == threshold) {
		pf->last_attempt = true;
		snprintf(pf->warning, sizeof(pf->warning),
			 "%u of %u %s failures used: if this attempt fails, %s provisioning is blocked until a power cycle",
			 count, threshold, name, name);
	}
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int write_once(const char *path, const uint8_t *blob, size_t len, int *errnum)
{
	ssize_t put;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*errnum = errno;
		return -1;
	}
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
	int e = 0;

	sdsi_clear_error(err);
	snprintf(path, sizeof(path), "%s/%s", dev->path, sdsi_blob_file(kind));
	for (attempt = 1; attempt <= attempts; attempt++) {
		if (write_once(path, blob, len, &e) == 0)
			return 0;
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
