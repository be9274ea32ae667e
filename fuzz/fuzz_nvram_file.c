// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NVRAM file loader of the model (model/nvram_file.c), through its real
 * entry point: the input is written as socket0.nvram in a state directory
 * (on /dev/shm when there is one) and a socket is created from it.
 * Invariants, besides no crash and no sanitizer report:
 *   - a refusal is -EPROTO, -EINVAL or -EPROTONOSUPPORT with a message that
 *     names the file, and the file is left byte for byte as it was;
 *   - from an accepted file, the socket's state and meter certificates
 *     decode with libsdsi;
 *   - the file the model writes back when it is switched off loads again,
 *     with the same provisioned content.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model_priv.h"
#include "cert_decode.h"
#include "fuzz_check.h"

static char dir[64], path[128];
static uint64_t fake_now = 1000000000ull;

static uint64_t fake_clock(void *ctx)
{
	return fake_now;
}

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(dir, sizeof(dir), "%s/sdsi-fuzz-nvram-XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/socket0.nvram", dir);
	atexit(cleanup);
	return 0;
}

static void write_file(const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd))
		abort();
}

static bool file_is(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size + 1);
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool same;

	if (fd < 0 || !buf)
		abort();
	got = read(fd, buf, size + 1);
	close(fd);
	same = got == (ssize_t)size && memcmp(buf, data, size) == 0;
	free(buf);
	return same;
}

static int create(struct sdsi_model **m, char *err, size_t errlen)
{
	struct sdsi_model_config cfg = {
		.guid = SDSI_GUID_V2,
		.features = SDSI_MODEL_DEFAULT_FEATURES,
		.state_dir = dir,
		.clock = fake_clock,
	};

	return sdsi_model_create(&cfg, m, err, errlen);
}

static void check_certificates(struct sdsi_model *m)
{
	static uint8_t cert[MODEL_MSG_MAX];
	char why[512];
	uint32_t len;
	int ret;

	len = certs_state(m, cert);
	ret = cert_decode_state(cert, len, why, sizeof(why));
	FUZZ_CHECK(ret == 0, "state certificate of a loaded NVRAM: %s", why);
	for (int current = 0; current < 2; current++) {
		len = certs_meter(m, current, fake_now, cert);
		ret = cert_decode_meter(cert, len, why, sizeof(why));
		FUZZ_CHECK(ret == 0, "meter certificate of a loaded NVRAM: %s", why);
	}
}

static bool same_content(const struct model_nvram *a, const struct model_nvram *b)
{
	return a->ppin == b->ppin && a->key_provisioned == b->key_provisioned &&
	       a->licensor_key_known == b->licensor_key_known && a->key_rev == b->key_rev &&
	       !memcmp(a->key_image, b->key_image, sizeof(a->key_image)) &&
	       (!a->licensor_key_known ||
		!memcmp(a->licensor_key, b->licensor_key, sizeof(a->licensor_key))) &&
	       a->wear == b->wear && a->num_licenses == b->num_licenses &&
	       !memcmp(a->license_words, b->license_words,
		       a->num_licenses * sizeof(a->license_words[0])) &&
	       a->blobs_len == b->blobs_len && !memcmp(a->blobs, b->blobs, a->blobs_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct model_nvram first;
	struct sdsi_model *m;
	char err[1024];
	int ret;

	write_file(data, size);
	ret = create(&m, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EPROTO || ret == -EINVAL || ret == -EPROTONOSUPPORT,
			   "refused with %d: %s", ret, err);
		FUZZ_CHECK(strstr(err, path) != NULL, "the message does not name the file: %s",
			   err);
		FUZZ_CHECK(file_is(data, size), "a refused NVRAM file was changed");
		return 0;
	}
	check_certificates(m);
	first = m->nv;
	sdsi_model_destroy(m);

	ret = create(&m, err, sizeof(err));
	FUZZ_CHECK(ret == 0, "the file the model wrote back is refused: %s", err);
	FUZZ_CHECK(same_content(&first, &m->nv), "the provisioned content changed on the way");
	sdsi_model_destroy(m);
	return 0;
}
