// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attestation flow of one owner's check (GET_VERSION, GET_CAPABILITIES,
 * NEGOTIATE_ALGORITHMS, GET_DIGESTS, the chain in 4092-byte asks,
 * CHALLENGE, signed GET_MEASUREMENTS of all) through the driver core's
 * ATTESTATION exchange over the in-process model: on one socket, then on 8
 * sockets at once (a thread each).  No verification here: what is timed is
 * the mailbox and the responder (two P-384 signatures per flow).  Prints
 * one line per configuration.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/x509.h>

#include "sdsi/hw.h"
#include "sdsi/spdm.h"
#include "backends/inproc/inproc_mbox.h"
#include "drivers/core/sdsi_mbox.h"
#include "licensing/sdsi_lic.h"
#include "model/sdsi_model.h"
#include "util/util_time.h"

#define MAX_SOCKETS	8

struct socket_run {
	struct sdsi_model *model;
	struct sdsi_mbox mb;
	unsigned int flows;
	int failed;
	pthread_t thread;
};

static int exchange(struct socket_run *s, const uint8_t *req, size_t len,
		    uint8_t *rsp, size_t *n, uint8_t want)
{
	int ret = sdsi_mbox_exchange(&s->mb, req, len, rsp, n);

	if (!ret && rsp[1] != want)
		ret = -EPROTO;
	return ret;
}

static int flow(struct socket_run *s)
{
	static const uint8_t get_version[] = { 0x10, 0x84, 0, 0 };
	static const uint8_t get_caps[] = { 0x10, 0xE1, 0, 0 };
	static const uint8_t get_digests[] = { 0x10, 0x81, 0, 0 };
	uint8_t nego[32] = { 0x10, 0xE3, 0, 0, 32, 0, 1, 0, 0x80, 0, 0, 0, 2 };
	uint8_t req[36] = { 0 }, rsp[SDSI_READ_MSG_MAX];
	unsigned int offset = 0, remainder;
	size_t n;
	int ret;

	ret = exchange(s, get_version, 4, rsp, &n, SDSI_SPDM_VERSION) ?:
	      exchange(s, get_caps, 4, rsp, &n, SDSI_SPDM_CAPABILITIES) ?:
	      exchange(s, nego, 32, rsp, &n, SDSI_SPDM_ALGORITHMS) ?:
	      exchange(s, get_digests, 4, rsp, &n, SDSI_SPDM_DIGESTS);
	do {
		uint8_t get_cert[8] = { 0x10, 0x82, 0, 0, (uint8_t)offset,
					(uint8_t)(offset >> 8), 0xfc, 0x0f };

		ret = ret ?: exchange(s, get_cert, 8, rsp, &n, SDSI_SPDM_CERTIFICATE);
		if (ret)
			return ret;
		offset += rsp[4] | rsp[5] << 8;
		remainder = rsp[6] | rsp[7] << 8;
	} while (remainder);
	req[0] = 0x10;
	req[1] = 0x83;
	ret = exchange(s, req, 36, rsp, &n, SDSI_SPDM_CHALLENGE_AUTH);
	req[1] = 0xE0;
	req[2] = 1;
	req[3] = 0xFF;
	return ret ?: exchange(s, req, 36, rsp, &n, SDSI_SPDM_MEASUREMENTS);
}

static void *run_flows(void *arg)
{
	struct socket_run *s = arg;

	for (unsigned int i = 0; i < s->flows && !s->failed; i++)
		s->failed = flow(s);
	return NULL;
}

static void bench(struct socket_run *sockets, unsigned int n, unsigned int flows)
{
	uint64_t t0, ns;
	int failed = 0;

	for (unsigned int i = 0; i < n; i++) {
		sockets[i].flows = flows;
		sockets[i].failed = 0;
		pthread_create(&sockets[i].thread, NULL, run_flows, &sockets[i]);
	}
	t0 = util_now_ns();
	for (unsigned int i = 0; i < n; i++) {
		pthread_join(sockets[i].thread, NULL);
		failed |= sockets[i].failed;
	}
	ns = util_now_ns() - t0;
	if (failed) {
		printf("attestation flow on %u socket(s): FAILED (%s)\n", n, strerror(-failed));
		return;
	}
	printf("attestation flow on %u socket(s) at once: %u flows each, %.2f ms per flow, "
	       "%.0f flows/s in all\n", n, flows, ns / 1e6 / flows,
	       (double)n * flows / (ns / 1e9));
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/sdsi-bench-attest-XXXXXX", cert[64], key[64], err[256];
	unsigned int flows = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 50;
	struct socket_run sockets[MAX_SOCKETS];
	struct sdsi_lic_error lerr;
	EVP_PKEY *root_key;
	X509 *root;
	int ret = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(cert, sizeof(cert), "%s/root.pem", dir);
	snprintf(key, sizeof(key), "%s/root.key", dir);
	if (sdsi_lic_attest_root_make("bench root", &root_key, &root, &lerr) ||
	    sdsi_lic_cert_save(cert, root, &lerr) ||
	    sdsi_lic_key_save_private(key, root_key, &lerr)) {
		fprintf(stderr, "bench_attest: %s\n", lerr.reason);
		ret = 1;
	}
	for (unsigned int i = 0; !ret && i < MAX_SOCKETS; i++) {
		struct sdsi_model_config cfg = {
			.guid = SDSI_GUID_V2, .socket_index = i,
			.features = SDSI_MODEL_DEFAULT_FEATURES,
			.attest_root_cert_path = cert, .attest_root_key_path = key,
		};

		if (sdsi_model_create(&cfg, &sockets[i].model, err, sizeof(err)) ||
		    sdsi_mbox_init(&sockets[i].mb, SDSI_GUID_V2, &inproc_mbox_ops,
				   sockets[i].model, NULL)) {
			fprintf(stderr, "bench_attest: socket %u: %s\n", i, err);
			ret = 1;
		}
	}
	unlink(cert);
	unlink(key);
	rmdir(dir);
	EVP_PKEY_free(root_key);
	X509_free(root);
	if (ret)
		return ret;
	bench(sockets, 1, flows);
	bench(sockets, MAX_SOCKETS, flows);
	for (unsigned int i = 0; i < MAX_SOCKETS; i++)
		sdsi_model_destroy(sockets[i].model);
	return 0;
}
