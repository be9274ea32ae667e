// SPDX-License-Identifier: GPL-2.0-only
/*
 * ATTESTATION (0x1012): the mailbox frame around SPDM (docs/interface.md,
 * "Attestation").  The request packet is the SPDM message zero-padded to a
 * qword, a qword with its unpadded length and the command qword; the
 * answer is the SPDM response padded to a qword and a qword with its
 * unpadded length, read back in up to four packets.  A frame the firmware
 * cannot take (lengths that disagree, MSG_SIZE not the packet's) fails with
 * status 0x90 as an unknown command does; a request it can take always gets
 * an SPDM response, an ERROR if nothing else.
 */
#include "model_priv.h"

uint32_t attest_frame_response(const uint8_t *rsp, uint32_t len, uint8_t *out)
{
	uint32_t padded = (len + 7) / 8 * 8;

	if (!len || len > SDSI_ATTEST_RESPONSE_MAX)
		return 0;
	memmove(out, rsp, len);
	memset(out + len, 0, padded - len);
	sdsi_put_le64(out + padded, len);
	return padded + 8;
}

uint32_t attest_execute(struct sdsi_model *m, const uint8_t *packet,
			uint32_t size, uint32_t msg_size, uint8_t *out)
{
	uint8_t rsp[SDSI_ATTEST_RESPONSE_MAX];
	uint64_t len;
	uint32_t rsp_len;

	sdsi_assert_held(&m->lock);
	if (size < SDSI_ATTEST_FRAME_EXTRA + 8 || msg_size != size)
		return 0;
	len = sdsi_le64(packet + size - SDSI_ATTEST_FRAME_EXTRA);
	if (!len || (len + 7) / 8 * 8 + SDSI_ATTEST_FRAME_EXTRA != size)
		return 0;
	rsp_len = spdm_respond(m, packet, (uint32_t)len, rsp);
	return attest_frame_response(rsp, rsp_len, out);
}
