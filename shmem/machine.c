// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi-shmem's machine: the window file mapped (in the kernel rig, the
 * guest's RAM file at the reserved range), and the sockets' models laid
 * out in their slots of it with the platform options sdsi-emu reads too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"
#include "window/window_file.h"

/*
 * The window file, mapped shared; a regular file is grown to fit.  Opened
 * as window_file.h says: no link followed on the way or at the end (one
 * planted where the window is to be made, in /tmp say, or a directory
 * above swapped for one, would have us grow and scribble on the file it
 * names), and, since its control page serves the commands --ctl does, an
 * existing window file closed to others as --state is: owned by us or
 * root, writable by neither group nor others (one we create is 0600).
 */
void *shmem_map_window(const char *path, uint64_t offset, size_t size)
{
	char err[WINDOW_FILE_ERR_SIZE];
	struct stat st;
	void *base;
	int fd;

	fd = window_file_open(path, true, &st, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "sdsi-shmem: %s\n", err);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < offset + size &&
	    ftruncate(fd, (off_t)(offset + size))) {
		fprintf(stderr, "sdsi-shmem: %s: cannot grow to %zu bytes: %s\n",
			path, size, strerror(errno));
		close(fd);
		return NULL;
	}
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)offset);
	close(fd);
	if (base == MAP_FAILED) {
		fprintf(stderr, "sdsi-shmem: %s: cannot map %zu bytes: %s\n",
			path, size, strerror(errno));
		return NULL;
	}
	return base;
}

/* The sockets: a model for each, attached to its slot of the window. */
int shmem_create_sockets(struct shmem_machine *machine,
			 const struct shmem_options *o, char *base)
{
	char err[256];

	machine->models = calloc(o->pf.sockets, sizeof(*machine->models));
	machine->ports = calloc(o->pf.sockets, sizeof(*machine->ports));
	if (!machine->models || !machine->ports) {
		fprintf(stderr, "sdsi-shmem: out of memory\n");
		return -ENOMEM;
	}
	for (unsigned int n = 0; n < o->pf.sockets; n++) {
		/* The platform options, as sdsi-emu reads them too. */
		int ret = cli_platform_model_create(&o->pf, n, o->pf.state_dir, o->root_key,
						   NULL, NULL, &machine->models[n], err,
						   sizeof(err));

		if (!machine->models[n]) {
			fprintf(stderr, "sdsi-shmem: socket %u: %s\n", n, err);
			return -EINVAL;
		}
		machine->sockets = n + 1;
		if (ret) {
			fprintf(stderr, "sdsi-shmem: %s\n", err);
			return -EINVAL;
		}
		if (shmem_port_attach_at(&machine->ports[n], machine->models[n],
					 base + (size_t)n * SDSI_WINDOW_SLOT_SIZE,
					 o->barid, n * SDSI_WINDOW_SLOT_SIZE)) {
			fprintf(stderr, "sdsi-shmem: socket %u: MMIO region "
				"does not fit a %u-byte slot\n", n, SDSI_WINDOW_SLOT_SIZE);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * At exit, on stderr: each socket's protocol violations and those it kept,
 * then the total on a line of its own for scripts (the kernel rig's
 * violations=N).
 */
void shmem_print_violations(struct shmem_machine *machine)
{
	struct sdsi_violation v[SDSI_MODEL_VIOLATIONS_KEPT];
	uint64_t total = 0, count;

	for (unsigned int n = 0; n < machine->sockets; n++) {
		unsigned int kept = sdsi_model_violations(machine->models[n], v,
							  SDSI_MODEL_VIOLATIONS_KEPT);

		count = sdsi_model_violation_count(machine->models[n]);
		total += count;
		if (!count)
			continue;
		fprintf(stderr, "sdsi-shmem: socket %u: %" PRIu64 " protocol violations, the last %u:\n",
			n, count, kept);
		for (unsigned int i = 0; i < kept; i++)
			fprintf(stderr, "sdsi-shmem: socket %u: #%" PRIu64 " %s 0x%x value 0x%016" PRIx64 ": %s (%s)\n",
				n, v[i].seq, v[i].write ? "write" : "read", v[i].offset,
				v[i].value, sdsi_rule_id(v[i].rule), sdsi_rule_text(v[i].rule));
	}
	fprintf(stderr, "sdsi-shmem: protocol-violations=%" PRIu64 "\n", total);
}
