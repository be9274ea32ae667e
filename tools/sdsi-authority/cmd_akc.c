// SPDX-License-Identifier: GPL-2.0-only
/*
 * `akc DIR -o FILE [--key-rev N]`: the root key certifies the licensor's
 * public key.  Only root.key and licensor.pub are read: the root holder never
 * needs the licensor's private key.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "authority.h"
#include "util/util_escape.h"

enum { OPT_KEY_REV = 256 };

static const struct cli_option akc_options[] = {
	{ 'o', 'o', "output", "FILE", CLI_ARG_FILE, NULL, "write the AKC to FILE (required)" },
	{ OPT_KEY_REV, 0, "key-rev", "N", CLI_ARG_NONE, NULL, "key revision recorded in the AKC (default 1)" },
	AUTH_HELP_OPTION,
};

static int issue_akc(const char *dir, uint32_t key_rev, const char *output)
{
	char shown[UTIL_TEXT_NAME_SIZE];
	struct sdsi_lic_error err = { 0 };
	uint8_t image[SDSI_LICENSE_KEY_IMAGE_SIZE];
	char hex[AUTH_KEY_IMAGE_HEX];
	EVP_PKEY *root = NULL, *licensor = NULL;
	uint8_t blob[SDSI_AKC_SIZE];
	struct sdsi_lic_akc akc = { .key_revision = key_rev };
	size_t len;
	int rc, dirfd = auth_open_dir(dir);

	if (dirfd < 0)
		return -dirfd;
	rc = auth_load_private(dirfd, dir, AUTH_ROOT_KEY, &root, &err);
	if (!rc)
		rc = auth_load_public(dirfd, dir, AUTH_LICENSOR_PUB, &licensor, &err);
	if (rc) {
		auth_error("%s", err.reason);
		rc = auth_key_exit(rc);
		goto out;
	}
	if (sdsi_lic_pubkey_to_raw(licensor, akc.licensor_key, &err) ||
	    sdsi_lic_akc_sign(&akc, root, &err)) {
		auth_error("%s", err.reason);
		rc = SDSI_EXIT_INTERNAL;
		goto out;
	}
	rc = SDSI_EXIT_INTERNAL;
	if (sdsi_lic_akc_encode(&akc, blob, sizeof(blob), &len) ||
	    sdsi_lic_key_image(akc.licensor_key, image)) {
		auth_error("internal error encoding the AKC");
		goto out;
	}
	rc = auth_write_output(dirfd, output, blob, len);
	if (rc)
		goto out;
	util_hex_key_image(hex, image, SDSI_LICENSE_KEY_IMAGE_SIZE);
	printf("wrote AKC %s (%zu bytes, key revision %u)\nlicense key image: %s\n",
	       util_text_name(shown, sizeof(shown), output), len, key_rev, hex);
out:
	close(dirfd);
	EVP_PKEY_free(root);
	EVP_PKEY_free(licensor);
	return rc;
}

static int run_akc(const struct auth_command *cmd, int argc, char **argv)
{
	const char *output = NULL;
	uint32_t key_rev = 1;
	int c;

	while ((c = auth_getopt(cmd, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case OPT_KEY_REV:
			if (auth_parse_u32(optarg, &key_rev))
				return auth_bad_value(cmd, "--key-rev", optarg,
						      "a 32-bit unsigned number");
			break;
		default:
			return SDSI_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return auth_usage_error(cmd, "expected the authority directory, got %d arguments",
					argc - optind);
	if (!output)
		return auth_usage_error(cmd, "-o FILE is required");
	return issue_akc(argv[optind], key_rev, output);
}

const struct auth_command auth_cmd_akc = {
	.name = "akc",
	.synopsis = "DIR -o FILE [--key-rev N]",
	.summary = "Issue an Authentication Key Certificate: the licensor public key\n"
		   "(DIR/licensor.pub) and a key revision, signed with the root key\n"
		   "(DIR/root.key).  Prints the License Key Image the state certificate\n"
		   "will show once the AKC is provisioned.",
	AUTH_OPTIONS(akc_options),
	.run = run_akc,
};
