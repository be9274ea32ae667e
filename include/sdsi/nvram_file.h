/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's socket<N>.nvram file (docs/model.md): a 16-byte header (magic,
 * version, body length), the body, then a CRC-32 of everything before it.
 * Little-endian.  Offsets are from the start of the file.  The sizes that
 * depend on the model's own limits (how many licences and meters) stay in
 * model/nvram_file.c.
 */
#ifndef SDSI_NVRAM_FILE_H
#define SDSI_NVRAM_FILE_H

#define SDSI_NVRAM_MAGIC		"SDSINVRM"
#define SDSI_NVRAM_MAGIC_LEN		8u
/* Version 2 added the licensor key and the meters; version 1 still loads. */
#define SDSI_NVRAM_VERSION		2u
#define SDSI_NVRAM_HEADER_LEN		16u	/* magic, version, body length */
#define SDSI_NVRAM_V1_FIXED_BODY_LEN	80u	/* body up to the licence list */
#define SDSI_NVRAM_FIXED_BODY_LEN	196u	/* body up to the meter table */
#define SDSI_NVRAM_METER_LEN		20u	/* code, total ns, latched ns */
#define SDSI_NVRAM_METER_OFF_TOTAL	4u	/* u64, from the entry's start */
#define SDSI_NVRAM_METER_OFF_LATCHED	12u	/* u64 */
#define SDSI_NVRAM_CRC_LEN		4u
#define SDSI_NVRAM_FLAG_KEY		(1u << 0)
#define SDSI_NVRAM_FLAG_LICENSOR_KEY	(1u << 1)

#define SDSI_NVRAM_OFF_VERSION		8u
#define SDSI_NVRAM_OFF_BODY_LEN		12u
#define SDSI_NVRAM_OFF_GUID		16u
#define SDSI_NVRAM_OFF_SOCKET		20u
#define SDSI_NVRAM_OFF_PPIN		24u
#define SDSI_NVRAM_OFF_FLAGS		32u
#define SDSI_NVRAM_OFF_KEY_REV		36u
#define SDSI_NVRAM_OFF_KEY_IMAGE	40u
#define SDSI_NVRAM_OFF_WEAR		88u
#define SDSI_NVRAM_OFF_NUM_LIC		92u
#define SDSI_NVRAM_OFF_V1_LICENSES	96u	/* version 1: the licence list */
#define SDSI_NVRAM_OFF_LICENSOR		96u	/* version 2: the licensor key */
#define SDSI_NVRAM_OFF_POWERED		192u
#define SDSI_NVRAM_OFF_LATCHED		200u
#define SDSI_NVRAM_OFF_NUM_METERS	208u
#define SDSI_NVRAM_OFF_METERS		212u

/*
 * The CRC-32 that ends the file (IEEE 802.3, reflected, as zlib's crc32),
 * over every byte before it: enough to catch torn or edited files.
 */
static inline unsigned int sdsi_nvram_crc32(const unsigned char *p, unsigned long len)
{
	unsigned int crc = 0xffffffffu;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

#endif /* SDSI_NVRAM_FILE_H */
