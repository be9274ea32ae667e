/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The header of a licence blob (docs/interface.md section 3.1), decoded in
 * one place: for the licences of a state certificate (libsdsi) and for the
 * CAP codec (licensing/), whose structs for the result differ.  The caller
 * has checked that SDSI_BLOB_HEADER_SIZE bytes are there.
 * Not installed: libsdsi and the licensing codec share it.
 */
#ifndef SDSI_LICENSE_HEADER_H
#define SDSI_LICENSE_HEADER_H

#include <stdint.h>

#include "sdsi/hw.h"
#include "sdsi/le.h"

static inline void sdsi_license_header_get(const uint8_t *blob, uint32_t *type, uint64_t *id,
					   uint64_t *ppin, uint64_t *previous_ppin,
					   uint32_t *revision, uint32_t *bundle_count)
{
	*type = sdsi_le32(blob + SDSI_BLOB_OFF_TYPE);
	*id = sdsi_le64(blob + SDSI_BLOB_OFF_ID);
	*ppin = sdsi_le64(blob + SDSI_BLOB_OFF_PPIN);
	*previous_ppin = sdsi_le64(blob + SDSI_BLOB_OFF_PREV_PPIN);
	*revision = sdsi_le32(blob + SDSI_BLOB_OFF_REVISION);
	*bundle_count = sdsi_le32(blob + SDSI_BLOB_OFF_NUM_BUNDLES);
}

#endif /* SDSI_LICENSE_HEADER_H */
