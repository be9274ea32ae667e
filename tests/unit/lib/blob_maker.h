/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AKCs and CAPs for the libsdsi tests, issued by the licensing library with
 * keys generated for the test run (the keys stay inside blob_maker.c).
 */
#ifndef SDSI_TESTS_UNIT_LIB_BLOB_MAKER_H
#define SDSI_TESTS_UNIT_LIB_BLOB_MAKER_H

#include <stddef.h>
#include <stdint.h>

#include <sdsi/license_blob.h>

#define MAKER_CAP_HEADER	SDSI_CAP_BLOB_OFFSET
#define MAKER_SIGNATURE		SDSI_LICENSE_SIG_SIZE

/* Generate the root key and two licensor keys; 0 on success. */
int maker_setup(void);
void maker_teardown(void);

/* An AKC for licensor key 0 or 1, signed by the root; image is its key image. */
size_t maker_akc(unsigned int licensor, uint32_t key_revision, uint8_t *buf, size_t size,
		 uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE]);

/* A CAP with features "FT00", "FT01", ... signed by licensor key 0. */
size_t maker_cap(uint32_t type, uint64_t id, uint64_t ppin, uint32_t revision,
		 uint32_t features, uint8_t *buf, size_t size);

#endif /* SDSI_TESTS_UNIT_LIB_BLOB_MAKER_H */
