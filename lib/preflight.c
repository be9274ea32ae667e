// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pre-flight checks: everything that can be known before the provision file
 * is opened, so a blob the silicon is bound to refuse never burns one of the
 * few attempts a socket allows per power cycle.  Every check runs and is
 * recorded, so --dry-run can show them all; the first refusal is the error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "sdsi/le.h"
#include "sdsi/license_type.h"
#include "sdsi_internal.h"
#include "licensing/sdsi_lic.h"

struct checker {
	const struct sdsi_registers *regs;
	enum sdsi_blob_kind kind;
	const char *name;		/* "AKC" or "CAP" */
	bool regs_trusted;		/* the layout check passed */
	unsigned int flags;		/* SDSI_PREFLIGHT_* */
	bool nothing_to_write;		/* unchanged and not forced */
	unsigned int refusals;		/* checks refused */
	unsigned int write_refusals;	/* of which concern only writing */
	bool state_unknown;		/* the state certificate was needed, not given */
	struct sdsi_preflight *pf;
	struct sdsi_error *err;
	int ret;			/* the first refusal */
};

const char *sdsi_check_status_name(enum sdsi_check_status status)
{
	switch (status) {
	case SDSI_CHECK_PASS:
		return "pass";
	case SDSI_CHECK_FAIL:
		return "fail";
	case SDSI_CHECK_SKIP:
		return "skip";
	case SDSI_CHECK_WARN:
		return "warn";
	case SDSI_CHECK_UNCHANGED:
		return "unchanged";
	}
	return "?";
}

__attribute__((format(printf, 4, 0)))
static void vrecord(struct checker *c, const char *name, enum sdsi_check_status status,
		    const char *fmt, va_list ap)
{
	struct sdsi_check *check;

	/* The table is sized for every check there is: one call per name and run. */
	if (c->pf->num_checks >= SDSI_PREFLIGHT_MAX_CHECKS)
		return;
	check = &c->pf->checks[c->pf->num_checks++];
	check->name = name;
	check->status = status;
	vsnprintf(check->detail, sizeof(check->detail), fmt, ap);
}

__attribute__((format(printf, 4, 5)))
static void record(struct checker *c, const char *name, enum sdsi_check_status status,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(c, name, status, fmt, ap);
	va_end(ap);
}

/* A failed check; the first one becomes the error the caller returns. */
__attribute__((format(printf, 5, 6)))
static void refuse(struct checker *c, const char *name, int errnum, long offset,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (c->ret == 0 && c->err) {
		va_list copy;

		va_copy(copy, ap);
		c->err->errnum = errnum;
		c->err->cls = SDSI_ERR_REFUSED;
		c->err->offset = offset;
		vsnprintf(c->err->message, sizeof(c->err->message), fmt, copy);
		va_end(copy);
	}
	if (c->ret == 0)
		c->ret = -errnum;
	c->refusals++;
	vrecord(c, name, SDSI_CHECK_FAIL, fmt, ap);
	va_end(ap);
}

/*
 * A refusal that concerns only writing (no update left, a failure count at
 * its threshold): it gives way to a state that cannot be read, since then
 * whether anything needs writing is what is unknown.
 */
#define refuse_write(c, name, errnum, ...) do {			\
		(c)->write_refusals++;					\
		refuse(c, name, errnum, -1, __VA_ARGS__);		\
	} while (0)

static void check_layout(struct checker *c)
{
	const struct sdsi_registers *regs = c->regs;
	size_t expected;

	if (!regs->guid_known) {
		refuse(c, "layout", ENOTSUP, -1,
		       "unrecognized GUID 0x%x: refusing to provision an unknown register layout",
		       regs->guid);
		return;
	}
	expected = sdsi_layout_regs_size(sdsi_guid_layout(regs->guid));
	if (regs->size != expected) {
		refuse(c, "layout", EBADMSG, -1,
		       "registers: %zu bytes, GUID 0x%x has %zu: refusing to provision on a layout that does not match",
		       regs->size, regs->guid, expected);
		return;
	}
	c->regs_trusted = true;
	record(c, "layout", SDSI_CHECK_PASS, "GUID 0x%x, %zu-byte registers", regs->guid,
	       regs->size);
}

static void check_size(struct checker *c, size_t blob_len)
{
	if (blob_len == 0)
		refuse(c, "size", ENODATA, -1, "the %s file is empty", c->name);
	else if (blob_len > SDSI_BLOB_MAX)
		refuse(c, "size", EOVERFLOW, -1,
		       "the %s file is %zu bytes, the mailbox takes at most %u",
		       c->name, blob_len, SDSI_BLOB_MAX);
	else
		record(c, "size", SDSI_CHECK_PASS, "%zu bytes, at most %u", blob_len,
		       SDSI_BLOB_MAX);
}

/* Register checks mean nothing when the registers were read with the wrong layout. */
static bool regs_usable(struct checker *c, const char *name)
{
	if (!c->regs_trusted)
		record(c, name, SDSI_CHECK_SKIP, "registers not trusted: the layout check failed");
	return c->regs_trusted;
}

static void check_registers(struct checker *c)
{
	const struct sdsi_registers *regs = c->regs;
	const bool akc = c->kind == SDSI_BLOB_AKC;
	unsigned int count = akc ? regs->akc_fail_count : regs->cap_fail_count;
	unsigned int threshold = akc ? regs->akc_fail_threshold : regs->cap_fail_threshold;
	struct sdsi_preflight *pf = c->pf;

	if (regs_usable(c, "on_demand")) {
		if (!regs->on_demand)
			refuse(c, "on_demand", EPERM, -1,
			       "On Demand feature is present but not enabled: unable to provision");
		else
			record(c, "on_demand", SDSI_CHECK_PASS, "On Demand enabled");
	}
	if (regs_usable(c, "updates")) {
		if (regs->updates_available == 0 && c->nothing_to_write)
			record(c, "updates", SDSI_CHECK_SKIP,
			       "0 of %u update(s) available, none needed: nothing to write",
			       regs->updates_threshold);
		else if (regs->updates_available == 0)
			refuse_write(c, "updates", EDQUOT,
			       "Maximum number of updates (%u) has been reached. Power cycle the system to provision again",
			       regs->updates_threshold);
		else
			record(c, "updates", SDSI_CHECK_PASS, "%u of %u update(s) available",
			       regs->updates_available, regs->updates_threshold);
	}
	if (regs_usable(c, "failures")) {
		if (c->nothing_to_write) {
			record(c, "failures", SDSI_CHECK_SKIP,
			       "%u of %u %s failures used, no attempt needed: nothing to write",
			       count, threshold, c->name);
		} else if (count >= threshold) {
			refuse_write(c, "failures", EDQUOT,
			       "Maximum number of %s provision failures (%u) has been reached. Power cycle the system to reset the counter",
			       c->name, threshold);
		} else if (count + 1 == threshold) {
			pf->last_attempt = true;
			snprintf(pf->warning, sizeof(pf->warning),
				 "%u of %u %s failures used: if this attempt fails, %s provisioning is blocked until a power cycle",
				 count, threshold, c->name, c->name);
			record(c, "failures", SDSI_CHECK_WARN, "%s", pf->warning);
		} else {
			record(c, "failures", SDSI_CHECK_PASS, "%u of %u %s failures used", count,
			       threshold, c->name);
		}
	}
	if (!akc && regs_usable(c, "akc_present")) {
		if (!regs->akc_provisioned)
			refuse(c, "akc_present", ENOKEY, -1,
			       "no AKC is provisioned: the CAP could not be authenticated; provision the AKC first");
		else
			record(c, "akc_present", SDSI_CHECK_PASS, "an AKC is provisioned");
	}
}

static void begin(struct checker *c, const struct sdsi_registers *regs, enum sdsi_blob_kind kind,
		  size_t blob_len, unsigned int flags, struct sdsi_preflight *pf,
		  struct sdsi_error *err)
{
	sdsi_clear_error(err);
	memset(pf, 0, sizeof(*pf));
	pf->blob.size = blob_len;
	*c = (struct checker){
		.regs = regs, .kind = kind, .name = sdsi_blob_name(kind), .flags = flags,
		.pf = pf, .err = err,
	};
}

int sdsi_preflight(const struct sdsi_registers *regs, enum sdsi_blob_kind kind,
		   size_t blob_len, struct sdsi_preflight *pf, struct sdsi_error *err)
{
	struct checker c;

	begin(&c, regs, kind, blob_len, 0, pf, err);
	check_layout(&c);
	check_size(&c, blob_len);
	check_registers(&c);
	return c.ret;
}

/*
 * A foreign blob cannot be read, only judged plausible or not: what is not
 * is refused unless forced, and then what sending it risks is the warning.
 */
static void check_foreign(struct checker *c, const uint8_t *blob, size_t len)
{
	char why[120];

	/* Without STRICT, libsdsi 0.1's promise: every foreign blob passes. */
	if (!(c->flags & SDSI_PREFLIGHT_STRICT) ||
	    sdsi_foreign_plausible(blob, len, why, sizeof(why))) {
		record(c, "format", SDSI_CHECK_SKIP,
		       "foreign blob (not the sdsi format, e.g. an Intel file): passed through with the generic checks only");
		return;
	}
	if (!(c->flags & SDSI_PREFLIGHT_FORCE)) {
		refuse(c, "format", EBADMSG, -1,
		       "not an AKC or CAP the silicon could accept: a foreign blob must be %u to %u bytes of binary data, and this is %s (--force sends it anyway)",
		       SDSI_FOREIGN_MIN, SDSI_BLOB_MAX, why);
		return;
	}
	snprintf(c->pf->warning, sizeof(c->pf->warning),
		 "sent because of --force although it is %.*s: the silicon will most likely reject it and count a %s failure",
		 100, why, c->name);
	record(c, "format", SDSI_CHECK_WARN, "%s", c->pf->warning);
}

/*
 * A CAP whose first dword is a licence type (1 or 2) but whose bundles and
 * signature do not fit its size is a licence blob cut short or damaged, not
 * a foreign blob: refused as malformed, with the reader's offset and reason,
 * as a malformed AKC is, forced or not (STRICT only: libsdsi 0.1 passed
 * every blob it could not read).
 */
static bool claims_licence(struct checker *c, const uint8_t *blob, size_t len)
{
	struct sdsi_lic_error lerr = { .offset = SDSI_LIC_NO_OFFSET };
	struct sdsi_lic_blob *lic;

	if (c->kind != SDSI_BLOB_CAP || !(c->flags & SDSI_PREFLIGHT_STRICT) || len < 4 ||
	    !sdsi_license_type_name(sdsi_le32(blob + SDSI_BLOB_OFF_TYPE)))
		return false;
	lic = malloc(sizeof(*lic));
	if (!lic) {
		refuse(c, "format", ENOMEM, -1, "out of memory");
		return true;
	}
	if (sdsi_lic_cap_read(blob, len, lic, NULL, &lerr) == 0) {
		free(lic);
		return false;
	}
	free(lic);
	refuse(c, "format", EBADMSG, (long)lerr.offset,
	       "malformed CAP at offset %zu: %s (it starts as a licence blob)",
	       lerr.offset, lerr.reason);
	return true;
}

/* Decode the blob; true when it is ours, well formed and of the kind asked for. */
static bool check_format(struct checker *c, const uint8_t *blob, size_t len)
{
	const enum sdsi_blob_format want = c->kind == SDSI_BLOB_AKC ? SDSI_BLOB_FORMAT_AKC :
								     SDSI_BLOB_FORMAT_CAP;
	struct sdsi_blob_info *info = &c->pf->blob;
	struct sdsi_error derr;

	if (sdsi_decode_blob(blob, len, info, &derr)) {
		if (derr.cls == SDSI_ERR_INTERNAL) {
			refuse(c, "format", derr.errnum, -1, "%s", derr.message);
			return false;
		}
		refuse(c, "format", EBADMSG, derr.offset, "%s", derr.message);
		return false;
	}
	if (info->format == SDSI_BLOB_FORMAT_FOREIGN) {
		if (!claims_licence(c, blob, len))
			check_foreign(c, blob, len);
		return false;
	}
	if (info->format != want) {
		/* The two kinds are the only ones: the file is the other one. */
		refuse(c, "format", EINVAL, 0, "the file is %s, but %s provisions %s: use %s",
		       c->kind == SDSI_BLOB_AKC ? "a CAP" : "an AKC",
		       c->kind == SDSI_BLOB_AKC ? "-a" : "-c",
		       c->kind == SDSI_BLOB_AKC ? "an AKC" : "a CAP",
		       c->kind == SDSI_BLOB_AKC ? "-c" : "-a");
		return false;
	}
	if (info->format == SDSI_BLOB_FORMAT_AKC)
		record(c, "format", SDSI_CHECK_PASS, "sdsi AKC, key revision %u",
		       info->key_revision);
	else
		record(c, "format", SDSI_CHECK_PASS,
		       "CAP, licence 0x%016" PRIx64 " revision %u, %u feature(s)",
		       info->id, info->revision, info->num_features);
	return true;
}

static void check_ppin(struct checker *c)
{
	const struct sdsi_blob_info *info = &c->pf->blob;

	if (!regs_usable(c, "ppin"))
		return;
	if (info->ppin != c->regs->ppin)
		refuse(c, "ppin", EXDEV, -1,
		       "the CAP is bound to PPIN 0x%016" PRIx64 ", this socket's PPIN is 0x%016" PRIx64
		       ": the silicon would refuse it",
		       info->ppin, c->regs->ppin);
	else
		record(c, "ppin", SDSI_CHECK_PASS, "PPIN 0x%016" PRIx64 " is this socket's",
		       info->ppin);
}

/* Already provisioned: nothing to write, unless forced. */
__attribute__((format(printf, 3, 4)))
static void unchanged(struct checker *c, unsigned int flags, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(c, "already_provisioned", SDSI_CHECK_UNCHANGED, fmt, ap);
	va_end(ap);
	c->pf->unchanged = true;
	c->pf->forced = flags & SDSI_PREFLIGHT_FORCE;
}

static void compare_akc(struct checker *c, const struct sdsi_state_cert *state,
			unsigned int flags)
{
	const struct sdsi_blob_info *info = &c->pf->blob;
	const bool same_key = memcmp(info->key_image, state->key_image,
				     sizeof(info->key_image)) == 0;

	if (info->key_revision < state->key_rev_id)
		refuse(c, "already_provisioned", ESTALE, -1,
		       "the AKC's key revision %u is lower than the provisioned %u: the silicon refuses a rollback",
		       info->key_revision, state->key_rev_id);
	else if (same_key && info->key_revision == state->key_rev_id)
		unchanged(c, flags,
			  "this licence key (same key image) with key revision %u is already provisioned",
			  info->key_revision);
	else
		record(c, "already_provisioned", SDSI_CHECK_PASS,
		       "replaces the provisioned %skey, key revision %u",
		       same_key ? "(same) " : "", state->key_rev_id);
}

static void compare_cap(struct checker *c, const struct sdsi_state_cert *state,
			unsigned int flags)
{
	const struct sdsi_blob_info *info = &c->pf->blob;
	const struct sdsi_license *valid = NULL, *stale = NULL;

	for (uint32_t i = 0; i < state->num_licenses; i++) {
		const struct sdsi_license *lic = &state->licenses[i];

		if (!lic->present || lic->id != info->id || lic->revision < info->revision)
			continue;
		if (lic->valid && (!valid || lic->revision > valid->revision))
			valid = lic;
		else if (!lic->valid && !stale)
			stale = lic;
	}
	if (valid)
		unchanged(c, flags,
			  "licence 0x%016" PRIx64 " revision %u is already provisioned and valid (entry %u); this CAP is revision %u",
			  valid->id, valid->revision, valid->index, info->revision);
	else if (stale)
		refuse(c, "already_provisioned", ESTALE, -1,
		       "licence 0x%016" PRIx64 " revision %u is stored (entry %u, no longer valid): the silicon refuses revision %u as a replay",
		       stale->id, stale->revision, stale->index, info->revision);
	else
		record(c, "already_provisioned", SDSI_CHECK_PASS,
		       "licence 0x%016" PRIx64 " revision %u is not stored yet (%u licence(s) stored)",
		       info->id, info->revision, state->num_licenses);
}

/* The state certificate says what the socket already holds. */
static void check_state(struct checker *c, const struct sdsi_state_cert *state,
			unsigned int flags)
{
	const char *name = "already_provisioned";

	if (!c->regs_trusted || !c->regs->akc_provisioned) {
		if (c->kind == SDSI_BLOB_AKC && c->regs_trusted)
			record(c, name, SDSI_CHECK_PASS, "no AKC provisioned yet");
		else
			record(c, name, SDSI_CHECK_SKIP, "no AKC provisioned: nothing to compare with");
		return;
	}
	if ((!state || !state->key_present) && !(flags & SDSI_PREFLIGHT_STRICT)) {
		/* libsdsi 0.1's promise: without the certificate, no comparison. */
		record(c, name, SDSI_CHECK_SKIP, "%s",
		       state ? "the state certificate holds no licence key although the registers say an AKC is provisioned"
			     : "state certificate not available");
		return;
	}
	if (!state || !state->key_present) {
		c->state_unknown = true;
		record(c, name, flags & SDSI_PREFLIGHT_FORCE ? SDSI_CHECK_SKIP : SDSI_CHECK_FAIL,
		       "%s: whether this %s is already provisioned is unknown%s",
		       state ? "the state certificate holds no licence key although the registers say an AKC is provisioned"
			     : "state certificate not available",
		       c->name, flags & SDSI_PREFLIGHT_FORCE ? "; sent anyway because of --force" :
		       ", so nothing is written");
		return;
	}
	if (c->kind == SDSI_BLOB_AKC)
		compare_akc(c, state, flags);
	else
		compare_cap(c, state, flags);
}

/*
 * Whether the blob is already provisioned, judged before the checks are
 * recorded: what needs no write is not refused for want of an update.
 */
static bool would_be_unchanged(const struct sdsi_registers *regs,
			       const struct sdsi_state_cert *state, enum sdsi_blob_kind kind,
			       const uint8_t *blob, size_t len)
{
	struct sdsi_preflight scratch;
	struct sdsi_error serr;
	struct checker c;

	if (!state || len == 0 || len > SDSI_BLOB_MAX)
		return false;
	begin(&c, regs, kind, len, 0, &scratch, &serr);
	check_layout(&c);
	if (!check_format(&c, blob, len))
		return false;
	check_state(&c, state, 0);
	return scratch.unchanged;
}

int sdsi_preflight_blob(const struct sdsi_registers *regs, const struct sdsi_state_cert *state,
			enum sdsi_blob_kind kind, const uint8_t *blob, size_t len,
			unsigned int flags, struct sdsi_preflight *pf, struct sdsi_error *err)
{
	struct checker c;
	bool ours;

	begin(&c, regs, kind, len, flags, pf, err);
	c.nothing_to_write = !(flags & SDSI_PREFLIGHT_FORCE) &&
			     would_be_unchanged(regs, state, kind, blob, len);
	check_layout(&c);
	check_size(&c, len);
	if (len == 0 || len > SDSI_BLOB_MAX) {
		record(&c, "format", SDSI_CHECK_SKIP, "not decoded: the size check failed");
		ours = false;
	} else {
		ours = check_format(&c, blob, len);
	}
	check_registers(&c);
	if (ours && kind == SDSI_BLOB_CAP)
		check_ppin(&c);
	if (ours)
		check_state(&c, state, flags);
	/* Unknown wins over a refusal that concerns only writing: none is needed yet. */
	if (c.state_unknown && !(flags & SDSI_PREFLIGHT_FORCE) &&
	    c.refusals == c.write_refusals) {
		c.ret = sdsi_fail(err, ENODATA, SDSI_ERR_STATE_UNKNOWN, -1,
				  "the state certificate is not available: whether this %s is already provisioned is unknown, so nothing is written (--force sends it anyway)",
				  c.name);
	}
	return c.ret;
}
