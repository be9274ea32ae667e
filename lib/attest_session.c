// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The attestation session of libsdsi.h: a device's transport (or the test
 * seam's), the connection's transcript and what the part gave (digest,
 * chain); and the public calls, each of which starts the connection anew
 * (GET_VERSION), since the part keeps no state a caller could rely on
 * between calls (CACHE_CAP is 0: docs/interface.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest_internal.h"

static int device_transact(void *ctx, const uint8_t *req, size_t req_len, uint8_t *rsp,
			   size_t rsp_cap, size_t *rsp_len, struct sdsi_error *err)
{
	return sdsi_spdm_transact(ctx, req, req_len, rsp, rsp_cap, rsp_len, err);
}

static int device_read_attr(void *ctx, enum sdsi_attr attr, uint8_t *buf, size_t *len,
			    struct sdsi_error *err)
{
	return sdsi_read_attr(ctx, attr, buf, len, err);
}

int sdsi_attest_open_with(const struct sdsi_attest_io *io, const char *name,
			  struct sdsi_attest **out, struct sdsi_error *err)
{
	struct sdsi_attest *att;

	sdsi_clear_error(err);
	if (!out)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no handle to fill");
	*out = NULL;
	if (!io || !io->transact || !io->read_attr)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no device");
	att = calloc(1, sizeof(*att));
	if (!att || !(att->m1 = EVP_MD_CTX_new())) {
		free(att);
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	}
	att->io = *io;
	snprintf(att->name, sizeof(att->name), "%s", name ? name : "device");
	*out = att;
	return 0;
}

int sdsi_attest_open(const struct sdsi_device *dev, struct sdsi_attest **att,
		     struct sdsi_error *err)
{
	const struct sdsi_attest_io io = {
		.transact = device_transact,
		.read_attr = device_read_attr,
		.ctx = (void *)dev,
	};

	if (!dev) {
		if (att)
			*att = NULL;
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no device");
	}
	return sdsi_attest_open_with(&io, sdsi_device_name(dev), att, err);
}

void sdsi_attest_free(struct sdsi_attest *att)
{
	if (!att)
		return;
	EVP_MD_CTX_free(att->m1);
	sk_X509_pop_free(att->certs, X509_free);
	X509_free(att->anchor);
	free(att->chain);
	free(att);
}

void sdsi_attest_freep(struct sdsi_attest **att)
{
	if (att)
		sdsi_attest_free(*att);
}

/*
 * The flow up to stage, for the calls that verify nothing: a check that
 * failed (a malformed answer) is EPROTO with its name and reason.
 */
static int run_upto(struct sdsi_attest *att, enum attest_stage stage, struct sdsi_error *err)
{
	struct sdsi_attest_verdict *v = attest_verdict_new();
	int ret, failed;

	if (!v)
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	ret = attest_run(att, stage, NULL, v, err);
	failed = attest_first_failed(v);
	if (!ret && failed >= 0)
		ret = sdsi_fail(err, EPROTO, SDSI_ERR_IO, -1, "%s: attestation %s: %s", att->name,
				sdsi_attest_check_name((unsigned int)failed), v->detail[failed]);
	sdsi_attest_verdict_free(v);
	return ret;
}

int sdsi_attest_digest(struct sdsi_attest *att, uint8_t digest[SDSI_ATTEST_DIGEST_SIZE],
		       struct sdsi_error *err)
{
	int ret;

	if (!att || !digest)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no handle");
	ret = run_upto(att, ATTEST_UPTO_DIGEST, err);
	if (!ret)
		memcpy(digest, att->digest, SDSI_ATTEST_DIGEST_SIZE);
	return ret;
}

int sdsi_attest_chain(struct sdsi_attest *att, const uint8_t **bytes, size_t *len,
		      struct sdsi_error *err)
{
	int ret;

	if (!att || !bytes || !len)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no handle");
	*bytes = NULL;
	*len = 0;
	ret = run_upto(att, ATTEST_UPTO_CHAIN, err);
	if (!ret) {
		*bytes = att->chain;
		*len = att->chain_len;
	}
	return ret;
}

int sdsi_attest_leaf_der(struct sdsi_attest *att, const uint8_t **der, size_t *len,
			 struct sdsi_error *err)
{
	const uint8_t *chain;
	char why[ATTEST_DETAIL_SIZE];
	size_t chain_len;
	int ret;

	if (!att || !der || !len)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no handle");
	*der = NULL;
	*len = 0;
	ret = sdsi_attest_chain(att, &chain, &chain_len, err);
	if (ret)
		return ret;
	if (attest_parse_chain_certs(att, why, sizeof(why)))
		return sdsi_fail(err, EPROTO, SDSI_ERR_IO, -1, "%s: attestation chain: %s",
				 att->name, why);
	*der = att->chain + att->leaf_off;
	*len = att->leaf_len;
	return 0;
}

int sdsi_attest_verify(struct sdsi_attest *att, const char *trust_path,
		       struct sdsi_attest_verdict **verdict, struct sdsi_error *err)
{
	struct sdsi_attest_verdict *v;
	X509_STORE *store;
	int ret;

	sdsi_clear_error(err);
	if (verdict)
		*verdict = NULL;
	if (!att || !verdict)
		return sdsi_fail(err, EINVAL, SDSI_ERR_USAGE, -1, "attestation: no handle");
	/* the anchors first: a wrong path spends no exchange with the part */
	ret = attest_load_anchors(trust_path, &store, err);
	if (ret)
		return ret;
	v = attest_verdict_new();
	if (!v) {
		X509_STORE_free(store);
		return sdsi_fail(err, ENOMEM, SDSI_ERR_INTERNAL, -1, "out of memory");
	}
	ret = attest_run(att, ATTEST_UPTO_ALL, store, v, err);
	X509_STORE_free(store);
	if (ret) {
		sdsi_attest_verdict_free(v);
		return ret;
	}
	attest_verdict_finish(v);
	*verdict = v;
	return 0;
}
