// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoder of the meter certificate (docs/interface.md §3.2), and of the
 * four-character codes both certificates use (section 3.3).  The bundle
 * length is the byte length of the (encoding, counter) pairs after the MMRC
 * pair, as the upstream tool reads it.
 */
#include <errno.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi_internal.h"

void sdsi_fourcc(uint32_t code, char text[5])
{
	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)(code >> (24 - 8 * i));

		text[i] = c >= 0x20 && c < 0x7f ? (char)c : '.';
	}
	text[4] = '\0';
}

void sdsi_meter_counter(const struct sdsi_meter_cert *cert, uint32_t i,
			uint32_t *encoding, uint32_t *count)
{
	const uint8_t *pair;

	if (i >= cert->num_counters) {
		*encoding = 0;
		*count = 0;
		return;
	}
	pair = cert->counters + (size_t)i * SDSI_METER_PAIR_SIZE;
	*encoding = sdsi_le32(pair);
	*count = sdsi_le32(pair + SDSI_METER_PAIR_OFF_COUNTER);
}

int sdsi_decode_meter_cert(const uint8_t *buf, size_t len, struct sdsi_meter_cert *cert,
			   struct sdsi_error *err)
{
	char sig[5];
	int ret;

	sdsi_clear_error(err);
	memset(cert, 0, sizeof(*cert));
	ret = sdsi_check_cert_header("meter certificate", len, SDSI_METER_HEADER_SIZE, err);
	if (ret)
		return ret;
	cert->signature = sdsi_le32(buf + SDSI_METER_OFF_SIGNATURE);
	cert->version = sdsi_le32(buf + SDSI_METER_OFF_VERSION);
	cert->ppin = sdsi_le64(buf + SDSI_METER_OFF_PPIN);
	cert->unit_ms = sdsi_le32(buf + SDSI_METER_OFF_UNIT);
	cert->bundle_length = sdsi_le32(buf + SDSI_METER_OFF_BUNDLE_LENGTH);
	cert->mmrc_encoding = sdsi_le32(buf + SDSI_METER_OFF_MMRC_ENCODING);
	cert->mmrc_counter = sdsi_le32(buf + SDSI_METER_OFF_MMRC_COUNTER);

	if (cert->signature != SDSI_METER_SIGNATURE) {
		sdsi_fourcc(cert->signature, sig);
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_METER_OFF_SIGNATURE,
				 "meter certificate: signature 0x%08x ('%s') is not 'MTDB'",
				 cert->signature, sig);
	}
	if (cert->bundle_length % SDSI_METER_PAIR_SIZE)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_METER_OFF_BUNDLE_LENGTH,
				 "meter certificate: bundle length %u is not a multiple of %u",
				 cert->bundle_length, SDSI_METER_PAIR_SIZE);
	if (cert->bundle_length / SDSI_METER_PAIR_SIZE > SDSI_METER_MAX_PAIRS)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_METER_OFF_BUNDLE_LENGTH,
				 "meter certificate: bundle length %u means %u counters, at most %u fit in %u bytes",
				 cert->bundle_length, cert->bundle_length / SDSI_METER_PAIR_SIZE,
				 SDSI_METER_MAX_PAIRS, SDSI_READ_BUF_SIZE);
	if ((size_t)SDSI_METER_HEADER_SIZE + cert->bundle_length > len)
		return sdsi_fail(err, EBADMSG, SDSI_ERR_MALFORMED, SDSI_METER_OFF_BUNDLE_LENGTH,
				 "meter certificate: bundle length %u runs past the end (%zu bytes present, need %u)",
				 cert->bundle_length, len, SDSI_METER_HEADER_SIZE + cert->bundle_length);
	if (cert->mmrc_encoding != SDSI_METER_MMRC)
		cert->warnings |= SDSI_METER_WARN_MMRC;
	cert->num_counters = cert->bundle_length / SDSI_METER_PAIR_SIZE;
	cert->counters = buf + SDSI_METER_HEADER_SIZE;
	return 0;
}
