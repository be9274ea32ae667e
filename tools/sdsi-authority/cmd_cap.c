// SPDX-License-Identifier: GPL-2.0-only
/*
 * `cap DIR --ppin HEX --feature CODE... -o FILE`: the licensor signs a licence
 * for one CPU.  Every argument is checked before the key is read, so a typo
 * never costs more than an error message.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "authority.h"
#include "util/util_escape.h"

enum {
	OPT_PPIN = 256,
	OPT_FEATURE,
	OPT_TYPE,
	OPT_ID,
	OPT_REVISION,
	OPT_PREVIOUS_PPIN,
};

static const struct cli_option cap_options[] = {
	{ 'o', 'o', "output", "FILE", CLI_ARG_FILE, NULL, "write the CAP to FILE (required)" },
	{ OPT_PPIN, 0, "ppin", "HEX", CLI_ARG_NONE, NULL, "PPIN of the CPU the licence is bound to (required)" },
	{ OPT_FEATURE, 0, "feature", "CODE", CLI_ARG_NONE, NULL, "4-character feature code; repeat for each bundle (1 to 27)" },
	{ OPT_TYPE, 0, "type", "TYPE", CLI_ARG_WORDS, SDSI_LICENSE_WORD_ONE_TIME " " SDSI_LICENSE_WORD_METERED,
	  SDSI_LICENSE_WORD_ONE_TIME " (default) or " SDSI_LICENSE_WORD_METERED },
	{ OPT_ID, 0, "id", "HEX", CLI_ARG_NONE, NULL, "64-bit licence ID (default: random)" },
	{ OPT_REVISION, 0, "revision", "N", CLI_ARG_NONE, NULL, "licence revision (default 1)" },
	{ OPT_PREVIOUS_PPIN, 0, "previous-ppin", "HEX", CLI_ARG_NONE, NULL, "PPIN the licence moved from (default 0: none)" },
	AUTH_HELP_OPTION,
};

struct cap_request {
	struct sdsi_lic_cap cap;
	const char *output;
	bool have_ppin, have_id;
	uint32_t features_given;	/* may exceed what fits, to report it */
};

static int add_feature(const struct auth_command *cmd, struct cap_request *req,
		       const char *text)
{
	struct sdsi_lic_blob *lic = &req->cap.license;
	uint32_t code, i;

	if (sdsi_lic_code_parse(text, &code))
		return auth_bad_value(cmd, "--feature", text,
				      "a feature code (exactly 4 printable ASCII characters, no spaces)");
	for (i = 0; i < lic->bundle_count; i++)
		if (lic->bundles[i].code == code)
			return auth_usage_error(cmd, "--feature %s given twice", text);
	req->features_given++;
	if (lic->bundle_count < SDSI_CAP_MAX_BUNDLES)
		lic->bundles[lic->bundle_count++].code = code;
	return SDSI_EXIT_OK;
}

#define PPIN_DIGITS "a hexadecimal PPIN (1 to 16 hex digits, optional 0x)"

/* The hexadecimal value of OPTION, or a usage error that says it is not WHAT. */
static int parse_hex64(const struct auth_command *cmd, const char *option, const char *what,
		       const char *arg, uint64_t *value)
{
	if (auth_parse_hex64(arg, value))
		return auth_bad_value(cmd, option, arg, what);
	return SDSI_EXIT_OK;
}

static int parse_option(const struct auth_command *cmd, struct cap_request *req,
			int c, const char *arg)
{
	struct sdsi_lic_blob *lic = &req->cap.license;

	switch (c) {
	case 'o':
		req->output = arg;
		return SDSI_EXIT_OK;
	case OPT_PPIN:
		req->have_ppin = true;
		return parse_hex64(cmd, "--ppin", PPIN_DIGITS, arg, &lic->ppin);
	case OPT_PREVIOUS_PPIN:
		return parse_hex64(cmd, "--previous-ppin", PPIN_DIGITS, arg, &lic->previous_ppin);
	case OPT_ID:
		req->have_id = true;
		return parse_hex64(cmd, "--id", "a hexadecimal 64-bit licence ID", arg, &lic->id);
	case OPT_REVISION:
		if (auth_parse_u32(arg, &lic->revision))
			return auth_bad_value(cmd, "--revision", arg, "a 32-bit unsigned number");
		return SDSI_EXIT_OK;
	case OPT_TYPE:
		if (sdsi_license_type_parse(arg, &lic->type)) {
			char expected[64];

			snprintf(expected, sizeof(expected), "%s or %s",
				 sdsi_license_type_name(SDSI_LICENSE_ONE_TIME),
				 sdsi_license_type_name(SDSI_LICENSE_METERED));
			return auth_bad_value(cmd, "--type", arg, expected);
		}
		return SDSI_EXIT_OK;
	case OPT_FEATURE:
		return add_feature(cmd, req, arg);
	}
	return SDSI_EXIT_USAGE;
}

static int check_request(const struct auth_command *cmd,
			 const struct cap_request *req)
{
	if (!req->output)
		return auth_usage_error(cmd, "-o FILE is required");
	if (!req->have_ppin)
		return auth_usage_error(cmd, "--ppin HEX is required: a CAP is bound to one CPU");
	if (req->features_given == 0)
		return auth_usage_error(cmd, "at least one --feature CODE is required");
	if (req->features_given > SDSI_CAP_MAX_BUNDLES)
		return auth_usage_error(cmd, "%u features: a CAP of %u bundles would be %zu bytes, at most %u bundles fit in %u bytes",
					req->features_given, req->features_given,
					SDSI_CAP_SIZE(req->features_given),
					SDSI_CAP_MAX_BUNDLES, SDSI_LICENSE_BLOB_MAX);
	return SDSI_EXIT_OK;
}

static int issue_cap(const char *dir, struct cap_request *req)
{
	char shown[UTIL_TEXT_NAME_SIZE];
	struct sdsi_lic_error err = { 0 };
	struct sdsi_lic_blob *lic = &req->cap.license;
	uint8_t blob[SDSI_LICENSE_BLOB_MAX];
	EVP_PKEY *licensor = NULL;
	size_t len;
	int rc, dirfd = auth_open_dir(dir);

	if (dirfd < 0)
		return -dirfd;
	rc = auth_load_private(dirfd, dir, AUTH_LICENSOR_KEY, &licensor, &err);
	if (rc) {
		auth_error("%s", err.reason);
		rc = auth_key_exit(rc);
		goto out;
	}
	if (sdsi_lic_cap_sign(&req->cap, licensor, &err) ||
	    sdsi_lic_cap_encode(&req->cap, blob, sizeof(blob), &len, &err)) {
		auth_error("%s", err.reason);
		rc = SDSI_EXIT_INTERNAL;
		goto out;
	}
	rc = auth_write_output(dirfd, req->output, blob, len);
	if (!rc)
		printf("wrote CAP %s (%zu bytes): %s licence 0x%016llx revision %u for PPIN 0x%016llx, %u bundle%s\n",
		       util_text_name(shown, sizeof(shown), req->output), len,
		       sdsi_lic_type_name(lic->type),
		       (unsigned long long)lic->id, lic->revision,
		       (unsigned long long)lic->ppin, lic->bundle_count,
		       lic->bundle_count == 1 ? "" : "s");
out:
	close(dirfd);
	EVP_PKEY_free(licensor);
	return rc;
}

static int run_cap(const struct auth_command *cmd, int argc, char **argv)
{
	struct cap_request req;
	int c, rc;

	memset(&req, 0, sizeof(req));
	req.cap.license.type = SDSI_LICENSE_ONE_TIME;
	req.cap.license.revision = 1;
	while ((c = auth_getopt(cmd, argc, argv)) != -1) {
		rc = parse_option(cmd, &req, c, optarg);
		if (rc)
			return rc;
	}
	if (argc - optind != 1)
		return auth_usage_error(cmd, "expected the authority directory, got %d arguments",
					argc - optind);
	rc = check_request(cmd, &req);
	if (rc)
		return rc;
	if (!req.have_id &&
	    RAND_bytes((unsigned char *)&req.cap.license.id,
		       sizeof(req.cap.license.id)) != 1) {
		auth_error("no random licence ID: the OpenSSL random generator failed");
		return SDSI_EXIT_INTERNAL;
	}
	return issue_cap(argv[optind], &req);
}

const struct auth_command auth_cmd_cap = {
	.name = "cap",
	.synopsis = "DIR --ppin HEX --feature CODE [--feature CODE]... -o FILE [OPTIONS]",
	.summary = "Issue a Capability Activation Payload: a licence for the CPU with\n"
		   "the given PPIN enabling the given feature bundles, signed with the\n"
		   "licensor key (DIR/licensor.key).",
	AUTH_OPTIONS(cap_options),
	.run = run_cap,
};
