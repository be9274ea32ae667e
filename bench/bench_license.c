// SPDX-License-Identifier: GPL-2.0-only
/*
 * What authenticating an AKC or a CAP costs the model: the silicon must
 * answer a provision write before the driver's RDY deadline, which is 2 ms
 * in Linux 6.1 (500 ms from 6.4).  Prints the cost of each step: importing
 * a raw P-384 public key (the licensor key of an AKC, or the stored one for
 * a CAP) and verifying a whole AKC and CAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "licensing/sdsi_lic.h"
#include "util/util_time.h"

static void report(const char *name, unsigned int n, uint64_t ns)
{
	printf("%-26s %6u ops  %8.0f ops/s  %8.1f us/op\n", name, n,
	       n * 1e9 / (double)ns, (double)ns / n / 1000.0);
}

static void die(const char *what, int ret)
{
	fprintf(stderr, "bench_license: %s: %d\n", what, ret);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 500;
	uint8_t akc_buf[1024], cap_buf[4096];
	size_t akc_len, cap_len;
	struct sdsi_lic_akc akc = { .key_revision = 1 };
	struct sdsi_lic_cap cap = { 0 };
	EVP_PKEY *root, *licensor, *pub;
	uint64_t t;
	unsigned int i;
	int ret;

	if (!n)
		n = 1;
	if ((ret = sdsi_lic_key_generate(&root, NULL)) ||
	    (ret = sdsi_lic_key_generate(&licensor, NULL)))
		die("key generation", ret);
	if ((ret = sdsi_lic_pubkey_to_raw(licensor, akc.licensor_key, NULL)) ||
	    (ret = sdsi_lic_akc_sign(&akc, root, NULL)) ||
	    (ret = sdsi_lic_akc_encode(&akc, akc_buf, sizeof(akc_buf), &akc_len)))
		die("AKC", ret);
	cap.license.type = SDSI_BLOB_TYPE_ONE_TIME;
	cap.license.id = 1;
	cap.license.ppin = 0x1122334455667788ull;
	cap.license.revision = 1;
	cap.license.bundle_count = 1;
	cap.license.bundles[0].code = SDSI_FOURCC('C', 'C', '0', '2');
	if ((ret = sdsi_lic_cap_sign(&cap, licensor, NULL)) ||
	    (ret = sdsi_lic_cap_encode(&cap, cap_buf, sizeof(cap_buf), &cap_len,
				       NULL)))
		die("CAP", ret);

	printf("P-384 licensing operations, %u each\n", n);
	t = util_now_ns();
	for (i = 0; i < n; i++) {
		if ((ret = sdsi_lic_pubkey_from_raw(akc.licensor_key, &pub,
						    NULL)))
			die("import", ret);
		EVP_PKEY_free(pub);
	}
	report("import raw public key", n, util_now_ns() - t);

	t = util_now_ns();
	for (i = 0; i < n; i++)
		if ((ret = sdsi_lic_akc_verify(akc_buf, akc_len, root, NULL, NULL)))
			die("AKC verify", ret);
	report("verify AKC", n, util_now_ns() - t);

	t = util_now_ns();
	for (i = 0; i < n; i++)
		if ((ret = sdsi_lic_cap_verify(cap_buf, cap_len, licensor, NULL,
					       NULL)))
			die("CAP verify", ret);
	report("verify CAP (key in hand)", n, util_now_ns() - t);

	EVP_PKEY_free(root);
	EVP_PKEY_free(licensor);
	return 0;
}
