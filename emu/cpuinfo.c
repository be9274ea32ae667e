// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpuinfo.h"
#include "proc_bind.h"
#include "util/util_array.h"
#include "util/util_io.h"
#include "sdsi/hw.h"

#define PROC_CPUINFO	"/proc/cpuinfo"

static const struct emu_cpu_model sapphire_rapids = {
	6, 143, 8, "Intel(R) Xeon(R) CPU (Sapphire Rapids, emulated by sdsi-emu)"
};
static const struct emu_cpu_model granite_rapids = {
	6, 173, 1, "Intel(R) Xeon(R) CPU (Granite Rapids, emulated by sdsi-emu)"
};

const struct emu_cpu_model *emu_cpu_model_of(uint32_t guid)
{
	return guid == SDSI_GUID_V1 ? &sapphire_rapids : &granite_rapids;
}

/*
 * The host's lines that hold for any x86 processor the emulated one could
 * be: kept.  Everything else of the host's (vendor, model, microcode,
 * topology, flags, bugs, TLB) would contradict the part, and is left out.
 */
static const char *const neutral_keys[] = {
	"cpu MHz", "cache size", "fpu", "fpu_exception", "wp", "bogomips",
	"clflush size", "cache_alignment", "address sizes", "power management",
};

static bool is_neutral(const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	size_t key;

	if (!colon)
		return false;
	key = (size_t)(colon - line);
	while (key && (line[key - 1] == '\t' || line[key - 1] == ' '))
		key--;
	for (size_t i = 0; i < UTIL_ARRAY_SIZE(neutral_keys); i++)
		if (strlen(neutral_keys[i]) == key && !memcmp(line, neutral_keys[i], key))
			return true;
	return false;
}

static int put(FILE *f, const char *s, size_t len)
{
	return fwrite(s, 1, len, f) == len ? 0 : -EIO;
}

int emu_cpuinfo_write(int fd, const char *host, uint32_t guid, unsigned int sockets)
{
	const struct emu_cpu_model *m = emu_cpu_model_of(guid);
	int dup_fd = dup(fd);
	FILE *f = dup_fd < 0 ? NULL : fdopen(dup_fd, "w");
	int ret = 0;

	if (!f) {
		ret = -errno;
		if (dup_fd >= 0)
			close(dup_fd);
		return ret;
	}
	for (unsigned int n = 0; n < sockets && !ret; n++) {
		/* One processor per socket, its own package; APIC IDs spaced as packages are. */
		fprintf(f, "processor\t: %u\nvendor_id\t: GenuineIntel\ncpu family\t: %u\n"
			   "model\t\t: %u\nmodel name\t: %s\nstepping\t: %u\n"
			   "physical id\t: %u\nsiblings\t: 1\ncore id\t\t: 0\ncpu cores\t: 1\n"
			   "apicid\t\t: %u\ninitial apicid\t: %u\n",
			n, m->family, m->model, m->name, m->stepping, n, n << 8, n << 8);
		/* The host's first processor: up to its blank line. */
		for (const char *p = host; p && *p && *p != '\n';) {
			const char *end = strchr(p, '\n');
			size_t len = end ? (size_t)(end - p) + 1 : strlen(p);

			if (is_neutral(p, len))
				ret = put(f, p, len);
			p += len;
		}
		if (!ret)
			ret = put(f, "\n", 1);
	}
	if (fclose(f) != 0 && !ret)
		ret = -errno;
	return ret;
}

struct cpuinfo_fill {
	const char *host;
	uint32_t guid;
	unsigned int sockets;
};

static int fill_cpuinfo(int fd, void *ctx)
{
	const struct cpuinfo_fill *c = ctx;

	return emu_cpuinfo_write(fd, c->host, c->guid, c->sockets);
}

int emu_cpuinfo_bind(bool *bound, const char *scratch_dir, uint32_t guid,
		     unsigned int sockets, char *err, size_t errlen)
{
	struct cpuinfo_fill c = { .guid = guid, .sockets = sockets };
	char *host;
	size_t len;
	int ret;

	*bound = false;
	/* Without the host's (unreadable, or too large): the emulated lines alone. */
	ret = util_read_file(PROC_CPUINFO, EMU_PROC_READ_MAX, &host, &len);
	if (ret == -ENOENT) {
		snprintf(err, errlen, PROC_CPUINFO ": no such file (is /proc mounted?)");
		return -ENOENT;
	}
	c.host = host;
	ret = emu_proc_bind(PROC_CPUINFO, scratch_dir, "show the emulated processors",
			    fill_cpuinfo, &c, bound, err, errlen);
	if (ret)
		emu_cpuinfo_unbind(bound);
	free(host);
	return ret;
}

void emu_cpuinfo_unbind(bool *bound)
{
	if (*bound && umount2(PROC_CPUINFO, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " PROC_CPUINFO ": %s\n", strerror(errno));
	*bound = false;
}
