// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver core, transactions that reach firmware: certificate reads, the
 * framing of provisioning writes and the control words of both flavours.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <sdsi/le.h>

#include "core_rig.h"
#include "util/util_array.h"

#define CANARY		0xeeu
#define READ_REQUEST	(SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | \
			 (8ull << SDSI_CTRL_PACKET_SIZE_SHIFT))
#define WRITE_REQUEST	(SDSI_CTRL_EOM | SDSI_CTRL_SOM | SDSI_CTRL_RUN_BUSY | \
			 SDSI_CTRL_READ_WRITE)


static unsigned int akc_failures(struct core_rig *rig)
{
	return (unsigned int)((rig_register(rig, SDSI_REG_FAIL_COUNT) >>
			       SDSI_FAIL_AKC_COUNT_SHIFT) & SDSI_FIELD3_MASK);
}

/* After any transaction the mailbox must be back in firmware's hands. */
static void assert_released(struct core_rig *rig)
{
	assert_int_equal(rig_last_ctrl_write(rig), SDSI_CTRL_CPL);
	assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
}

static size_t read_cert(struct core_rig *rig, uint64_t command,
			bool meter_current)
{
	size_t len = 12345;

	memset(rig->buf, CANARY, sizeof(rig->buf));
	rig_clear_log(rig);
	assert_int_equal(sdsi_mbox_read(&rig->mb, command, meter_current,
					rig->buf, &len), 0);
	return len;
}

static void test_state_certificate_single_packet(void **state)
{
	struct core_rig *rig = *state;
	size_t len, copied, i;

	len = read_cert(rig, SDSI_CMD_READ_STATE, false);
	assert_in_range(len, SDSI_STATE_HEADER_SIZE, SDSI_MBOX_SIZE);

	/* One request, one packet, one release; nothing to retry. */
	assert_int_equal(rig->log.requests, 1);
	assert_int_equal(rig->log.mbox_written[0], SDSI_CMD_READ_STATE);
	assert_int_equal(rig->log.ctrl_writes, 2);
	assert_int_equal(rig->log.ctrl_log[0], READ_REQUEST);
	assert_released(rig);
	assert_int_equal(rig->log.retry_sleeps, 0);
	assert_int_equal(rig->log.warnings, 0);

	/* Whole qwords were copied, and not a byte more. */
	copied = (len + 7) & ~(size_t)7;
	for (i = copied; i < copied + 8; i++)
		assert_int_equal(rig->buf[i], CANARY);
	/* A socket fresh from the factory has no key and no licence. */
	assert_int_equal(sdsi_le32(rig->buf), SDSI_STATE_CONTENT_EMPTY);
}

static void test_meter_current_sets_bit_33(void **state)
{
	struct core_rig *rig = *state;
	size_t len;

	len = read_cert(rig, SDSI_CMD_READ_METER, true);
	assert_in_range(len, SDSI_METER_HEADER_SIZE, SDSI_READ_MSG_MAX);
	assert_int_equal(rig->log.mbox_written[0], SDSI_CMD_READ_METER);
	assert_int_equal(rig->log.ctrl_log[0],
			 READ_REQUEST | SDSI_CTRL_METER_CURRENT);
	assert_released(rig);
	assert_int_equal(sdsi_le32(rig->buf), SDSI_METER_SIGNATURE);
	assert_int_equal(sdsi_le64(rig->buf + 8), RIG_PPIN);

	len = read_cert(rig, SDSI_CMD_READ_METER, false);
	assert_int_equal(rig->log.ctrl_log[0], READ_REQUEST);
	assert_int_equal(sdsi_le32(rig->buf), SDSI_METER_SIGNATURE);
	assert_released(rig);
}

/*
 * Certificates of one full packet, two, three and four packets: every packet
 * appears at mailbox offset 0 and lands at the running offset of the buffer.
 */
static void test_state_certificate_packets(void **state)
{
	static const struct {
		size_t blob_len, cert_len;
		unsigned int packets;
	} cases[] = {
		{ 944, 1024, 1 },
		{ 1500, 1584, 2 },
		{ 2500, 2592, 3 },
		{ 4016, 4096, 4 },
	};
	static unsigned char expected[SDSI_READ_MSG_MAX];
	unsigned int c, i;

	for (c = 0; c < UTIL_ARRAY_SIZE(cases); c++) {
		struct core_rig *rig = rig_new(SDSI_GUID_V2,
					       SDSI_ABI_CURRENT);
		size_t len;

		rig_install_license(rig, cases[c].blob_len);
		assert_int_equal(rig_state_cert(rig, expected),
				 cases[c].cert_len);

		len = read_cert(rig, SDSI_CMD_READ_STATE, false);
		assert_int_equal(len, cases[c].cert_len);
		assert_memory_equal(rig->buf, expected, len);
		assert_int_equal(sdsi_le32(rig->buf),
				 SDSI_STATE_CONTENT_KEY_BLOBS);

		/* The request, then one CPL per packet; sizes agreed. */
		assert_int_equal(rig->log.ctrl_writes, 1 + cases[c].packets);
		for (i = 1; i <= cases[c].packets; i++)
			assert_int_equal(rig->log.ctrl_log[i], SDSI_CTRL_CPL);
		assert_int_equal(rig_owner(rig), SDSI_OWNER_NONE);
		assert_int_equal(rig->log.warnings, 0);
		rig_free(rig);
	}
}

/*
 * A wrong MSG_SIZE is only a warning, and only checked when the message
 * spans several packets (firmware need not fill it for one).
 */
static void test_msg_size_mismatch_warns(void **state)
{
	struct core_rig *rig = *state;
	size_t len;

	rig->msg_size_skew = 8;
	read_cert(rig, SDSI_CMD_READ_STATE, false);
	assert_int_equal(rig->log.warnings, 0);

	rig_install_license(rig, 1500);
	len = read_cert(rig, SDSI_CMD_READ_STATE, false);
	assert_int_equal(len, 1584);
	assert_int_equal(rig->log.warnings, 1);
	/* Linux's words and numbers: what was read, what firmware said. */
	assert_string_equal(rig->log.last_warning,
			    "Read count 1584 differs from expected count 1592");
	/* A dev_warn() in Linux: the certificate is still returned. */
	assert_int_equal(rig->log.last_level, SDSI_MBOX_WARN);
	assert_released(rig);

	rig->msg_size_skew = 0;
	read_cert(rig, SDSI_CMD_READ_STATE, false);
	assert_int_equal(rig->log.warnings, 0);
}

/*
 * A write answered by a message of several packets: the core keeps no
 * answer of a write, yet counts its bytes, so a MSG_SIZE that disagrees
 * gets Linux's warning as for a read (one byte off on each side of the
 * right count), and the right one none.
 */
static void test_write_answer_size_mismatch_warns(void **state)
{
	static const unsigned char junk[13] = "thirteen-byte";
	static const uint32_t msg_sizes[] = { SDSI_MBOX_SIZE + 39, SDSI_MBOX_SIZE + 41,
					      SDSI_MBOX_SIZE + 40 };
	struct core_rig *rig = *state;
	char want[96];
	size_t i;
	int ret;

	rig->write_answer_packets = 2;
	rig->write_answer_last = 40;
	for (i = 0; i < UTIL_ARRAY_SIZE(msg_sizes); i++) {
		rig->write_answer_msg_size = msg_sizes[i];
		rig_clear_log(rig);
		ret = sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC, junk, sizeof(junk));
		assert_int_equal(ret, 0);
		/* The request, then one CPL per packet. */
		assert_int_equal(rig->log.ctrl_writes, 3);
		assert_released(rig);
		if (msg_sizes[i] == SDSI_MBOX_SIZE + 40) {
			assert_int_equal(rig->log.warnings, 0);
			continue;
		}
		assert_int_equal(rig->log.warnings, 1);
		snprintf(want, sizeof(want), "Read count %u differs from expected count %u",
			 SDSI_MBOX_SIZE + 40, msg_sizes[i]);
		assert_string_equal(rig->log.last_warning, want);
		assert_int_equal(rig->log.last_level, SDSI_MBOX_WARN);
	}
	rig->write_answer_packets = 0;
}

static void test_read_rejects_missing_buffer(void **state)
{
	struct core_rig *rig = *state;
	size_t len;

	rig_clear_log(rig);
	assert_int_equal(sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE, false,
					NULL, &len), -EINVAL);
	assert_int_equal(sdsi_mbox_read(&rig->mb, SDSI_CMD_READ_STATE, false,
					rig->buf, NULL), -EINVAL);
	assert_int_equal(rig->log.mmio_accesses, 0);
}

/*
 * Our model's AKC format is signed; 13 bytes of junk are an honest
 * authentication failure (status 0x90), which the core reports as EIO.
 */
static void test_write_frames_payload_and_command(void **state)
{
	static const unsigned char junk[13] = "thirteen-byte";
	struct core_rig *rig = *state;
	uint64_t first = 0, second = 0;

	memcpy(&first, junk, 8);
	memcpy(&second, junk + 8, 5);
	assert_int_equal(akc_failures(rig), 0);
	rig_clear_log(rig);

	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 junk, sizeof(junk)), -EIO);
	assert_int_equal(akc_failures(rig), 1);

	assert_int_equal(rig->log.requests, 1);
	assert_int_equal(rig->log.mbox_written[0], first);
	assert_int_equal(rig->log.mbox_written[1], second);
	assert_int_equal(rig->log.mbox_written[2], SDSI_CMD_PROVISION_AKC);
	assert_false(rig->log.mbox_touched[3]);
	assert_int_equal(rig->log.ctrl_log[0], WRITE_REQUEST |
			 (24ull << SDSI_CTRL_PACKET_SIZE_SHIFT) |
			 (24ull << SDSI_CTRL_MSG_SIZE_SHIFT));
	/* The request, then the one CPL that answers the failed status. */
	assert_int_equal(rig->log.ctrl_writes, 2);
	assert_released(rig);
}

static void test_write_of_command_alone(void **state)
{
	struct core_rig *rig = *state;
	int ret;

	rig_clear_log(rig);
	ret = sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_CAP, NULL, 0);
	assert_int_equal(ret, -EIO);
	assert_int_equal(rig->log.mbox_written[0], SDSI_CMD_PROVISION_CAP);
	assert_false(rig->log.mbox_touched[1]);
	assert_int_equal(rig->log.ctrl_log[0], WRITE_REQUEST |
			 (8ull << SDSI_CTRL_PACKET_SIZE_SHIFT) |
			 (8ull << SDSI_CTRL_MSG_SIZE_SHIFT));
	assert_released(rig);
}

static void test_write_size_limit(void **state)
{
	static unsigned char payload[SDSI_WRITE_PAYLOAD_MAX + 1];
	struct core_rig *rig = *state;
	unsigned int i;

	memset(payload, 0x3c, sizeof(payload));
	rig_clear_log(rig);
	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 payload, sizeof(payload)),
			 -EOVERFLOW);
	assert_int_equal(rig->log.mmio_accesses, 0);
	assert_int_equal(akc_failures(rig), 0);

	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 payload, SDSI_WRITE_PAYLOAD_MAX),
			 -EIO);
	assert_int_equal(akc_failures(rig), 1);
	for (i = 0; i < RIG_MBOX_QWORDS; i++)
		assert_true(rig->log.mbox_touched[i]);
	assert_int_equal(rig->log.mbox_written[RIG_MBOX_QWORDS - 2],
			 0x3c3c3c3c3c3c3c3cull);
	assert_int_equal(rig->log.mbox_written[RIG_MBOX_QWORDS - 1],
			 SDSI_CMD_PROVISION_AKC);
	assert_int_equal(rig->log.ctrl_log[0], WRITE_REQUEST |
			 (1024ull << SDSI_CTRL_PACKET_SIZE_SHIFT) |
			 (1024ull << SDSI_CTRL_MSG_SIZE_SHIFT));
	assert_released(rig);
}

static void test_write_rejects_missing_payload(void **state)
{
	struct core_rig *rig = *state;

	rig_clear_log(rig);
	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 NULL, 8), -EINVAL);
	assert_int_equal(rig->log.mmio_accesses, 0);
}

/* The 5.18-6.1 driver sends no MSG_SIZE; the model takes the command. */
static void test_early_write_leaves_msg_size_zero(void **state)
{
	static const unsigned char junk[16] = "sixteen  bytes!";
	struct core_rig *rig = *state;

	rig_clear_log(rig);
	assert_int_equal(sdsi_mbox_write(&rig->mb, SDSI_CMD_PROVISION_AKC,
					 junk, sizeof(junk)), -EIO);
	assert_int_equal(akc_failures(rig), 1);
	assert_int_equal(rig->log.ctrl_log[0], WRITE_REQUEST |
			 (24ull << SDSI_CTRL_PACKET_SIZE_SHIFT));
	assert_released(rig);
}

static void test_early_read_is_unchanged(void **state)
{
	struct core_rig *rig = *state;

	read_cert(rig, SDSI_CMD_READ_STATE, false);
	assert_int_equal(rig->log.ctrl_log[0], READ_REQUEST);
	assert_released(rig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RIG_TEST(test_state_certificate_single_packet, rig_setup_v1),
		RIG_TEST(test_state_certificate_single_packet, rig_setup_v2),
		RIG_TEST(test_meter_current_sets_bit_33, rig_setup_v2),
		cmocka_unit_test(test_state_certificate_packets),
		RIG_TEST(test_msg_size_mismatch_warns, rig_setup_v1),
		RIG_TEST(test_write_answer_size_mismatch_warns, rig_setup_v2),
		RIG_TEST(test_read_rejects_missing_buffer, rig_setup_v1),
		RIG_TEST(test_write_frames_payload_and_command, rig_setup_v1),
		RIG_TEST(test_write_frames_payload_and_command, rig_setup_v2),
		RIG_TEST(test_write_of_command_alone, rig_setup_v2),
		RIG_TEST(test_write_size_limit, rig_setup_v2),
		RIG_TEST(test_write_rejects_missing_payload, rig_setup_v1),
		RIG_TEST(test_early_write_leaves_msg_size_zero,
			 rig_setup_v1_early),
		RIG_TEST(test_early_read_is_unchanged, rig_setup_v1_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
