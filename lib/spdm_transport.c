// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The attestation transport: one SPDM request to the part's /dev/isdsiN and
 * its answer (<sdsi/spdm_ioctl.h>).  A kernel driver's misc device takes
 * the SDSI_IF_SPDM_COMMAND ioctl; the emulation's file (sdsi-emu run),
 * which FUSE serves and which therefore cannot take that ioctl, takes one
 * write() of the same structure and answers with one read().  The open
 * descriptor says which it is, so nothing above this file knows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdsi/spdm_ioctl.h"
#include "sdsi_internal.h"

static int transact_ioctl(int fd, struct sdsi_spdm_command *cmd)
{
	return ioctl(fd, SDSI_IF_SPDM_COMMAND, cmd) < 0 ? -errno : 0;
}

static int transact_file(int fd, struct sdsi_spdm_command *cmd)
{
	size_t out = SDSI_SPDM_COMMAND_HDR + cmd->size;
	ssize_t n;

	n = write(fd, cmd, out);
	if (n < 0)
		return -errno;
	if ((size_t)n != out)
		return -EPROTO;
	n = read(fd, cmd, sizeof(*cmd));
	if (n < 0)
		return -errno;
	/* the answer in the request's form: its size, then exactly its bytes */
	if ((size_t)n < SDSI_SPDM_COMMAND_HDR || cmd->size != (size_t)n - SDSI_SPDM_COMMAND_HDR)
		return -EPROTO;
	return 0;
}

int sdsi_spdm_transact(const struct sdsi_device *dev, const uint8_t *req, size_t req_len,
		       uint8_t *rsp, size_t rsp_cap, size_t *rsp_len, struct sdsi_error *err)
{
	struct sdsi_spdm_command cmd;
	char path[64];
	struct stat st;
	int fd, ret;

	sdsi_clear_error(err);
	if (!dev || !req || !rsp || !rsp_len || req_len == 0)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1,
				 "an SPDM exchange needs a device, a request and room for the answer");
	*rsp_len = 0;
	if (req_len > SDSI_SPDM_REQUEST_MAX)
		return sdsi_fail(err, EOVERFLOW, SDSI_ERR_USAGE, -1,
				 "an SPDM request of %zu bytes: the mailbox carries at most %u",
				 req_len, SDSI_SPDM_REQUEST_MAX);
	snprintf(path, sizeof(path), SDSI_SPDM_DEVICE_DIR "/" SDSI_SPDM_DEVICE_PREFIX "%u",
		 dev->devno);
	/* O_NOFOLLOW: the transport is the node itself, never what a link names */
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0) {
		ret = errno;
		if (ret == ENOENT)
			return sdsi_fail(err, ENODEV, SDSI_ERR_NO_DEVICE, -1,
					 "%s: no attestation transport (ENABLED_FEATURES bit 12 "
					 "clear, or a driver without one)", path);
		return sdsi_fail(err, ret, sdsi_errno_class(ret, false), -1, "%s: %s",
				 path, sdsi_errno_meaning(ret, false));
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.size = (__u32)req_len;
	memcpy(cmd.message, req, req_len);
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (S_ISCHR(st.st_mode))
		ret = transact_ioctl(fd, &cmd);
	else if (S_ISREG(st.st_mode))
		ret = transact_file(fd, &cmd);
	else
		ret = -ENODEV;
	close(fd);
	if (ret == -ENODEV)
		return sdsi_fail(err, ENODEV, SDSI_ERR_NO_DEVICE, -1,
				 "%s: not an attestation transport", path);
	if (ret == -EPROTO || (ret == 0 && cmd.size > SDSI_SPDM_RESPONSE_MAX))
		return sdsi_fail(err, EPROTO, SDSI_ERR_IO, -1,
				 "%s: the answer is no struct sdsi_spdm_command", path);
	if (ret < 0)
		return sdsi_fail(err, -ret, sdsi_errno_class(-ret, false), -1, "%s: %s",
				 path, sdsi_errno_meaning(-ret, false));
	if (cmd.size > rsp_cap)
		return sdsi_fail(err, EMSGSIZE, SDSI_ERR_USAGE, -1,
				 "%s: a %u-byte SPDM answer for a %zu-byte buffer",
				 path, cmd.size, rsp_cap);
	memcpy(rsp, cmd.message, cmd.size);
	*rsp_len = cmd.size;
	return 0;
}
