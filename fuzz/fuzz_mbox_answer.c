// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver core against a hostile device (docs/fuzzing.md): every 64-bit
 * read of the control register, the mailbox and the registers returns the
 * input's next eight bytes (zeros once they run out), whatever was written,
 * so the answer the core parses (RDY, packet and message sizes, the
 * packets, an attestation answer's length qword) is the fuzzer's.  The
 * first byte picks the transaction by its two low bits: an ATTESTATION
 * exchange (sdsi_mbox_exchange), a state certificate read, a meter_current
 * read, or a CAP write; bit 2 gives the device the V1 GUID, bit 3 the early
 * ABI.  The next two bytes size the request (1..1008 for an exchange,
 * 0..1016 for a write); its bytes are a fixed pattern.
 *
 * Time is the harness's own: a sleep moves it on by its length and each
 * reading of the clock by 1 us, so every timeout ends after a bounded
 * number of polls.
 *
 * Invariants: the call returns 0 or one of the errors its header names;
 * on success an exchange's length is at most 4088 and a read's at most
 * 4096 (the buffers are exactly SDSI_READ_MSG_MAX, so AddressSanitizer
 * sees any byte past them); and the call ends within 10^6 device reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sdsi/abi.h"
#include "sdsi/hw.h"
#include "drivers/core/sdsi_mbox.h"

#define MAX_READS	1000000u

struct hostile_device {
	struct fuzz_input in;
	uint64_t now_us;
	unsigned int reads;
};

static uint64_t dev_read64(void *ctx, uint32_t offset)
{
	struct hostile_device *dev = ctx;

	(void)offset;
	dev->reads++;
	FUZZ_CHECK(dev->reads <= MAX_READS, "%u device reads: the core does not stop",
		   dev->reads);
	return fuzz_take(&dev->in, 8);
}

static void dev_write64(void *ctx, uint32_t offset, uint64_t value)
{
	(void)ctx;
	(void)offset;
	(void)value;
}

static void dev_sleep_us(void *ctx, uint32_t us)
{
	struct hostile_device *dev = ctx;

	dev->now_us += us;
}

static uint64_t dev_now_us(void *ctx)
{
	struct hostile_device *dev = ctx;

	return ++dev->now_us;
}

static const struct sdsi_mbox_ops hostile_ops = {
	.read64 = dev_read64,
	.write64 = dev_write64,
	.sleep_us = dev_sleep_us,
	.now_us = dev_now_us,
};

static int known_mailbox_error(int ret)
{
	return ret == -EBUSY || ret == -ETIMEDOUT || ret == -EIO || ret == -EPROTO;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hostile_device dev = { .in = { data, size } };
	struct sdsi_mbox_params params;
	struct sdsi_mbox mb;
	uint8_t mode, *request, *answer;
	size_t req_len, len = 0;
	int ret;

	mode = (uint8_t)fuzz_take(&dev.in, 1);
	req_len = (size_t)fuzz_take(&dev.in, 2);
	sdsi_mbox_default_params(&params);
	params.flavor = mode & 8 ? SDSI_ABI_EARLY : SDSI_ABI_CURRENT;
	ret = sdsi_mbox_init(&mb, mode & 4 ? SDSI_GUID_V1 : SDSI_GUID_V2, &hostile_ops,
			     &dev, &params);
	FUZZ_CHECK(ret == 0, "init: %d", ret);

	/* Exactly the sizes the header promises to stay within. */
	request = malloc(SDSI_WRITE_PAYLOAD_MAX);
	answer = malloc(SDSI_READ_MSG_MAX);
	if (!request || !answer)
		abort();
	for (size_t i = 0; i < SDSI_WRITE_PAYLOAD_MAX; i++)
		request[i] = (uint8_t)(i * 7 + 1);

	switch (mode & 3) {
	case 0:
		req_len = 1 + req_len % SDSI_ATTEST_REQUEST_MAX;
		ret = sdsi_mbox_exchange(&mb, request, req_len, answer, &len);
		FUZZ_CHECK(ret == 0 || known_mailbox_error(ret), "exchange: %d", ret);
		FUZZ_CHECK(ret || len <= SDSI_ATTEST_RESPONSE_MAX, "exchange: %zu bytes", len);
		break;
	case 1:
	case 2:
		ret = sdsi_mbox_read(&mb, (mode & 3) == 1 ? SDSI_CMD_READ_STATE :
				     SDSI_CMD_READ_METER, (mode & 3) == 2, answer, &len);
		FUZZ_CHECK(ret == 0 || known_mailbox_error(ret), "read: %d", ret);
		FUZZ_CHECK(ret || len <= SDSI_READ_MSG_MAX, "read: %zu bytes", len);
		break;
	default:
		req_len %= SDSI_WRITE_PAYLOAD_MAX + 1;
		ret = sdsi_mbox_write(&mb, SDSI_CMD_PROVISION_CAP, request, req_len);
		FUZZ_CHECK(ret == 0 || known_mailbox_error(ret), "write: %d", ret);
		break;
	}
	free(request);
	free(answer);
	return 0;
}
