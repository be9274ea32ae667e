// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-spdm-pipe: one emulated socket whose ATTESTATION service a test
 * drives through stdin and stdout, the way a driver would: every exchange
 * is the driver core's sdsi_mbox_exchange() over the hardware model's MMIO
 * traps (the code our drivers run), with no SPDM knowledge here.  Test
 * only, never installed; the transcript test (tests/integration/platform/
 * test_spdm_transcript.py) is its user.
 *
 *   sdsi-spdm-pipe STATE_DIR AUTHORITY_DIR|- [SOCKET [FEATURES]]
 *
 * Requests on stdin: one byte op, a u32 length (little-endian), that many
 * bytes.  Ops: 'X' an SPDM request to exchange; 'S' read the state
 * certificate, 'M' the meter certificate; 'P' power cycle; 'F' arm a fault
 * ("KIND COUNT"); 'C' clear every fault.  Each reply on stdout: an i32 (0 or
 * -errno), a u32 length, that many bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi/le.h"
#include "backends/inproc/inproc_mbox.h"
#include "drivers/core/sdsi_mbox.h"
#include "model/sdsi_model.h"

static void reply(int ret, const uint8_t *data, uint32_t len)
{
	uint8_t head[8];

	sdsi_put_le32(head, (uint32_t)ret);
	sdsi_put_le32(head + 4, len);
	fwrite(head, 1, sizeof(head), stdout);
	fwrite(data, 1, len, stdout);
	fflush(stdout);
}

static int fault(struct sdsi_model *m, const uint8_t *arg, uint32_t len)
{
	char text[64], name[48];
	enum sdsi_fault_kind kind;
	unsigned int count;

	if (len >= sizeof(text))
		return -EINVAL;
	memcpy(text, arg, len);
	text[len] = '\0';
	if (sscanf(text, "%47s %u", name, &count) != 2 ||
	    sdsi_fault_from_name(name, &kind))
		return -EINVAL;
	return sdsi_model_fault_set(m, kind, 0, count);
}

static int serve(struct sdsi_model *m, struct sdsi_mbox *mb)
{
	static uint8_t in[SDSI_MBOX_SIZE * 2], out[SDSI_READ_MSG_MAX];
	uint8_t head[5];
	uint32_t len;
	size_t n;
	int ret;

	while (fread(head, 1, sizeof(head), stdin) == sizeof(head)) {
		len = sdsi_le32(head + 1);
		if (len > sizeof(in) || fread(in, 1, len, stdin) != len)
			return 1;
		n = 0;
		switch (head[0]) {
		case 'X':
			ret = sdsi_mbox_exchange(mb, in, len, out, &n);
			break;
		case 'S':
			ret = sdsi_mbox_read(mb, SDSI_CMD_READ_STATE, false, out, &n);
			break;
		case 'M':
			ret = sdsi_mbox_read(mb, SDSI_CMD_READ_METER, false, out, &n);
			break;
		case 'P':
			ret = sdsi_model_power_cycle(m);
			break;
		case 'F':
			ret = fault(m, in, len);
			break;
		case 'C':
			sdsi_model_fault_clear_all(m);
			ret = 0;
			break;
		default:
			return 1;
		}
		reply(ret, out, (uint32_t)n);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char cert[4096], key[4096], err[512];
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2,
		.features = SDSI_MODEL_DEFAULT_FEATURES,
	};
	struct sdsi_model *m;
	struct sdsi_mbox mb;
	int ret;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s STATE_DIR AUTHORITY_DIR|- [SOCKET [FEATURES]]\n",
			argv[0]);
		return 2;
	}
	cfg.state_dir = argv[1];
	if (strcmp(argv[2], "-")) {
		snprintf(cert, sizeof(cert), "%s/attestation-root.pem", argv[2]);
		snprintf(key, sizeof(key), "%s/attestation-root.key", argv[2]);
		cfg.attest_root_cert_path = cert;
		cfg.attest_root_key_path = key;
	}
	if (argc > 3)
		cfg.socket_index = (unsigned int)strtoul(argv[3], NULL, 0);
	if (argc > 4)
		cfg.features = strtoull(argv[4], NULL, 0);
	ret = sdsi_model_create(&cfg, &m, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return 1;
	}
	ret = sdsi_mbox_init(&mb, cfg.guid, &inproc_mbox_ops, m, NULL);
	if (!ret)
		ret = serve(m, &mb);
	if (sdsi_model_violation_count(m))
		fprintf(stderr, "%s: %llu protocol violations\n", argv[0],
			(unsigned long long)sdsi_model_violation_count(m));
	sdsi_model_destroy(m);
	return ret ? 1 : 0;
}
