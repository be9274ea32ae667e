/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DMTF SPDM 1.0 (DSP0274 1.0) as an On Demand part speaks it through the
 * ATTESTATION mailbox command (hw.h, SDSI_CMD_ATTESTATION): the message
 * codes, the byte layouts of the messages this part sends and takes, the
 * error codes and the algorithm bits.  Every message is little-endian and
 * starts with a 4-byte header: SPDMVersion, code, Param1, Param2.  The
 * offsets below count from the start of the message.  Plain constants only,
 * like hw.h, so the model, libsdsi and the tests share one account.
 */
#ifndef SDSI_SPDM_H
#define SDSI_SPDM_H

#define SDSI_SPDM_VERSION_10		0x10u	/* SPDMVersion byte of 1.0 */
#define SDSI_SPDM_VERSION_ENTRY_10	0x1000u	/* VERSION entry: major 1, minor 0 */

/* Header. */
#define SDSI_SPDM_HDR_SIZE		4u
#define SDSI_SPDM_OFF_VERSION		0u
#define SDSI_SPDM_OFF_CODE		1u
#define SDSI_SPDM_OFF_PARAM1		2u
#define SDSI_SPDM_OFF_PARAM2		3u

/* Request codes. */
#define SDSI_SPDM_GET_DIGESTS		0x81u
#define SDSI_SPDM_GET_CERTIFICATE	0x82u
#define SDSI_SPDM_CHALLENGE		0x83u
#define SDSI_SPDM_GET_VERSION		0x84u
#define SDSI_SPDM_GET_MEASUREMENTS	0xE0u
#define SDSI_SPDM_GET_CAPABILITIES	0xE1u
#define SDSI_SPDM_NEGOTIATE_ALGORITHMS	0xE3u
/* Response codes. */
#define SDSI_SPDM_DIGESTS		0x01u
#define SDSI_SPDM_CERTIFICATE		0x02u
#define SDSI_SPDM_CHALLENGE_AUTH	0x03u
#define SDSI_SPDM_VERSION		0x04u
#define SDSI_SPDM_MEASUREMENTS		0x60u
#define SDSI_SPDM_CAPABILITIES		0x61u
#define SDSI_SPDM_ALGORITHMS		0x63u
#define SDSI_SPDM_ERROR			0x7Fu

/* ERROR: Param1 is the code, Param2 the error data (0 for these). */
#define SDSI_SPDM_ERR_INVALID_REQUEST	0x01u
#define SDSI_SPDM_ERR_BUSY		0x03u
#define SDSI_SPDM_ERR_UNEXPECTED_REQUEST 0x04u
#define SDSI_SPDM_ERR_UNSPECIFIED	0x05u
#define SDSI_SPDM_ERR_UNSUPPORTED_REQUEST 0x07u
#define SDSI_SPDM_ERR_VERSION_MISMATCH	0x41u
#define SDSI_SPDM_ERROR_SIZE		4u

/* Sizes of the algorithms this part uses: SHA-384, ECDSA P-384 (r || s). */
#define SDSI_SPDM_HASH_SIZE		48u
#define SDSI_SPDM_SIG_SIZE		96u
#define SDSI_SPDM_NONCE_SIZE		32u

/* VERSION: header, reserved u8, entry count u8, entries u16. */
#define SDSI_SPDM_VERSION_OFF_COUNT	5u
#define SDSI_SPDM_VERSION_OFF_ENTRIES	6u
#define SDSI_SPDM_VERSION_ENTRY_SIZE	2u
#define SDSI_SPDM_VERSION_MAJOR_MINOR	0xff00u	/* update and alpha ignored */

/* CAPABILITIES (1.0): header, reserved, CTExponent u8, reserved u16, Flags u32. */
#define SDSI_SPDM_CAPS_OFF_CT_EXPONENT	5u
#define SDSI_SPDM_CAPS_OFF_FLAGS	8u
#define SDSI_SPDM_CAPS_SIZE		12u
#define SDSI_SPDM_CAP_CACHE		(1u << 0)
#define SDSI_SPDM_CAP_CERT		(1u << 1)
#define SDSI_SPDM_CAP_CHAL		(1u << 2)
#define SDSI_SPDM_CAP_MEAS_SHIFT	3
#define SDSI_SPDM_CAP_MEAS_MASK		(3u << SDSI_SPDM_CAP_MEAS_SHIFT)
#define SDSI_SPDM_CAP_MEAS_NOSIG	(1u << SDSI_SPDM_CAP_MEAS_SHIFT)
#define SDSI_SPDM_CAP_MEAS_SIG		(2u << SDSI_SPDM_CAP_MEAS_SHIFT)
#define SDSI_SPDM_CAP_MEAS_FRESH	(1u << 5)

/*
 * NEGOTIATE_ALGORITHMS: header, Length u16, MeasurementSpecification u8,
 * reserved u8, BaseAsymAlgo u32, BaseHashAlgo u32, reserved 12,
 * ExtAsymCount u8, ExtHashCount u8, reserved u16; then 4 bytes per
 * extended algorithm.  ALGORITHMS: the same up to Length, then
 * MeasurementSpecificationSel u8, reserved u8, MeasurementHashAlgo u32,
 * BaseAsymSel u32, BaseHashSel u32, reserved 12, the two counts, reserved.
 */
#define SDSI_SPDM_NEGO_OFF_LENGTH	4u
#define SDSI_SPDM_NEGO_OFF_MEAS_SPEC	6u
#define SDSI_SPDM_NEGO_OFF_BASE_ASYM	8u
#define SDSI_SPDM_NEGO_OFF_BASE_HASH	12u
#define SDSI_SPDM_NEGO_OFF_EXT_ASYM_COUNT 28u
#define SDSI_SPDM_NEGO_OFF_EXT_HASH_COUNT 29u
#define SDSI_SPDM_NEGO_SIZE		32u
#define SDSI_SPDM_NEGO_EXT_SIZE		4u
#define SDSI_SPDM_ALGS_OFF_LENGTH	4u
#define SDSI_SPDM_ALGS_OFF_MEAS_SPEC	6u
#define SDSI_SPDM_ALGS_OFF_MEAS_HASH	8u
#define SDSI_SPDM_ALGS_OFF_BASE_ASYM	12u
#define SDSI_SPDM_ALGS_OFF_BASE_HASH	16u
#define SDSI_SPDM_ALGS_OFF_EXT_ASYM_COUNT 32u
#define SDSI_SPDM_ALGS_OFF_EXT_HASH_COUNT 33u
#define SDSI_SPDM_ALGS_SIZE		36u
#define SDSI_SPDM_MEAS_SPEC_DMTF	(1u << 0)
#define SDSI_SPDM_ASYM_ECDSA_P384	(1u << 7)
#define SDSI_SPDM_HASH_SHA384		(1u << 1)
#define SDSI_SPDM_MEAS_HASH_SHA384	(1u << 2)

/* DIGESTS: header (Param2 = slot mask), then one digest per slot set. */
#define SDSI_SPDM_DIGESTS_OFF_DIGEST	4u

/* GET_CERTIFICATE: header (Param1 = slot), Offset u16, Length u16. */
#define SDSI_SPDM_GETCERT_OFF_OFFSET	4u
#define SDSI_SPDM_GETCERT_OFF_LENGTH	6u
#define SDSI_SPDM_GETCERT_SIZE		8u
/* CERTIFICATE: header (Param1 = slot), PortionLength u16, RemainderLength u16, portion. */
#define SDSI_SPDM_CERT_OFF_PORTION	4u
#define SDSI_SPDM_CERT_OFF_REMAINDER	6u
#define SDSI_SPDM_CERT_OFF_DATA		8u
/* The largest portion one answer holds: the response limit less the header. */
#define SDSI_SPDM_CERT_PORTION_MAX	(4088u - SDSI_SPDM_CERT_OFF_DATA)	/* 4080 */
#define SDSI_SPDM_SLOT_MASK		0x0fu

/* The certificate chain of a slot: Length u16, reserved u16, RootHash, DER certificates. */
#define SDSI_SPDM_CHAIN_OFF_LENGTH	0u
#define SDSI_SPDM_CHAIN_OFF_ROOT_HASH	4u
#define SDSI_SPDM_CHAIN_OFF_CERTS	(4u + SDSI_SPDM_HASH_SIZE)
#define SDSI_SPDM_CHAIN_MAX		0xffffu

/* CHALLENGE: header (Param1 = slot, Param2 = summary hash type), Nonce. */
#define SDSI_SPDM_CHALLENGE_OFF_NONCE	4u
#define SDSI_SPDM_CHALLENGE_SIZE	(4u + SDSI_SPDM_NONCE_SIZE)	/* 36 */
#define SDSI_SPDM_SUMMARY_NONE		0x00u
#define SDSI_SPDM_SUMMARY_TCB		0x01u
#define SDSI_SPDM_SUMMARY_ALL		0xFFu
/*
 * CHALLENGE_AUTH: header (Param1 = slot, Param2 = slot mask), CertChainHash,
 * Nonce, MeasurementSummaryHash (absent when none was asked), OpaqueLength
 * u16, OpaqueData, Signature.
 */
#define SDSI_SPDM_AUTH_OFF_CHAIN_HASH	4u
#define SDSI_SPDM_AUTH_OFF_NONCE	(4u + SDSI_SPDM_HASH_SIZE)
#define SDSI_SPDM_AUTH_OFF_SUMMARY	(SDSI_SPDM_AUTH_OFF_NONCE + SDSI_SPDM_NONCE_SIZE)
#define SDSI_SPDM_OPAQUE_LEN_SIZE	2u	/* OpaqueLength u16, in CHALLENGE_AUTH and MEASUREMENTS */
#define SDSI_SPDM_OPAQUE_MAX		1024u	/* DSP0274: OpaqueLength at most 1024 */
#define SDSI_SPDM_AUTH_SLOT_MASK	0x0fu	/* Param1 bits 3:0: the slot */

/*
 * GET_MEASUREMENTS: header (Param1 bit 0 = signature asked, Param2 = what),
 * and the requester's Nonce when a signature is asked.
 */
#define SDSI_SPDM_MEAS_ATTR_SIGNED	(1u << 0)
#define SDSI_SPDM_MEAS_COUNT		0x00u
#define SDSI_SPDM_MEAS_ALL		0xFFu
#define SDSI_SPDM_GETMEAS_SIZE		4u
#define SDSI_SPDM_GETMEAS_SIGNED_SIZE	(4u + SDSI_SPDM_NONCE_SIZE)	/* 36 */
/*
 * MEASUREMENTS: header (Param1 = the count when it was asked for),
 * NumberOfBlocks u8, MeasurementRecordLength u24, the record, Nonce,
 * OpaqueLength u16, OpaqueData, Signature when asked.
 */
#define SDSI_SPDM_MEAS_OFF_BLOCKS	4u
#define SDSI_SPDM_MEAS_OFF_RECORD_LEN	5u
#define SDSI_SPDM_MEAS_OFF_RECORD	8u
/*
 * A measurement block: Index u8, MeasurementSpecification u8, MeasurementSize
 * u16, then the DMTF measurement: value type u8, value size u16, value.
 */
#define SDSI_SPDM_BLOCK_HDR_SIZE	4u
#define SDSI_SPDM_DMTF_HDR_SIZE		3u
#define SDSI_SPDM_BLOCK_SIZE		(SDSI_SPDM_BLOCK_HDR_SIZE + SDSI_SPDM_DMTF_HDR_SIZE + \
					 SDSI_SPDM_HASH_SIZE)	/* 55 */
#define SDSI_SPDM_BLOCK_OFF_INDEX	0u
#define SDSI_SPDM_BLOCK_OFF_SPEC	1u
#define SDSI_SPDM_BLOCK_OFF_SIZE	2u
#define SDSI_SPDM_DMTF_OFF_TYPE		0u	/* from the DMTF measurement's start */
#define SDSI_SPDM_DMTF_OFF_VALUE_SIZE	1u
#define SDSI_SPDM_DMTF_TYPE_RAW		0x80u	/* bit 7: a raw bit stream, not a digest */
#define SDSI_SPDM_DMTF_TYPE_ROM		0x00u
#define SDSI_SPDM_DMTF_TYPE_HW_CONFIG	0x02u

/*
 * What this part measures (ours; Intel publishes no meaning): index 1 the
 * SHA-384 of the bytes READ_STATE_CERT answers, index 2 that of the bytes
 * READ_METER_CERT answers (on a part that meters), both hardware
 * configuration values.
 */
#define SDSI_SPDM_MEAS_INDEX_STATE	1u
#define SDSI_SPDM_MEAS_INDEX_METER	2u

#endif /* SDSI_SPDM_H */
