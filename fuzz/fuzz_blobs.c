// SPDX-License-Identifier: GPL-2.0-only
/*
 * The blob set of the model harness: AKCs that install, roll back or carry
 * the wrong signature, and CAPs that add, supersede, name another socket's
 * PPIN, come from another licensor or carry the most bundles that fit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "sdsi/hw.h"
#include "fuzz_blobs.h"

static struct fuzz_authority *cleanup_of;

static void cleanup(void)
{
	unlink(cleanup_of->root_pub);
	rmdir(cleanup_of->dir);
}

static void must(int ret)
{
	if (ret)
		abort();
}

static void akc(struct fuzz_blob *b, EVP_PKEY *signer, EVP_PKEY *licensor, uint32_t rev)
{
	struct sdsi_lic_akc akc = { .key_revision = rev };

	must(sdsi_lic_pubkey_to_raw(licensor, akc.licensor_key, NULL));
	must(sdsi_lic_akc_sign(&akc, signer, NULL));
	must(sdsi_lic_akc_encode(&akc, b->bytes, sizeof(b->bytes), &b->len));
	b->command = SDSI_CMD_PROVISION_AKC;
}

static void cap(struct fuzz_blob *b, EVP_PKEY *licensor, uint32_t type, uint64_t id,
		uint64_t ppin, uint32_t rev, uint32_t bundles)
{
	struct sdsi_lic_cap cap;

	memset(&cap, 0, sizeof(cap));
	cap.license.type = type;
	cap.license.id = id;
	cap.license.ppin = ppin;
	cap.license.revision = rev;
	cap.license.bundle_count = bundles;
	for (uint32_t i = 0; i < bundles; i++)
		cap.license.bundles[i].code = SDSI_FOURCC('F', 'Z', '0' + i / 10, '0' + i % 10);
	must(sdsi_lic_cap_sign(&cap, licensor, NULL));
	must(sdsi_lic_cap_encode(&cap, b->bytes, sizeof(b->bytes), &b->len, NULL));
	b->command = SDSI_CMD_PROVISION_CAP;
}

void fuzz_authority_init(struct fuzz_authority *a)
{
	struct fuzz_blob *b = a->blobs;

	memset(a, 0, sizeof(*a));
	strcpy(a->dir, "/tmp/sdsi-fuzz-auth-XXXXXX");
	if (!mkdtemp(a->dir))
		abort();
	strcpy(a->root_pub, a->dir);
	strcat(a->root_pub, "/root.pub");
	cleanup_of = a;
	atexit(cleanup);
	must(sdsi_lic_key_generate(&a->root, NULL));
	must(sdsi_lic_key_generate(&a->licensor[0], NULL));
	must(sdsi_lic_key_generate(&a->licensor[1], NULL));
	must(sdsi_lic_key_save_public(a->root_pub, a->root, NULL));

	akc(&b[0], a->root, a->licensor[0], 1);
	akc(&b[1], a->root, a->licensor[0], 2);
	akc(&b[2], a->root, a->licensor[1], 1);		/* a rollback after [1] */
	akc(&b[3], a->licensor[0], a->licensor[0], 5);	/* not signed by the root */
	cap(&b[4], a->licensor[0], SDSI_BLOB_TYPE_ONE_TIME, 1, FUZZ_PPIN, 1, 1);
	cap(&b[5], a->licensor[0], SDSI_BLOB_TYPE_METERED, 2, FUZZ_PPIN, 1, 2);
	cap(&b[6], a->licensor[0], SDSI_BLOB_TYPE_ONE_TIME, 1, FUZZ_PPIN, 2, 1);
	cap(&b[7], a->licensor[0], SDSI_BLOB_TYPE_METERED, 3, FUZZ_PPIN + 1, 1, 1);
	cap(&b[8], a->licensor[1], SDSI_BLOB_TYPE_METERED, 4, FUZZ_PPIN, 1, 3);
	cap(&b[9], a->licensor[0], SDSI_BLOB_TYPE_METERED, 5, FUZZ_PPIN, 1,
	    SDSI_CAP_MAX_BUNDLES);
}
