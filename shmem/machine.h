// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's machine laid out on the window (machine.c): the window
 * file mapped, and a model for each socket attached to its slot.
 * Internal to the sdsi-shmem program.
 */
#ifndef SDSI_SHMEM_MACHINE_H
#define SDSI_SHMEM_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "shmem_options.h"

/* The window file, mapped shared; a regular file is grown to fit. */
void *shmem_map_window(const char *path, uint64_t offset, size_t size);
/*
 * The sockets: a model for each, attached to its slot of the window.
 * On failure (reported) machine->sockets says how many models to destroy.
 */
int shmem_create_sockets(struct shmem_machine *machine,
			 const struct shmem_options *o, char *base);
/* At exit: the sockets' protocol violations, on stderr. */
void shmem_print_violations(struct shmem_machine *machine);

#endif
