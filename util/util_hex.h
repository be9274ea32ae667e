/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Bytes as lower-case hex digits, as every output of the project prints them. */
#ifndef SDSI_UTIL_HEX_H
#define SDSI_UTIL_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The room util_hex() needs for n bytes, NUL included. */
#define UTIL_HEX_SIZE(n)	(2 * (n) + 1)

/* The room util_hex_key_image() needs for an image of n bytes: "0x", digits, NUL. */
#define UTIL_KEY_IMAGE_HEX_SIZE(n)	(2 + 2 * (n) + 1)

/* Two digits a byte, first byte first, then a NUL. */
void util_hex(char *out, const void *bytes, size_t len);

/*
 * A license key image as the upstream intel_sdsi prints it and as our JSON
 * carries it: "0x", then the last byte first (the image's little-endian
 * qwords read as one number), then a NUL.
 */
void util_hex_key_image(char *out, const uint8_t *image, size_t len);

#endif /* SDSI_UTIL_HEX_H */
