/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tests' own CRC-32 (IEEE 802.3, reflected: docs/model.md), to write
 * NVRAM files byte by byte, independently of the model's encoder.  One
 * oracle for every test; test_nvram_bounds checks it on the standard check
 * value, and each file it seals loading proves the model's CRC agrees.
 */
#ifndef SDSI_TESTS_UNIT_MODEL_NVRAM_CRC_H
#define SDSI_TESTS_UNIT_MODEL_NVRAM_CRC_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_ieee(const uint8_t *p, size_t len);

#endif /* SDSI_TESTS_UNIT_MODEL_NVRAM_CRC_H */
