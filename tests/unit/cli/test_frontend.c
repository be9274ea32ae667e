// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front end of sdsi-emu and sdsi-shmem: every limit of the values and
 * of the control commands on both sides (the exact fit and one too many),
 * and one answer in both spellings, against two real model sockets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sdsi/hw.h"
#include "cli/cli_ctl.h"
#include "cli/cli_ctl_clients.h"
#include "cli/cli_platform.h"
#include "util/util_array.h"

#define SOCKETS	2

struct rig {
	struct sdsi_model *models[SOCKETS];
	struct cli_ctl_sockets backend;
};

static int with_model(void *ctx, unsigned int s, bool reprobe, cli_model_fn fn, void *arg)
{
	struct rig *r = ctx;

	return fn(r->models[s], arg);
}

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	char err[256];

	assert_non_null(r);
	for (unsigned int n = 0; n < SOCKETS; n++) {
		struct sdsi_model_config cfg = {
			.guid = SDSI_GUID_V2, .socket_index = n, .socket_id = (uint8_t)n,
			.features = SDSI_MODEL_DEFAULT_FEATURES,
		};

		assert_int_equal(sdsi_model_create(&cfg, &r->models[n], err, sizeof(err)), 0);
	}
	r->backend = (struct cli_ctl_sockets){
		.daemon = "the test", .nsockets = SOCKETS, .ctx = r, .with_model = with_model,
	};
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	for (unsigned int n = 0; n < SOCKETS; n++)
		sdsi_model_destroy(r->models[n]);
	free(r);
	return 0;
}

/* The answer in sdsi-emu's spelling; *terse gets sdsi-shmem's. */
static char *ask(struct rig *r, const char *line, char **terse)
{
	char *full = cli_ctl_execute(&r->backend, line, CLI_REPLY_ERRNO);

	assert_non_null(full);
	*terse = cli_ctl_execute(&r->backend, line, CLI_REPLY_TERSE);
	assert_non_null(*terse);
	return full;
}

static void expect_ok(struct rig *r, const char *line)
{
	char *terse, *full = ask(r, line, &terse);

	if (strncmp(full, "ok ", 3) != 0 || strcmp(terse, "ok\n") != 0)
		fail_msg("'%s': %s / %s", line, full, terse);
	free(full);
	free(terse);
}

/* The same error in both spellings: "error ENAME: why" and "error: why". */
static void expect_error(struct rig *r, const char *line, const char *errname)
{
	char *terse, *full = ask(r, line, &terse);
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "error %s: ", errname);
	if (strncmp(full, prefix, strlen(prefix)) != 0 || strncmp(terse, "error: ", 7) != 0 ||
	    strcmp(full + strlen(prefix), terse + 7) != 0)
		fail_msg("'%s': %s / %s", line, full, terse);
	free(full);
	free(terse);
}

static void test_socket_bound(void **state)
{
	expect_ok(*state, "iblock 1 on");		/* the last socket */
	expect_error(*state, "iblock 2 on", "ENODEV");	/* one too many */
	expect_ok(*state, "iblock all off");
	expect_error(*state, "iblock -1 on", "ENODEV");
}

static void test_fault_count_and_param_bounds(void **state)
{
	struct rig *r = *state;
	struct sdsi_fault_state f;

	expect_ok(r, "fault 0 rdy-latency --count 4294967295 --param 4294967295");
	sdsi_model_fault_get(r->models[0], SDSI_FAULT_RDY_LATENCY, &f);
	assert_true(f.armed);
	assert_int_equal(f.param, 4294967295u);
	expect_error(r, "fault 0 rdy-latency --count 4294967296", "EINVAL");
	expect_error(r, "fault 0 rdy-latency --param 4294967296", "EINVAL");
	/* The positional form: the same fault, the same limits. */
	expect_ok(r, "fault 1 no-rdy 4294967295 4294967295");
	expect_error(r, "fault 1 no-rdy 4294967296 0", "EINVAL");
	expect_ok(r, "clear all");
	sdsi_model_fault_get(r->models[0], SDSI_FAULT_RDY_LATENCY, &f);
	assert_false(f.armed);
}

static void test_feature_bits(void **state)
{
	expect_ok(*state, "features 0 0x4001008");
	expect_error(*state, "features 0 0x4001009", "EINVAL");
	expect_error(*state, "features 0 0x14001008", "EINVAL");
	expect_ok(*state, "features 0 none");
}

static void test_word_limit(void **state)
{
	char line[128] = "clear 0";

	for (int i = 2; i < CLI_CTL_MAX_WORDS; i++)
		strcat(line, " x");
	expect_error(*state, line, "EINVAL");	/* 16 words: parsed, a usage error */
	strcat(line, " x");
	expect_error(*state, line, "E2BIG");	/* 17: too many */
}

static void test_not_served(void **state)
{
	expect_error(*state, "advance 0 315360000", "EOPNOTSUPP");
	expect_error(*state, "advance 0 315360001", "EINVAL");	/* parsed first */
	expect_error(*state, "bind 0", "EOPNOTSUPP");
}

static void test_status_json(void **state)
{
	struct rig *r = *state;
	char *terse, *full = ask(r, "fault 1 no-eom --count 3", &terse);

	free(full);
	free(terse);
	full = ask(r, "status 1", &terse);
	assert_string_equal(full, terse);	/* data: one spelling */
	assert_non_null(strstr(full, "\"socket\":1,\"guid\":\"0xf210d9ef\","));
	assert_non_null(strstr(full, "\"faults\":[{\"kind\":\"no-eom\",\"remaining\":3,\"param\":0}],"
				     "\"spdm_errors\":0,\"protocol_violations\":0}"));
	assert_null(strstr(full, "bound"));	/* no bound hook */
	free(full);
	free(terse);
	full = ask(r, "status", &terse);
	assert_non_null(strchr(full, '\n'));
	assert_non_null(strchr(strchr(full, '\n') + 1, '\n'));	/* two lines */
	free(full);
	free(terse);
}

/*
 * A requester's SPDM misuse (GET_DIGESTS before GET_VERSION, framed for
 * 0x1012 on V2's mailbox at 16) is counted apart from protocol violations.
 */
static void test_spdm_errors(void **state)
{
	struct rig *r = *state;
	uint64_t ctrl = SDSI_CTRL_SOM | SDSI_CTRL_EOM | SDSI_CTRL_RUN_BUSY |
			SDSI_CTRL_READ_WRITE | 24ull << SDSI_CTRL_PACKET_SIZE_SHIFT |
			24ull << SDSI_CTRL_MSG_SIZE_SHIFT;
	char *terse, *full;

	sdsi_model_write64(r->models[0], 16, 0x8110);
	sdsi_model_write64(r->models[0], 24, 4);
	sdsi_model_write64(r->models[0], 32, SDSI_CMD_ATTESTATION);
	sdsi_model_write64(r->models[0], 0, ctrl);
	sdsi_model_read64(r->models[0], 0);
	sdsi_model_write64(r->models[0], 0, SDSI_CTRL_CPL);
	full = ask(r, "status 0", &terse);
	assert_non_null(strstr(full, "\"spdm_errors\":1,\"protocol_violations\":0}"));
	free(full);
	free(terse);
	/* The attestation faults are armed like any other. */
	expect_ok(r, "fault 0 attest-chain --count 2");
	full = ask(r, "status 0", &terse);
	assert_non_null(strstr(full, "{\"kind\":\"attest-chain\",\"remaining\":2,\"param\":0}"));
	free(full);
	free(terse);
}

/* status counts them; violations lists the kept ones, per socket and line. */
static void test_protocol_violations(void **state)
{
	struct rig *r = *state;
	char *terse, *full = ask(r, "violations 1", &terse);

	assert_string_equal(full, "{\"socket\":1,\"protocol_violations\":0,\"kept\":[]}\n");
	assert_string_equal(full, terse);
	free(full);
	free(terse);
	/* A CPL to a free V2 mailbox, then a write to control qword 1. */
	sdsi_model_write64(r->models[1], 0, SDSI_CTRL_CPL);
	sdsi_model_write64(r->models[1], 8, 5);
	full = ask(r, "status 1", &terse);
	assert_non_null(strstr(full, "\"protocol_violations\":2}"));
	free(full);
	free(terse);
	full = ask(r, "status 0", &terse);
	assert_non_null(strstr(full, "\"protocol_violations\":0}"));
	free(full);
	free(terse);
	full = ask(r, "violations", &terse);
	assert_non_null(strstr(full, "{\"socket\":0,\"protocol_violations\":0,\"kept\":[]}\n"
				     "{\"socket\":1,\"protocol_violations\":2,\"kept\":[{\"seq\":1,"
				     "\"rule\":\"cpl-unowned\",\"text\":\"CPL written while the agent does not own the mailbox\","
				     "\"access\":\"write\",\"offset\":\"0x0\",\"register\":\"control\","
				     "\"value\":\"0x0000000000000040\",\"time_ns\":"));
	assert_non_null(strstr(full, "{\"seq\":2,\"rule\":\"read-only\","));
	assert_non_null(strstr(full, "\"offset\":\"0x8\",\"register\":\"control+0x8\","
				     "\"value\":\"0x0000000000000005\""));
	free(full);
	free(terse);
	expect_error(r, "violations 2", "ENODEV");
	expect_error(r, "violations 0 1", "EINVAL");
}

static size_t digits(unsigned long long v)
{
	char text[32];

	return (size_t)snprintf(text, sizeof(text), "%llu", v);
}

/*
 * The longest answer the commands can give stays within CLI_CTL_ANSWER_MAX
 * (and under the 40000 bytes man/sdsi-emu.1 names): `violations` on the
 * most sockets there can be, each with every kept violation as long as one
 * can be.  Measured on a real line of 8 kept violations, then widened by
 * all its numbers, names and texts could still gain.
 */
static void test_longest_answer_fits(void **state)
{
	struct rig *r = *state;
	const char *id = sdsi_rule_id(SDSI_RULE_READ_ONLY);
	const char *text = sdsi_rule_text(SDSI_RULE_READ_ONLY);
	size_t longest_id = 0, longest_text = 0, gain, worst;
	char *terse, *full;

	/* Eight writes to control qword 1: eight read-only violations kept. */
	for (unsigned int i = 0; i < SDSI_MODEL_VIOLATIONS_KEPT; i++)
		sdsi_model_write64(r->models[1], 8, 5);
	full = ask(r, "violations 1", &terse);
	assert_non_null(strstr(full, "\"protocol_violations\":8,"));
	for (int rule = 0; rule < SDSI_RULE_COUNT; rule++) {
		size_t a = strlen(sdsi_rule_id((enum sdsi_rule)rule));
		size_t b = strlen(sdsi_rule_text((enum sdsi_rule)rule));

		longest_id = a > longest_id ? a : longest_id;
		longest_text = b > longest_text ? b : longest_text;
	}
	/*
	 * Per violation: seq and time_ns up to 19 digits each (int64), the
	 * longest rule id and text, an offset of 8 hex digits ("0x8" now) and
	 * the longest register name, "registers+0xffffffff" ("control+0x8").
	 */
	gain = 2 * digits(INT64_MAX) + (longest_id - strlen(id)) + (longest_text - strlen(text)) +
	       (strlen("0xffffffff") - strlen("0x8")) +
	       (strlen("registers+0xffffffff") - strlen("control+0x8"));
	/* Per socket: its number (2 digits) and count (19 digits). */
	worst = CLI_MAX_SOCKETS * (strlen(full) + 1 + digits(INT64_MAX) +
				  SDSI_MODEL_VIOLATIONS_KEPT * gain);
	print_message("the longest answer: at most %zu bytes\n", worst);
	assert_true(worst < 40000);
	assert_true(worst <= CLI_CTL_ANSWER_MAX);
	free(full);
	free(terse);
}

static void test_unknown_command_keeps_each_wording(void **state)
{
	char *terse, *full = ask(*state, "reboot 0", &terse);

	assert_true(strncmp(full, "error EINVAL: unknown command 'reboot' (", 40) == 0);
	assert_string_equal(terse, "error: unknown request 'reboot'\n");
	free(full);
	free(terse);
}

static int option(const char *name, const char *value)
{
	struct cli_platform p;

	cli_platform_init(&p);
	for (size_t i = 0; i < cli_platform_option_count; i++)
		if (!strcmp(cli_platform_options[i].name, name))
			return cli_platform_option("test", cli_platform_options[i].id, value, &p);
	fail_msg("no option %s", name);
	return -1;
}

static void test_option_bounds(void **state)
{
	static const struct { const char *name, *fits, *too_many; } bounds[] = {
		{ "sockets", "16", "17" }, { "sockets", "1", "0" },
		{ "akc-threshold", "7", "8" }, { "akc-threshold", "1", "0" },
		{ "cap-threshold", "7", "8" }, { "updates", "1", "0" },
		{ "nvram-endurance", "4294967295", "4294967296" },
		{ "nvram-endurance", "1", "0" },
		{ "rdy-latency-us", "4294967295", "4294967296" },
		{ "features", "0x4001008", "0x4001009" },
		{ "ppin", "1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,10", "1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,10,11" },
	};

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(bounds); i++) {
		assert_int_equal(option(bounds[i].name, bounds[i].fits), 0);
		assert_int_equal(option(bounds[i].name, bounds[i].too_many), 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_socket_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_count_and_param_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_feature_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_word_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_served, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protocol_violations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_longest_answer_fits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spdm_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_command_keeps_each_wording, setup,
						teardown),
		cmocka_unit_test(test_option_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
