/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What paths/'s two files share and nobody else sees. */
#ifndef SDSI_PATHS_PATH_INTERNAL_H
#define SDSI_PATHS_PATH_INTERNAL_H

#include <stddef.h>

/* Format the message into err (when errlen is not 0) and return -e. */
int sdsi_path_fail(char *err, size_t errlen, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* SDSI_PATHS_PATH_INTERNAL_H */
