/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The licence types a CAP carries (docs/interface.md section 3.1) and the
 * one name of each: the word sdsi-authority takes and prints and the JSON
 * and Prometheus outputs use, and the phrase of intel_sdsi's text output.
 * Not installed: libsdsi, the licensing codec and the programs share it.
 */
#ifndef SDSI_LICENSE_TYPE_H
#define SDSI_LICENSE_TYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sdsi/hw.h"

enum sdsi_license_type {
	SDSI_LICENSE_ONE_TIME = SDSI_BLOB_TYPE_ONE_TIME,
	SDSI_LICENSE_METERED = SDSI_BLOB_TYPE_METERED,
};

/* The words, for the few strings built at compile time (an option's help). */
#define SDSI_LICENSE_WORD_ONE_TIME	"one-time"
#define SDSI_LICENSE_WORD_METERED	"metered"

/* X(type, word, text-output phrase) */
#define SDSI_LICENSE_TYPE_TABLE(X) \
	X(SDSI_LICENSE_ONE_TIME, SDSI_LICENSE_WORD_ONE_TIME, "One time upgrade") \
	X(SDSI_LICENSE_METERED, SDSI_LICENSE_WORD_METERED, "Metered upgrade")

/* What intel_sdsi's text output says of a type the table lacks. */
#define SDSI_LICENSE_TYPE_UNKNOWN_TEXT	"Unknown license blob type"

/* "one-time", "metered"; NULL for a value the format does not define. */
static inline const char *sdsi_license_type_name(uint32_t type)
{
#define SDSI_LICENSE_TYPE_WORD_(t, word, text) if (type == (uint32_t)(t)) return word;
	SDSI_LICENSE_TYPE_TABLE(SDSI_LICENSE_TYPE_WORD_)
#undef SDSI_LICENSE_TYPE_WORD_
	return NULL;
}

/* "One time upgrade", "Metered upgrade" or SDSI_LICENSE_TYPE_UNKNOWN_TEXT. */
static inline const char *sdsi_license_type_text(uint32_t type)
{
#define SDSI_LICENSE_TYPE_TEXT_(t, word, text) if (type == (uint32_t)(t)) return text;
	SDSI_LICENSE_TYPE_TABLE(SDSI_LICENSE_TYPE_TEXT_)
#undef SDSI_LICENSE_TYPE_TEXT_
	return SDSI_LICENSE_TYPE_UNKNOWN_TEXT;
}

/* The type a word names: 0 and *type, or -1 for a word that names none. */
static inline int sdsi_license_type_parse(const char *word, uint32_t *type)
{
#define SDSI_LICENSE_TYPE_PARSE_(t, name, text) \
	if (!strcmp(word, name)) { \
		*type = (uint32_t)(t); \
		return 0; \
	}
	SDSI_LICENSE_TYPE_TABLE(SDSI_LICENSE_TYPE_PARSE_)
#undef SDSI_LICENSE_TYPE_PARSE_
	return -1;
}

#endif /* SDSI_LICENSE_TYPE_H */
