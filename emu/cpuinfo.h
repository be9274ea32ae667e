/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /proc/cpuinfo inside `sdsi-emu run`: what tools read to tell which
 * processor they run on agrees with the emulated part.  A V1 GUID stands
 * for Sapphire Rapids (family 6, model 143), V2 for Granite Rapids (family
 * 6, model 173); one processor per emulated socket, each its own package
 * ("physical id" N for socket N).  Only in the run's private mount
 * namespace (namespace.h), like /proc/modules.
 */
#ifndef SDSI_EMU_CPUINFO_H
#define SDSI_EMU_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The generation a GUID stands for, as /proc/cpuinfo names it. */
struct emu_cpu_model {
	unsigned int family, model, stepping;
	const char *name;	/* "model name" */
};

/* The model of guid's generation (an unknown GUID: V2's, the default part). */
const struct emu_cpu_model *emu_cpu_model_of(uint32_t guid);

/*
 * Write the cpuinfo text for sockets sockets of guid's generation to fd.
 * host is the machine's own /proc/cpuinfo (NULL: none): its first
 * processor's lines that describe no identity (cpu MHz, address sizes, ...)
 * are kept; its vendor, model, topology, flags and bugs are not, since
 * they would describe the host's processor.  0 or -errno.
 */
int emu_cpuinfo_write(int fd, const char *host, uint32_t guid, unsigned int sockets);

/*
 * Bind such a file (a temporary in scratch_dir, unlinked once mounted) over
 * /proc/cpuinfo, read-only.  *bound tells emu_cpuinfo_unbind what to undo.
 * 0 or -errno with a message in err.
 */
int emu_cpuinfo_bind(bool *bound, const char *scratch_dir, uint32_t guid,
		     unsigned int sockets, char *err, size_t errlen);

void emu_cpuinfo_unbind(bool *bound);

#endif /* SDSI_EMU_CPUINFO_H */
