// SPDX-License-Identifier: GPL-2.0-only
/*
 * Licences provisioned with real CAPs: activation at the next power cycle,
 * meter arithmetic against the virtual clock (counter = active time / unit,
 * the certificate copy latched every 8 hours of powered-up time), meters and
 * licences that survive destroy/create, and version 1 NVRAM files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linux_mmio.h"
#include <sdsi/nvram_file.h>

#include "model/model_priv.h"
#include "nvram_crc.h"
#include "test_authority.h"

#define PPIN		0x0123456789abcdefull
#define UNIT_NS		MS(1000)

static void provision_akc(struct authority_socket *f, uint32_t key_rev)
{
	uint8_t akc[SDSI_LICENSE_BLOB_MAX];
	size_t len = authority_akc(f->auth.root, f->auth.licensor, key_rev, akc,
				   sizeof(akc));

	assert_int_equal(lx_write(&f->ts, SDSI_CMD_PROVISION_AKC, akc, len,
				  true), 0);
}

static void provision_cap(struct authority_socket *f, uint32_t type, uint64_t id,
			  uint32_t revision, const char *codes)
{
	const struct test_license lic = {
		.type = type, .id = id, .ppin = PPIN, .revision = revision,
		.codes = codes,
	};
	uint8_t cap[SDSI_LICENSE_BLOB_MAX];
	size_t len = authority_cap(f->auth.licensor, &lic, cap, sizeof(cap));

	assert_int_equal(lx_write(&f->ts, SDSI_CMD_PROVISION_CAP, cap, len,
				  true), 0);
}

struct meter {
	uint32_t mmrc;
	uint32_t pairs;
	uint32_t code[8];
	uint32_t counter[8];
};

static void read_meter(struct authority_socket *f, bool current, struct meter *out)
{
	uint8_t buf[SDSI_READ_MSG_MAX];
	size_t len;
	uint32_t i;

	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_METER, current, buf,
				 &len), 0);
	assert_int_equal(sdsi_le32(buf), SDSI_METER_SIGNATURE);
	assert_int_equal(sdsi_le32(buf + 0x10), 1000);
	out->mmrc = sdsi_le32(buf + 0x24);
	out->pairs = sdsi_le32(buf + 0x14) / SDSI_METER_PAIR_SIZE;
	assert_int_equal(len, SDSI_METER_HEADER_SIZE + 8 * out->pairs);
	assert_true(out->pairs <= 8);
	for (i = 0; i < out->pairs; i++) {
		out->code[i] = sdsi_le32(buf + 0x28 + 8 * i);
		out->counter[i] = sdsi_le32(buf + 0x2c + 8 * i);
	}
}

static uint32_t units(uint64_t ns)
{
	return (uint32_t)(ns / UNIT_NS);
}

static void test_activation_after_power_cycle(void **state)
{
	struct authority_socket *f = *state;
	struct meter mt;

	provision_akc(f, 1);
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 7, 1, "CC02,SG01");
	provision_cap(f, SDSI_BLOB_TYPE_ONE_TIME, 8, 1, "DSA1");
	tsock_advance(&f->ts, MS(4500));
	read_meter(f, true, &mt);
	assert_int_equal(mt.pairs, 0);
	assert_int_equal(mt.mmrc, 4);

	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	tsock_advance(&f->ts, MS(2999));
	read_meter(f, true, &mt);
	/* Only the metered licence's codes, counting from the power cycle. */
	assert_int_equal(mt.pairs, 2);
	assert_int_equal(mt.code[0], SDSI_FOURCC('C', 'C', '0', '2'));
	assert_int_equal(mt.code[1], SDSI_FOURCC('S', 'G', '0', '1'));
	assert_int_equal(mt.counter[0], 2);
	assert_int_equal(mt.counter[1], 2);
	assert_int_equal(mt.mmrc, units(MS(4500 + 2999)));
}

static void test_meter_arithmetic_and_latch(void **state)
{
	struct authority_socket *f = *state;
	uint64_t before = MS(1500), active = 0;
	struct meter mt;
	unsigned int step;

	provision_akc(f, 1);
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 1, 1, "CC02");
	tsock_advance(&f->ts, before);
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	/* Uneven steps; each time, counter = elapsed / unit. */
	for (step = 0; step < 7; step++) {
		uint64_t d = HOURS(1) + MS(333) * step + 17;

		tsock_advance(&f->ts, d);
		active += d;
		read_meter(f, true, &mt);
		assert_int_equal(mt.pairs, 1);
		assert_int_equal(mt.counter[0], units(active));
		assert_int_equal(mt.mmrc, units(before + active));
		/* Nothing latched before 8 hours of powered-up time. */
		read_meter(f, false, &mt);
		assert_int_equal(mt.mmrc, 0);
		assert_int_equal(mt.counter[0], 0);
	}
	/* Cross the 8-hour boundary of powered-up time by 10 s. */
	tsock_advance(&f->ts, HOURS(8) - before - active + MS(10000));
	active = HOURS(8) - before + MS(10000);
	read_meter(f, false, &mt);
	assert_int_equal(mt.mmrc, 8 * 3600);
	assert_int_equal(mt.counter[0], units(HOURS(8) - before));
	read_meter(f, true, &mt);
	assert_int_equal(mt.mmrc, 8 * 3600 + 10);
	assert_int_equal(mt.counter[0], units(active));
	/* The copy stays until the next boundary, 16 hours. */
	tsock_advance(&f->ts, HOURS(7));
	read_meter(f, false, &mt);
	assert_int_equal(mt.mmrc, 8 * 3600);
	tsock_advance(&f->ts, HOURS(1));
	read_meter(f, false, &mt);
	assert_int_equal(mt.mmrc, 16 * 3600);
	assert_int_equal(mt.counter[0], units(HOURS(16) - before));
}

/* Powered-up time in the NVRAM file (format 2, offset 192). */
static uint64_t saved_powered_ns(struct authority_socket *f)
{
	uint8_t head[200];
	char path[128];
	FILE *in;

	snprintf(path, sizeof(path), "%s/socket0.nvram", f->auth.dir);
	in = fopen(path, "r");
	assert_non_null(in);
	assert_int_equal(fread(head, sizeof(head), 1, in), 1);
	fclose(in);
	assert_int_equal(sdsi_le32(head + 8), 2);
	return sdsi_le64(head + 192);
}

static void test_meters_and_licenses_survive_restart(void **state)
{
	struct authority_socket *f = *state;
	uint8_t before[SDSI_READ_MSG_MAX], after[SDSI_READ_MSG_MAX];
	size_t len_before, len_after;
	struct meter mt;

	provision_akc(f, 1);
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 1, 1, "CC02");
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	tsock_advance(&f->ts, HOURS(5));
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, before,
				 &len_before), 0);
	/* Switched off, then on: a power cycle that keeps the meters. */
	tsock_close(&f->ts);
	tsock_advance(&f->ts, HOURS(100));	/* off: not powered-up time */
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, after,
				 &len_after), 0);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(after, before, len_before);
	tsock_advance(&f->ts, HOURS(4));
	read_meter(f, true, &mt);
	assert_int_equal(mt.mmrc, 9 * 3600);
	assert_int_equal(mt.counter[0], 9 * 3600);
	read_meter(f, false, &mt);
	assert_int_equal(mt.counter[0], 8 * 3600);
	/* The licensor key survived too: a new CAP still authenticates. */
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 2, 1, "SG01");
	/*
	 * A crash (no destroy) loses only the time since the last save: the
	 * first access after the 8-hour latch point saved 9 hours.
	 */
	tsock_advance(&f->ts, HOURS(1));
	assert_int_equal(saved_powered_ns(f), HOURS(9));
}

static void test_superseded_license_meters_until_power_cycle(void **state)
{
	struct authority_socket *f = *state;
	struct meter mt;

	provision_akc(f, 1);
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 9, 1, "CC02");
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	tsock_advance(&f->ts, MS(10000));
	/* Revision 2 replaces the code set; revision 1 stays in effect now. */
	provision_cap(f, SDSI_BLOB_TYPE_METERED, 9, 2, "SG01");
	tsock_advance(&f->ts, MS(5000));
	read_meter(f, true, &mt);
	assert_int_equal(mt.pairs, 1);
	assert_int_equal(mt.code[0], SDSI_FOURCC('C', 'C', '0', '2'));
	assert_int_equal(mt.counter[0], 15);
	assert_int_equal(sdsi_model_power_cycle(f->ts.m), 0);
	tsock_advance(&f->ts, MS(3000));
	read_meter(f, true, &mt);
	assert_int_equal(mt.pairs, 1);
	assert_int_equal(mt.code[0], SDSI_FOURCC('S', 'G', '0', '1'));
	assert_int_equal(mt.counter[0], 3);
}

static void test_version_1_file_loads(void **state)
{
	struct authority_socket *f = *state;
	uint8_t file[96 + 4 + 68 + 4] = { 0 }, buf[SDSI_READ_MSG_MAX];
	uint8_t cap[SDSI_LICENSE_BLOB_MAX];
	const struct test_license lic = {
		.type = SDSI_BLOB_TYPE_ONE_TIME, .id = 3, .ppin = PPIN,
		.revision = 1, .codes = "CC02",
	};
	char path[128];
	size_t len;
	FILE *out;

	tsock_close(&f->ts);
	memcpy(file, SDSI_NVRAM_MAGIC, SDSI_NVRAM_MAGIC_LEN);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_VERSION, 1);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_BODY_LEN,
		      sizeof(file) - SDSI_NVRAM_HEADER_LEN - SDSI_NVRAM_CRC_LEN);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_GUID, SDSI_GUID_V2);
	sdsi_put_le64(file + SDSI_NVRAM_OFF_PPIN, PPIN);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_FLAGS, SDSI_NVRAM_FLAG_KEY);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_KEY_REV, 4);
	memset(file + SDSI_NVRAM_OFF_KEY_IMAGE, 0x5a, SDSI_STATE_KEY_IMAGE_SIZE);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_WEAR, 2);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_NUM_LIC, 1);	/* one licence */
	sdsi_put_le32(file + SDSI_NVRAM_OFF_V1_LICENSES, 17 | SDSI_BLOB_VALID);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_V1_LICENSES + 4 + SDSI_BLOB_OFF_TYPE,
		      SDSI_BLOB_TYPE_METERED);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_V1_LICENSES + 4 + SDSI_BLOB_OFF_NUM_BUNDLES, 1);
	sdsi_put_le32(file + SDSI_NVRAM_OFF_V1_LICENSES + 4 + SDSI_BLOB_HEADER_SIZE +
		      SDSI_BUNDLE_OFF_CODE, SDSI_FOURCC('C', 'C', '0', '2'));
	sdsi_put_le32(file + sizeof(file) - SDSI_NVRAM_CRC_LEN,
		      crc32_ieee(file, sizeof(file) - SDSI_NVRAM_CRC_LEN));
	snprintf(path, sizeof(path), "%s/socket0.nvram", f->auth.dir);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(fwrite(file, sizeof(file), 1, out), 1);
	fclose(out);

	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(lx_read(&f->ts, SDSI_CMD_READ_STATE, false, buf, &len),
			 0);
	assert_int_equal(sdsi_le32(buf), SDSI_STATE_CONTENT_KEY_BLOBS);
	assert_int_equal(sdsi_le32(buf + 0x04), 2);
	assert_int_equal(sdsi_le32(buf + 0x1c), 4);
	assert_memory_equal(buf + 0x20, file + 40, 48);
	assert_int_equal(f->ts.m->nv.powered_ns, 0);
	/* Version 1 kept no licensor key: CAPs wait for the AKC again. */
	len = authority_cap(f->auth.licensor, &lic, cap, sizeof(cap));
	assert_int_equal(lx_write(&f->ts, SDSI_CMD_PROVISION_CAP, cap, len,
				  true), -EIO);
	assert_int_equal(cap_failures(&f->ts), 1);
	/* The stored key revision, 4, still guards against rollback. */
	provision_akc(f, 4);
	assert_int_equal(lx_write(&f->ts, SDSI_CMD_PROVISION_CAP, cap, len,
				  true), 0);
	/* Written back as version 2. */
	tsock_close(&f->ts);
	out = fopen(path, "r");
	assert_non_null(out);
	assert_int_equal(fread(buf, 12, 1, out), 1);
	fclose(out);
	assert_int_equal(sdsi_le32(buf + 8), 2);
	tsock_open(&f->ts, &f->cfg);
	assert_int_equal(f->ts.m->nv.num_licenses, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, authority_socket_setup_persistent, \
						 authority_socket_teardown)
		T(test_activation_after_power_cycle),
		T(test_meter_arithmetic_and_latch),
		T(test_meters_and_licenses_survive_restart),
		T(test_superseded_license_meters_until_power_cycle),
		T(test_version_1_file_loads),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
