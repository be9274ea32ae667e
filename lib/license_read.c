// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a program needs of the licensing library beyond decoding a blob
 * (blob.c): why a file is no licence blob, and whether a file holds a key.
 * Through libsdsi, so that the programs stand on its public API and the
 * licensing library (sdsi_lic_*) stays private to it.
 */
#include <errno.h>
#include <stdlib.h>

#include "sdsi_internal.h"
#include "licensing/sdsi_lic.h"

int sdsi_read_license_blob(const uint8_t *buf, size_t len, struct sdsi_error *err)
{
	struct sdsi_lic_error lerr = { .offset = SDSI_LIC_NO_OFFSET, .reason = "" };
	struct sdsi_lic_blob *lic = malloc(sizeof(*lic));
	long offset;

	sdsi_clear_error(err);
	if (!lic)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	if (sdsi_lic_cap_read(buf, len, lic, NULL, &lerr) == 0) {
		free(lic);
		return 0;
	}
	free(lic);
	offset = lerr.offset == SDSI_LIC_NO_OFFSET ? -1 : (long)lerr.offset;
	return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, offset, "%s", lerr.reason);
}

bool sdsi_fd_holds_key(int fd)
{
	return sdsi_lic_fd_holds_key(fd);
}
