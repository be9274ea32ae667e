// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdsi's decoders and pre-flight checks on hostile bytes.  The first byte
 * picks what the rest is:
 *   0  a registers file (bits 2-3 of the byte pick the GUID it is read with)
 *   1  a state certificate
 *   2  a meter certificate
 *   3  a pre-flight: [registers, 72 or 80 bytes][u16 state length][state
 *      certificate][blob], bit 2 picking AKC or CAP, bit 3 the size of the
 *      registers, bit 4 SDSI_PREFLIGHT_FORCE
 * Every part is copied to a buffer of its exact size, so that a read one
 * byte past it is an AddressSanitizer report.  Invariants: no crash, every
 * decoded field inside its bit field, pointers of a successful decode inside
 * the buffer, a pre-flight with at most SDSI_PREFLIGHT_MAX_CHECKS checks, an
 * error message and errno exactly when it refuses.
 */
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi/libsdsi.h"
#include "cert_decode.h"
#include "fuzz_handle.h"
#include "fuzz_check.h"

static const uint32_t guids[4] = { 0, SDSI_GUID_V1, SDSI_GUID_V2, 0x12345678u };

static uint8_t *exact_copy(const uint8_t *p, size_t len)
{
	/* malloc(0) may return NULL: one byte more would hide nothing here. */
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		abort();
	memcpy(copy, p, len);
	return copy;
}

static void check_registers(const struct sdsi_registers *r, size_t len)
{
	FUZZ_CHECK(r->size == len, "size %zu for %zu bytes", r->size, len);
	FUZZ_CHECK(r->akc_fail_count <= 7 && r->akc_fail_threshold <= 7 &&
		   r->cap_fail_count <= 7 && r->cap_fail_threshold <= 7 &&
		   r->updates_available <= 7 && r->updates_threshold <= 7,
		   "a 3-bit field out of range");
	FUZZ_CHECK(r->socket_id <= 15, "socket id %u", r->socket_id);
	FUZZ_CHECK(r->layout == 1 || r->layout == 2, "layout %u", r->layout);
}

static void check_refusal(int ret, const struct sdsi_error *err)
{
	if (ret) {
		FUZZ_CHECK(ret < 0 && sdsi_error_errno(err) == -ret, "ret %d errnum %d", ret,
			   sdsi_error_errno(err));
		/* An unterminated message would take strlen() past the handle: ASan watches. */
		FUZZ_CHECK(strlen(sdsi_error_message(err)) > 0, "refused without a message");
	} else {
		FUZZ_CHECK(sdsi_error_errno(err) == 0, "success with errnum %d", sdsi_error_errno(err));
	}
}

/*
 * At most one record per check name (the ten libsdsi.h lists), each named,
 * its detail terminated (strlen() past the handle would trip ASan), none
 * past the last.
 */
static void check_checks(const struct sdsi_preflight *pf)
{
	const unsigned int n = sdsi_preflight_num_checks(pf);

	FUZZ_CHECK(n <= 10, "%u checks", n);
	for (unsigned int i = 0; i < n; i++)
		FUZZ_CHECK(sdsi_preflight_check_name(pf, i) &&
			   strlen(sdsi_preflight_check_detail(pf, i)) < SIZE_MAX, "check %u", i);
	FUZZ_CHECK(!sdsi_preflight_check_name(pf, n), "a check past the last");
}

static void fuzz_registers(uint8_t mode, struct fuzz_input *in)
{
	const uint32_t guid = guids[(mode >> 2) & 3];
	const uint8_t *p = in->p;
	const size_t len = in->len;
	struct sdsi_registers regs;
	FUZZ_PREFLIGHT(pf);
	FUZZ_ERROR(err);
	uint8_t *buf = exact_copy(p, len);
	int ret = sdsi_decode_registers(buf, len, guid, &regs, err);

	check_refusal(ret, err);
	if (!ret) {
		check_registers(&regs, len);
		for (int kind = SDSI_BLOB_AKC; kind <= SDSI_BLOB_CAP; kind++) {
			ret = sdsi_preflight(&regs, (enum sdsi_blob_kind)kind, len, pf, err);
			check_refusal(ret, err);
			check_checks(pf);
		}
	}
	free(buf);
}

static void fuzz_state(uint8_t mode, struct fuzz_input *in)
{
	uint8_t *buf = exact_copy(in->p, in->len);
	char why[512];

	cert_decode_state(buf, in->len, why, sizeof(why));
	free(buf);
}

static void fuzz_meter(uint8_t mode, struct fuzz_input *in)
{
	uint8_t *buf = exact_copy(in->p, in->len);
	char why[512];

	cert_decode_meter(buf, in->len, why, sizeof(why));
	free(buf);
}

static void fuzz_preflight(uint8_t mode, struct fuzz_input *in)
{
	const enum sdsi_blob_kind kind = mode & 4 ? SDSI_BLOB_CAP : SDSI_BLOB_AKC;
	const size_t regs_len = mode & 8 ? SDSI_REGS_SIZE_V2 : SDSI_REGS_SIZE_V1;
	const unsigned int flags = mode & 16 ? SDSI_PREFLIGHT_FORCE : 0;
	struct sdsi_state_cert state;
	struct sdsi_registers regs;
	FUZZ_PREFLIGHT(pf);
	FUZZ_ERROR(err);
	uint8_t *regs_buf, *state_buf, *blob;
	size_t state_len;
	bool have_state;
	int ret;

	if (in->len < regs_len + 2)
		return;
	regs_buf = exact_copy(in->p, regs_len);
	in->p += regs_len;
	in->len -= regs_len;
	state_len = (size_t)fuzz_take(in, 2);
	if (state_len > in->len)
		state_len = in->len;
	state_buf = exact_copy(in->p, state_len);
	in->p += state_len;
	in->len -= state_len;
	blob = exact_copy(in->p, in->len);

	if (sdsi_decode_registers(regs_buf, regs_len, 0, &regs, err) == 0) {
		have_state = sdsi_decode_state_cert(state_buf, state_len, &state, err) == 0;
		ret = sdsi_preflight_blob(&regs, have_state ? &state : NULL, kind, blob,
					  in->len, flags, pf, err);
		check_refusal(ret, err);
		check_checks(pf);
		FUZZ_CHECK(sdsi_preflight_blob_info(pf)->num_features <= SDSI_BLOB_MAX_FEATURES,
			   "%u features", sdsi_preflight_blob_info(pf)->num_features);
		FUZZ_CHECK(!sdsi_preflight_forced(pf) || sdsi_preflight_unchanged(pf),
			   "forced but not unchanged");
		if (have_state)
			sdsi_state_cert_free(&state);
	}
	free(blob);
	free(state_buf);
	free(regs_buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_entry *const entries[4] = {
		fuzz_registers, fuzz_state, fuzz_meter, fuzz_preflight,
	};

	return fuzz_by_first_byte(data, size, entries);
}
