// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a foreign blob (not the sdsi AKC/CAP format: every real Intel file)
 * must at least be before it is written.  The tool cannot read such a blob,
 * but it can tell one that cannot be an AKC or CAP: the firmware
 * authenticates every blob with an ECDSA P-384 signature (docs/interface.md
 * §3.4, §3.5), 96 bytes of r and s that look random, and the mailbox
 * carries at most SDSI_BLOB_MAX bytes.  Text (a note, a PEM key handed to
 * the wrong option), a DER key (the same key in binary), a file of one repeated byte (zeros, erased flash) or a
 * blob shorter than a signature would only be rejected by the silicon, and
 * a rejection spends one of the few attempts of the power cycle.
 */
#include <stdio.h>
#include <string.h>

#include "sdsi/utf8.h"
#include "sdsi_internal.h"
#include "licensing/sdsi_lic.h"

/* White space a text file holds; every other control character is binary. */
static bool text_space(uint8_t c)
{
	return c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Printable ASCII, white space and UTF-8 characters only: a text file. */
static bool is_text(const uint8_t *blob, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n;

		if ((blob[i] >= 0x20 && blob[i] < 0x7f) || text_space(blob[i])) {
			i++;
			continue;
		}
		/* Any other ASCII byte is a control character: binary. */
		n = blob[i] < 0x80 ? 0 : sdsi_utf8_sequence(blob + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

/* Where "-----BEGIN " starts, or NULL. */
static const uint8_t *pem_begin(const uint8_t *blob, size_t len)
{
	static const char tag[] = "-----BEGIN ";
	const size_t tlen = sizeof(tag) - 1;

	for (size_t i = 0; i + tlen <= len; i++)
		if (!memcmp(blob + i, tag, tlen))
			return blob + i;
	return NULL;
}

bool sdsi_foreign_plausible(const uint8_t *blob, size_t len, char *why, size_t why_size)
{
	const uint8_t *pem;
	const char *der;
	size_t i;

	if (len < SDSI_FOREIGN_MIN) {
		snprintf(why, why_size,
			 "%zu bytes, fewer than the %u of the ECDSA P-384 signature any AKC or CAP carries",
			 len, SDSI_FOREIGN_MIN);
		return false;
	}
	if (len > SDSI_BLOB_MAX) {
		snprintf(why, why_size, "%zu bytes, the mailbox takes at most %u", len,
			 SDSI_BLOB_MAX);
		return false;
	}
	pem = pem_begin(blob, len);
	if (pem) {
		/* The label ("EC PRIVATE KEY") says what it is; nothing of the key itself. */
		size_t label = 0, start = 11;

		while (pem + start + label < blob + len && label < 40 &&
		       pem[start + label] >= 0x20 && pem[start + label] < 0x7f &&
		       pem[start + label] != '-')
			label++;
		snprintf(why, why_size, "a PEM file (\"-----BEGIN %.*s\"), a key or certificate, not a blob",
			 (int)label, (const char *)pem + start);
		return false;
	}
	der = sdsi_lic_der_key_kind(blob, len);
	if (der) {
		snprintf(why, why_size, "a DER %s, not a blob", der);
		return false;
	}
	if (is_text(blob, len)) {
		snprintf(why, why_size, "text, not a signed blob");
		return false;
	}
	for (i = 1; i < len && blob[i] == blob[0]; i++)
		;
	if (i == len) {
		snprintf(why, why_size, "%zu bytes that are all 0x%02x", len, blob[0]);
		return false;
	}
	return true;
}
