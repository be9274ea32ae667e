/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands of intel_sdsi; each returns its exit status. */
#ifndef INTEL_SDSI_COMMANDS_H
#define INTEL_SDSI_COMMANDS_H

#include "exit_codes.h"
#include "options.h"
#include "output.h"

enum sdsi_exit cmd_list(const struct cli *cli, struct output *out);
/* -i, -s, -m, -C on one device, every device (--all) or a saved file (--file). */
enum sdsi_exit cmd_read(const struct cli *cli, struct output *out);
/* -a, -c, with or without --dry-run. */
enum sdsi_exit cmd_provision(const struct cli *cli, struct output *out);

/* Report err through the output and return its exit status. */
enum sdsi_exit report_error(struct output *out, const char *device, const struct sdsi_error *err);

/* Prepend "PREFIX: " to err's message, truncating its end if need be. */
void prefix_error(struct sdsi_error *err, const char *prefix);

#endif /* INTEL_SDSI_COMMANDS_H */
