/* SPDX-License-Identifier: GPL-2.0-only */
/* --help, the man page and the bash completion, all from the option table. */
#ifndef SDSI_TOOLS_INTEL_SDSI_DOCGEN_H
#define SDSI_TOOLS_INTEL_SDSI_DOCGEN_H

#include <stdio.h>

void print_usage(FILE *f);
void print_help(FILE *f);
void print_man_page(FILE *f);
void print_bash_completion(FILE *f);

#endif /* SDSI_TOOLS_INTEL_SDSI_DOCGEN_H */
