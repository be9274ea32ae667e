// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdsi/hw.h"
#include "cli_value.h"
#include "util/util_array.h"

bool cli_parse_uint(const char *text, unsigned long long min,
		   unsigned long long max, unsigned long long *value)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*value = v;
	return true;
}

bool cli_parse_hex64(const char *text, size_t len, uint64_t *value)
{
	uint64_t v = 0;

	if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		len -= 2;
	}
	if (len == 0 || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)text[i];

		if (!isxdigit(c))
			return false;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	*value = v;
	return true;
}

static const struct {
	const char *name;
	uint64_t bit;
} feature_names[] = {
	{ "on-demand", SDSI_FEATURE_ON_DEMAND },
	{ "attestation", SDSI_FEATURE_ATTESTATION },
	{ "metering", SDSI_FEATURE_METERING },
};


static int feature_bit(const char *word, size_t len, uint64_t *bit)
{
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(feature_names); i++) {
		if (strlen(feature_names[i].name) == len &&
		    strncmp(word, feature_names[i].name, len) == 0) {
			*bit = feature_names[i].bit;
			return 0;
		}
	}
	return -EINVAL;
}

int cli_parse_features(const char *text, uint64_t *features, char *err,
		      size_t errlen)
{
	uint64_t value = 0, bit;
	const char *p = text;

	if (strcmp(text, "none") == 0) {
		*features = 0;
		return 0;
	}
	if (cli_parse_hex64(text, strlen(text), &value)) {
		if (value & ~SDSI_FEATURES_SETTABLE) {
			snprintf(err, errlen, "'%s' sets bits other than 3 (on-demand), 12 (attestation) and 26 (metering)",
				 text);
			return -EINVAL;
		}
		*features = value;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		if (feature_bit(p, len, &bit)) {
			snprintf(err, errlen, "unknown feature '%.*s' in '%s' (known: on-demand, attestation, metering, none, or a hex value)",
				 (int)len, p, text);
			return -EINVAL;
		}
		value |= bit;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*features = value;
	return 0;
}

int cli_parse_guid(const char *text, uint32_t *guid)
{
	uint64_t v;

	if (strcmp(text, "v1") == 0 || strcmp(text, "v2") == 0) {
		*guid = text[1] == '1' ? SDSI_GUID_V1 : SDSI_GUID_V2;
		return 0;
	}
	if (strncmp(text, "0x", 2) == 0 && cli_parse_hex64(text, strlen(text), &v) &&
	    v <= UINT32_MAX && sdsi_guid_layout((unsigned int)v)) {
		*guid = (uint32_t)v;
		return 0;
	}
	return -EINVAL;
}
