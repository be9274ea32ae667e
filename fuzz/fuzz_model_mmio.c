// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware model driven by a sequence of operations read from the input:
 * 64-bit MMIO reads and writes anywhere in (and past) the region, control
 * register writes composed field by field, signed blobs put into the window
 * or provisioned through the driver core as Linux does it, certificate reads,
 * clock advances, power cycles, faults and BIOS settings.  Two bytes of
 * configuration come first (layout, thresholds, features, in-band lock).
 * After every operation these invariants are checked:
 *   - the failure counters never pass their thresholds, nor the updates
 *     theirs, both in the model and in the register file as libsdsi reads it
 *     through MMIO; the PPIN never changes;
 *   - the provisioned NVRAM content changes only in a provisioning write
 *     whose payload, checked here with the licensing library against the
 *     trusted root key (AKC) or the licensor key held before (CAP), is an
 *     authentic blob for this socket, and the change is the one it asks for;
 *   - the state certificate and both meter certificates decode with libsdsi,
 *     and so does every certificate the driver core reads successfully.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "model/model_priv.h"
#include "licensing/sdsi_lic.h"
#include "drivers/core/sdsi_mbox.h"
#include "cert_decode.h"
#include "fuzz_blobs.h"
#include "fuzz_check.h"
#include "fuzz_model_ops.h"

#define MAX_OPS		96

static struct fuzz_authority auth;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_authority_init(&auth);
	return 0;
}

static bool provisioned_equal(const struct model_nvram *a, const struct model_nvram *b)
{
	return a->key_provisioned == b->key_provisioned && a->key_rev == b->key_rev &&
	       !memcmp(a->key_image, b->key_image, sizeof(a->key_image)) &&
	       !memcmp(a->licensor_key, b->licensor_key, sizeof(a->licensor_key)) &&
	       a->num_licenses == b->num_licenses && a->blobs_len == b->blobs_len &&
	       !memcmp(a->license_words, b->license_words, sizeof(a->license_words)) &&
	       !memcmp(a->blobs, b->blobs, a->blobs_len);
}

/* The NVRAM changed: the write in the mailbox must be an authentic blob. */
static void check_authenticated(const struct sdsi_model *m, const struct model_nvram *before,
				uint8_t updates_before)
{
	const struct model_mailbox *mb = &m->mbox;
	uint32_t size = (uint32_t)((mb->request & SDSI_CTRL_PACKET_SIZE_MASK) >>
				   SDSI_CTRL_PACKET_SIZE_SHIFT);
	uint8_t packet[SDSI_MBOX_SIZE], image[SDSI_LICENSE_KEY_IMAGE_SIZE];
	uint64_t command;

	FUZZ_CHECK(mb->request & SDSI_CTRL_READ_WRITE, "NVRAM changed without a write command");
	FUZZ_CHECK(size >= SDSI_CMD_SIZE && size <= SDSI_MBOX_SIZE && size % 8 == 0,
		   "NVRAM changed by a packet of %u bytes", size);
	for (uint32_t i = 0; i < size / 8; i++)
		sdsi_put_le64(packet + 8 * i, mb->data[i]);
	command = sdsi_le64(packet + size - SDSI_CMD_SIZE);
	size -= SDSI_CMD_SIZE;
	FUZZ_CHECK(m->updates_available + 1 == updates_before,
		   "a provisioning write did not use an update (%u -> %u)", updates_before,
		   m->updates_available);
	if (command == SDSI_CMD_PROVISION_AKC) {
		struct sdsi_lic_akc akc;
		EVP_PKEY *root = auth.root;

		FUZZ_CHECK(sdsi_lic_akc_verify(packet, size, root, &akc, NULL) == 0,
			   "NVRAM changed by an AKC the root did not sign");
		FUZZ_CHECK(!before->key_provisioned || akc.key_revision >= before->key_rev,
			   "key revision rolled back from %u to %u", before->key_rev,
			   akc.key_revision);
		FUZZ_CHECK(sdsi_lic_key_image(akc.licensor_key, image) == 0, "image");
		FUZZ_CHECK(m->nv.key_provisioned && m->nv.key_rev == akc.key_revision &&
			   !memcmp(m->nv.key_image, image, sizeof(image)) &&
			   m->nv.num_licenses == before->num_licenses,
			   "the AKC installed something else than its key");
	} else {
		struct sdsi_lic_cap cap;
		EVP_PKEY *licensor = NULL;
		int ret;

		FUZZ_CHECK(command == SDSI_CMD_PROVISION_CAP, "NVRAM changed by command 0x%llx",
			   (unsigned long long)command);
		FUZZ_CHECK(before->key_provisioned && before->licensor_key_known,
			   "a CAP was taken with no licensor key");
		FUZZ_CHECK(sdsi_lic_pubkey_from_raw(before->licensor_key, &licensor,
						    NULL) == 0, "licensor key");
		ret = sdsi_lic_cap_verify(packet, sdsi_lic_cap_unpadded_len(packet, size), licensor,
					  &cap, NULL);
		EVP_PKEY_free(licensor);
		FUZZ_CHECK(ret == 0, "NVRAM changed by a CAP the licensor did not sign: %d", ret);
		FUZZ_CHECK(cap.license.ppin == FUZZ_PPIN, "a CAP for PPIN 0x%llx was taken",
			   (unsigned long long)cap.license.ppin);
		FUZZ_CHECK(m->nv.num_licenses == before->num_licenses + 1 &&
			   m->nv.key_rev == before->key_rev,
			   "the CAP did not add exactly one licence");
	}
}

static void check_invariants(struct sdsi_model *m, const struct model_nvram *before,
			     uint8_t updates_before)
{
	static uint8_t cert[MODEL_MSG_MAX];
	const uint32_t regs_off = m->ctrl_size + SDSI_MBOX_SIZE;
	uint8_t regs[SDSI_REGS_SIZE_V2];
	struct cert_counters c;
	char why[512];
	uint32_t len;

	FUZZ_CHECK(m->akc_failures <= m->akc_threshold && m->cap_failures <= m->cap_threshold,
		   "failures AKC %u/%u CAP %u/%u", m->akc_failures, m->akc_threshold,
		   m->cap_failures, m->cap_threshold);
	FUZZ_CHECK(m->updates_available <= m->updates_threshold, "updates %u/%u",
		   m->updates_available, m->updates_threshold);
	for (uint32_t i = 0; i < m->regs_size; i += 8)
		sdsi_put_le64(regs + i, sdsi_model_read64(m, regs_off + i));
	FUZZ_CHECK(cert_decode_registers(regs, m->regs_size, m->guid, &c, why, sizeof(why)) == 0,
		   "registers: %s", why);
	FUZZ_CHECK(c.akc_fail_count <= c.akc_fail_threshold &&
		   c.cap_fail_count <= c.cap_fail_threshold &&
		   c.updates_available <= c.updates_threshold,
		   "register file: AKC %u/%u CAP %u/%u updates %u/%u", c.akc_fail_count,
		   c.akc_fail_threshold, c.cap_fail_count, c.cap_fail_threshold,
		   c.updates_available, c.updates_threshold);
	FUZZ_CHECK(c.akc_fail_threshold == m->akc_threshold &&
		   c.cap_fail_threshold == m->cap_threshold &&
		   c.updates_threshold == m->updates_threshold, "thresholds moved");
	FUZZ_CHECK(c.ppin == FUZZ_PPIN && m->nv.ppin == FUZZ_PPIN, "PPIN 0x%llx",
		   (unsigned long long)c.ppin);
	FUZZ_CHECK(m->nv.wear >= before->wear, "wear went back");

	if (!provisioned_equal(before, &m->nv))
		check_authenticated(m, before, updates_before);

	len = certs_state(m, cert);
	FUZZ_CHECK(cert_decode_state(cert, len, why, sizeof(why)) == 0, "state: %s", why);
	for (int current = 0; current < 2; current++) {
		len = certs_meter(m, current, fuzz_now_ns, cert);
		FUZZ_CHECK(cert_decode_meter(cert, len, why, sizeof(why)) == 0, "meter: %s", why);
	}
}

/* The payload of blob k and its command qword, into the window. */
static void load_window(struct sdsi_model *m, const struct fuzz_blob *b, uint64_t command)
{
	uint8_t packet[SDSI_MBOX_SIZE] = { 0 };
	size_t qwords = (b->len + 7) / 8;

	memcpy(packet, b->bytes, b->len);
	sdsi_put_le64(packet + qwords * 8, command);
	for (size_t i = 0; i <= qwords; i++)
		sdsi_model_write64(m, m->ctrl_size + 8 * (uint32_t)i, sdsi_le64(packet + 8 * i));
}

static void driver_provision(struct sdsi_mbox *mb, struct fuzz_input *in)
{
	const struct fuzz_blob *b = &auth.blobs[fuzz_take(in, 1) % FUZZ_NBLOBS];
	size_t pos = (size_t)fuzz_take(in, 2);
	uint8_t flip = (uint8_t)fuzz_take(in, 1);
	uint8_t copy[SDSI_LICENSE_BLOB_MAX];
	int ret;

	memcpy(copy, b->bytes, b->len);
	copy[pos % b->len] ^= flip;
	ret = sdsi_mbox_write(mb, b->command, copy, b->len);
	FUZZ_CHECK(ret == 0 || ret == -EIO || ret == -EBUSY || ret == -ETIMEDOUT ||
		   ret == -EPROTO, "provisioning returned %d", ret);
}

static void driver_read(struct sdsi_mbox *mb, uint8_t arg)
{
	static uint8_t buf[SDSI_READ_MSG_MAX];
	const bool meter = arg & 1;
	char why[512];
	size_t len = 0;
	int ret;

	ret = sdsi_mbox_read(mb, meter ? SDSI_CMD_READ_METER : SDSI_CMD_READ_STATE,
			     arg & 2, buf, &len);
	if (ret)
		return;
	FUZZ_CHECK(len <= SDSI_READ_MSG_MAX, "%zu bytes read", len);
	ret = meter ? cert_decode_meter(buf, len, why, sizeof(why)) :
		      cert_decode_state(buf, len, why, sizeof(why));
	FUZZ_CHECK(ret == 0, "a certificate read by the driver core: %s", why);
}

static void run_op(struct sdsi_model *m, struct sdsi_mbox *mb, struct fuzz_input *in)
{
	const uint32_t span = sdsi_model_mmio_size(m) + 64;
	uint8_t op = (uint8_t)fuzz_take(in, 1);
	uint64_t v;

	switch (op % 12) {
	case 0:
		sdsi_model_read64(m, (uint32_t)fuzz_take(in, 2) % span & ~7u);
		break;
	case 1:
		v = fuzz_take(in, 2);
		sdsi_model_write64(m, (uint32_t)v % span & ~7u, fuzz_take(in, 8));
		break;
	case 2:	/* a control write: flag bits, PACKET_SIZE, MSG_SIZE */
		v = fuzz_take(in, 1);
		v = (v & 0xf) | (v & 0x10 ? SDSI_CTRL_CPL : 0) |
		    (v & 0x20 ? SDSI_CTRL_METER_CURRENT : 0) |
		    fuzz_take(in, 2) << SDSI_CTRL_PACKET_SIZE_SHIFT |
		    fuzz_take(in, 2) << SDSI_CTRL_MSG_SIZE_SHIFT;
		sdsi_model_write64(m, 0, v);
		break;
	case 3:
		v = fuzz_take(in, 1);
		load_window(m, &auth.blobs[v % FUZZ_NBLOBS],
			    v & 0x80 ? SDSI_CMD_PROVISION_CAP : SDSI_CMD_PROVISION_AKC);
		break;
	case 4:
		fuzz_now_ns += fuzz_take(in, 4) * 1000u;
		break;
	case 5:	/* minutes to weeks: the meters' 8-hour latch */
		fuzz_now_ns += fuzz_take(in, 2) * 60ull * 1000000000ull;
		break;
	case 6:
		sdsi_model_power_cycle(m);
		break;
	case 7:
		driver_provision(mb, in);
		break;
	case 8:
		driver_read(mb, (uint8_t)fuzz_take(in, 1));
		break;
	case 9:
		v = fuzz_take(in, 1);
		sdsi_model_fault_set(m, (enum sdsi_fault_kind)(v % SDSI_FAULT_KIND_COUNT),
				     (uint32_t)fuzz_take(in, 2), (unsigned int)(v >> 4) % 4);
		break;
	case 10:
		sdsi_model_fault_clear_all(m);
		break;
	default:
		v = fuzz_take(in, 1);
		sdsi_model_set_features(m, (v & 1 ? SDSI_FEATURE_ON_DEMAND : 0) |
					   (v & 2 ? SDSI_FEATURE_ATTESTATION : 0) |
					   (v & 4 ? SDSI_FEATURE_METERING : 0));
		sdsi_model_set_iblock(m, v & 8);
		break;
	}
}

/*
 * Loading the root key (PEM, through OpenSSL's decoders) makes creating a
 * socket cost about a millisecond, which would leave the fuzzer a few
 * hundred inputs a second.  Creation is deterministic here (volatile NVRAM,
 * fixed PPIN, model time reset for every input), so each configuration is
 * created once with sdsi_model_create() and every input gets a copy of that
 * freshly created socket: its own lock, its own reference to the root key.
 */
#define CONFIGS	(2 * 8 * 8 * 8)
static struct sdsi_model *pristine[CONFIGS];
#define START_NS	1000000000ull

/* A copied identity made the copy's own: its key referenced, its chain copied. */
static void own_identity(struct model_identity *id)
{
	uint8_t *chain = id->chain;

	if (id->key && !EVP_PKEY_up_ref(id->key))
		abort();
	if (chain) {
		id->chain = malloc(id->chain_len);
		if (!id->chain)
			abort();
		memcpy(id->chain, chain, id->chain_len);
	}
}

static struct sdsi_model *fresh_socket(uint8_t c0, uint8_t c1)
{
	const unsigned int k = (c0 & 0x7f) | (c1 & 7) << 7;
	struct sdsi_model *m;
	char err[256];

	fuzz_now_ns = START_NS;
	if (!pristine[k]) {
		struct sdsi_model_config cfg = {
			.guid = k & 1 ? SDSI_GUID_V1 : SDSI_GUID_V2,
			.ppin = FUZZ_PPIN,
			.features = SDSI_MODEL_DEFAULT_FEATURES,
			.akc_fail_threshold = (k >> 1) & 7,
			.cap_fail_threshold = (k >> 4) & 7,
			.updates_threshold = (k >> 7) & 7,
			.clock = fuzz_model_clock,
			.root_key_path = auth.root_pub,
		};

		if (sdsi_model_create(&cfg, &pristine[k], err, sizeof(err)))
			abort();
	}
	m = malloc(sizeof(*m));
	if (!m)
		abort();
	memcpy(m, pristine[k], sizeof(*m));
	/*
	 * What the copy shares with the pristine model and the model frees
	 * when destroyed is made the copy's own: the lock, the root key's
	 * reference, the SPDM transcripts' hash contexts (otherwise the first
	 * copy destroyed frees the next copy's), the identities and the path.
	 */
	sdsi_lock_init(&m->lock);
	if (m->root_key && !EVP_PKEY_up_ref(m->root_key))
		abort();
	if (spdm_init(&m->spdm))
		abort();
	own_identity(&m->identity);
	own_identity(&m->foreign);
	if (m->identity_path && !(m->identity_path = strdup(m->identity_path)))
		abort();
	/* The BIOS settings, as a boot with them would have them. */
	sdsi_model_set_features(m, (c1 & 0x10 ? 0 : SDSI_FEATURE_ON_DEMAND) |
				   SDSI_FEATURE_ATTESTATION |
				   (c1 & 0x20 ? 0 : SDSI_FEATURE_METERING));
	sdsi_model_set_iblock(m, c1 & 8);
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct model_nvram before;
	struct fuzz_input in = { data, size };
	uint8_t c0 = (uint8_t)fuzz_take(&in, 1), c1 = (uint8_t)fuzz_take(&in, 1);
	struct sdsi_mbox_params params;
	struct sdsi_model *m = fresh_socket(c0, c1);
	struct sdsi_mbox mb;
	uint8_t updates;

	sdsi_mbox_default_params(&params);
	params.flavor = c1 & 0x40 ? SDSI_ABI_EARLY : SDSI_ABI_CURRENT;
	if (sdsi_mbox_init(&mb, sdsi_model_guid(m), &fuzz_model_ops, m, &params))
		abort();
	for (int n = 0; n < MAX_OPS && in.len; n++) {
		before = m->nv;
		updates = m->updates_available;
		run_op(m, &mb, &in);
		check_invariants(m, &before, updates);
	}
	sdsi_model_destroy(m);
	return 0;
}
