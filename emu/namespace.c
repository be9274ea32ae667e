// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "namespace.h"

#define SYS_BUS		"/sys/bus"
#define PROC_MODULES	"/proc/modules"
/* "name size refcount deps state address", as a loaded module shows. */
#define SDSI_MODULE_LINE "intel_sdsi 24576 0 - Live 0x0000000000000000\n"

int emu_ns_enter(char *err, size_t errlen)
{
	if (unshare(CLONE_NEWNS) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot create a mount namespace: %s", strerror(e));
		return -e;
	}
	/* Without this, mounts below would propagate to the parent namespace. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot make / private in the new namespace: %s",
			 strerror(e));
		return -e;
	}
	return 0;
}

/*
 * Give the tmpfs an entry like the original one at `name`.  The original is
 * reached through bus_fd, opened before the tmpfs covered it.
 */
static int rebind_entry(int bus_fd, const char *name, unsigned char type,
			char *err, size_t errlen)
{
	char src[64 + NAME_MAX], dst[sizeof(SYS_BUS) + 1 + NAME_MAX];
	char target[PATH_MAX];
	ssize_t len;
	int fd, e;

	snprintf(src, sizeof(src), "/proc/self/fd/%d/%s", bus_fd, name);
	snprintf(dst, sizeof(dst), SYS_BUS "/%s", name);
	switch (type) {
	case DT_DIR:
		if (mkdir(dst, 0755) < 0)
			goto fail;
		break;
	case DT_LNK:
		len = readlinkat(bus_fd, name, target, sizeof(target) - 1);
		if (len < 0)
			goto fail;
		target[len] = '\0';
		if (symlink(target, dst) < 0)
			goto fail;
		return 0;
	default:
		fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			goto fail;
		close(fd);
		break;
	}
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0)
		goto fail;
	return 0;
fail:
	e = errno;
	snprintf(err, errlen, "cannot show %s again under the tmpfs: %s", dst, strerror(e));
	return -e;
}

static int cover_sys_bus(struct emu_namespace *ns, char *err, size_t errlen)
{
	int bus_fd, ret = 0;
	struct dirent *e;
	DIR *d;

	bus_fd = open(SYS_BUS, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bus_fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open " SYS_BUS ": %s", strerror(errno));
		return ret;
	}
	if (mount("tmpfs", SYS_BUS, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0755,size=64k") < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot mount a tmpfs on " SYS_BUS ": %s", strerror(errno));
		close(bus_fd);
		return ret;
	}
	ns->bus_tmpfs = true;

	d = fdopendir(dup(bus_fd));
	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "cannot list " SYS_BUS ": %s", strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		ret = rebind_entry(bus_fd, e->d_name, e->d_type, err, errlen);
		if (ret)
			break;
	}
	closedir(d);
	if (ret == 0 && mkdir(EMU_AUXILIARY_BUS, 0755) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create " EMU_AUXILIARY_BUS ": %s", strerror(errno));
	}
out:
	close(bus_fd);
	return ret;
}

static char *read_whole(const char *path, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + used, cap - used)) > 0) {
		used += (size_t)n;
		if (used == cap) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				goto fail;
			buf = bigger;
			cap *= 2;
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	*len = used;
	return buf;
fail:
	n = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = (int)n;
	return NULL;
}

static bool lists_intel_sdsi(const char *modules, size_t len)
{
	static const char name[] = "intel_sdsi ";
	const char *p = modules, *end = modules + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if ((size_t)(end - p) >= sizeof(name) - 1 && memcmp(p, name, sizeof(name) - 1) == 0)
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Bind a copy of /proc/modules with an intel_sdsi line over it.  The copy is
 * unlinked as soon as it is mounted, so the scratch directory keeps nothing
 * (an unnamed O_TMPFILE cannot be a bind source).
 */
static int list_sdsi_module(struct emu_namespace *ns, const char *scratch_dir,
			    char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t len;
	char *modules = read_whole(PROC_MODULES, &len);
	int fd, ret = 0;

	if (!modules) {
		if (errno == ENOENT) {
			fprintf(stderr, "sdsi-emu: note: this kernel has no " PROC_MODULES
				" (no module support), so lsmod cannot list intel_sdsi\n");
			return 0;
		}
		ret = -errno;
		snprintf(err, errlen, "cannot read " PROC_MODULES ": %s", strerror(errno));
		return ret;
	}
	if (lists_intel_sdsi(modules, len))
		goto out;

	snprintf(path, sizeof(path), "%s/.modules.XXXXXX", scratch_dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create a file in %s: %s", scratch_dir, strerror(errno));
		goto out;
	}
	if (write_all(fd, modules, len) < 0 ||
	    write_all(fd, SDSI_MODULE_LINE, strlen(SDSI_MODULE_LINE)) < 0 ||
	    fchmod(fd, 0444) < 0 ||
	    mount(path, PROC_MODULES, NULL, MS_BIND, NULL) < 0) {
		ret = -errno;
	} else {
		ns->modules_bound = true;
		/* Read-only, so that a write fails as on the real file. */
		if (mount(NULL, PROC_MODULES, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) < 0)
			ret = -errno;
	}
	if (ret)
		snprintf(err, errlen, "cannot list intel_sdsi in " PROC_MODULES ": %s",
			 strerror(-ret));
	close(fd);
	unlink(path);
out:
	free(modules);
	return ret;
}

int emu_ns_prepare(struct emu_namespace *ns, const char *scratch_dir,
		   char *err, size_t errlen)
{
	struct stat st;
	int ret = 0;

	memset(ns, 0, sizeof(*ns));
	if (stat(EMU_AUXILIARY_BUS, &st) < 0) {
		if (errno != ENOENT) {
			ret = -errno;
			snprintf(err, errlen, EMU_AUXILIARY_BUS ": %s", strerror(errno));
			return ret;
		}
		ret = cover_sys_bus(ns, err, errlen);
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, EMU_AUXILIARY_BUS ": not a directory");
		return -ENOTDIR;
	}
	if (ret == 0)
		ret = list_sdsi_module(ns, scratch_dir, err, errlen);
	if (ret)
		emu_ns_restore(ns);
	return ret;
}

void emu_ns_restore(struct emu_namespace *ns)
{
	/* Detaching the tmpfs takes the buses bound into it along. */
	if (ns->modules_bound && umount2(PROC_MODULES, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " PROC_MODULES ": %s\n", strerror(errno));
	if (ns->bus_tmpfs && umount2(SYS_BUS, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " SYS_BUS ": %s\n", strerror(errno));
	memset(ns, 0, sizeof(*ns));
}
