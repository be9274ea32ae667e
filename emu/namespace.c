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
#include "proc_bind.h"
#include "util/util_io.h"

#define SYS_BUS		"/sys/bus"
#define DEV_DIR		"/dev"
#define SYS_MODULE	"/sys/module"
#define SDSI_MODULE_DIR	SYS_MODULE "/intel_sdsi"
/*
 * What a loaded intel_sdsi has in its module directory that ties it to its
 * driver: "BUS:DRIVER", a link to the driver's directory on its bus.
 */
#define SDSI_MODULE_DRIVERS	SDSI_MODULE_DIR "/drivers"
#define SDSI_MODULE_DRIVER_LINK	SDSI_MODULE_DRIVERS "/auxiliary:intel_sdsi"
#define SDSI_MODULE_DRIVER_TARGET "../../../bus/auxiliary/drivers/intel_sdsi"
#define PROC_MODULES	"/proc/modules"
/* "name size refcount deps state address", as a loaded module shows. */
#define SDSI_MODULE_LINE "intel_sdsi 24576 0 - Live 0x0000000000000000\n"

/*
 * Whether path is the root of a mount: 1, 0, or -1 when the kernel cannot
 * say (statx's STATX_ATTR_MOUNT_ROOT is Linux 5.8's; older kernels get the
 * device comparison with the parent, which a bind mount of the same file
 * system defeats, so it only ever answers "is one").
 */
static int mount_root(const char *path, const char *parent)
{
	struct statx stx;
	struct stat st, up;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) < 0)
		return 0;
	if (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
		return !!(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	if (stat(path, &st) < 0 || stat(parent, &up) < 0)
		return 0;
	return st.st_dev != up.st_dev ? 1 : -1;
}

/*
 * What run needs of the root it starts in, which a chroot into a plain
 * directory lacks: / a mount point (its propagation is made private), /proc
 * (the processors and modules it shows) and /sys (the bus the sockets go
 * on) mounted, and /dev/fuse.  Appends intro then each one lacking to err,
 * in words with the way to give it; returns how many lack.  root_unmountable: the
 * kernel refused to make / private (EINVAL: not a mount point).
 */
static int describe_root(bool root_unmountable, const char *intro, char *err, size_t errlen)
{
	const char *lacks[4];
	size_t used;
	struct stat st;
	int n = 0;

	if (root_unmountable || mount_root("/", "/") == 0)
		lacks[n++] = "/ is not a mount point (bind-mount the chroot's directory onto "
			     "itself before entering it)";
	if (mount_root("/proc", "/") <= 0)
		lacks[n++] = "/proc is not mounted (mount -t proc proc /proc)";
	if (mount_root("/sys", "/") <= 0)
		lacks[n++] = "/sys is not mounted (mount -t sysfs sysfs /sys)";
	if (stat("/dev/fuse", &st) < 0 || !S_ISCHR(st.st_mode))
		lacks[n++] = "/dev/fuse is missing (bind-mount the host's /dev/fuse there)";
	for (int i = 0; i < n; i++) {
		used = strlen(err);
		snprintf(err + used, errlen - used, "%s %s", i ? ";" : intro, lacks[i]);
	}
	return n;
}

int emu_ns_check_root(char *err, size_t errlen)
{
	snprintf(err, errlen, "run cannot start in this root");
	return describe_root(false, ", which lacks what a chroot into a plain directory lacks:",
			     err, errlen) ? -ENOENT : 0;
}

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
		describe_root(e == EINVAL, "; this root lacks what run needs:", err, errlen);
		return -e;
	}
	return 0;
}

/*
 * Give the tmpfs at `dir` an entry like the original one at `name`.  The
 * original is reached through dir_fd, opened before the tmpfs covered it.
 */
static int rebind_entry(const char *dir, int dir_fd, const char *name, unsigned char type,
			char *err, size_t errlen)
{
	char src[64 + NAME_MAX], dst[PATH_MAX];
	char target[PATH_MAX];
	ssize_t len;
	int fd, e;

	snprintf(src, sizeof(src), "/proc/self/fd/%d/%s", dir_fd, name);
	snprintf(dst, sizeof(dst), "%s/%s", dir, name);
	switch (type) {
	case DT_DIR:
		if (mkdir(dst, 0755) < 0)
			goto fail;
		break;
	case DT_LNK:
		len = readlinkat(dir_fd, name, target, sizeof(target) - 1);
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

/*
 * Cover the sysfs directory `dir` with a tmpfs that shows every original
 * entry again (each bound from the original), so that new entries can be
 * made next to them.  *covered says whether the tmpfs is there, for undoing.
 */
static int cover_dir(const char *dir, bool *covered, char *err, size_t errlen)
{
	int dir_fd, ret = 0;
	struct dirent *e;
	DIR *d;

	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(errno));
		return ret;
	}
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0755,size=64k") < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot mount a tmpfs on %s: %s", dir, strerror(errno));
		close(dir_fd);
		return ret;
	}
	*covered = true;

	d = fdopendir(dup(dir_fd));
	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "cannot list %s: %s", dir, strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		ret = rebind_entry(dir, dir_fd, e->d_name, e->d_type, err, errlen);
		if (ret)
			break;
	}
	closedir(d);
out:
	close(dir_fd);
	return ret;
}

static int cover_sys_bus(struct emu_namespace *ns, char *err, size_t errlen)
{
	int ret = cover_dir(SYS_BUS, &ns->bus_tmpfs, err, errlen);

	if (ret == 0 && mkdir(EMU_AUXILIARY_BUS, 0755) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create " EMU_AUXILIARY_BUS ": %s", strerror(errno));
	}
	return ret;
}

/* mkdir with the mode sysfs gives directories, whatever the umask. */
static int make_sysfs_dir(const char *path)
{
	if (mkdir(path, 0755) < 0 || chmod(path, 0755) < 0)
		return -errno;
	return 0;
}

/*
 * A loaded intel_sdsi has /sys/module/intel_sdsi with a link to its driver's
 * directory; give the namespace one when the machine has none.  /sys/module
 * is covered as /sys/bus is, then made read-only: sysfs refuses new entries
 * there too.  A machine whose own intel_sdsi is loaded keeps its directory,
 * whose link leads to the tree mounted over its auxiliary bus.
 */
static int add_sdsi_module_dir(struct emu_namespace *ns, bool quiet, char *err, size_t errlen)
{
	struct stat st;
	int ret;

	if (lstat(SDSI_MODULE_DIR, &st) == 0)
		return 0;
	if (errno != ENOENT) {
		ret = -errno;
		snprintf(err, errlen, SDSI_MODULE_DIR ": %s", strerror(errno));
		return ret;
	}
	if (lstat(SYS_MODULE, &st) < 0) {
		ret = -errno;
		if (ret == -ENOENT) {
			if (!quiet)
				fprintf(stderr, "sdsi-emu: note: this kernel has no " SYS_MODULE
					", so " SDSI_MODULE_DIR " cannot be shown; the emulated "
					"sockets work all the same (-q hides this note)\n");
			return 0;
		}
		snprintf(err, errlen, SYS_MODULE ": %s", strerror(-ret));
		return ret;
	}
	ret = cover_dir(SYS_MODULE, &ns->module_tmpfs, err, errlen);
	if (ret)
		return ret;
	ret = make_sysfs_dir(SDSI_MODULE_DIR);
	if (ret == 0)
		ret = make_sysfs_dir(SDSI_MODULE_DRIVERS);
	if (ret == 0 && symlink(SDSI_MODULE_DRIVER_TARGET, SDSI_MODULE_DRIVER_LINK) < 0)
		ret = -errno;
	if (ret == 0 && mount(NULL, SYS_MODULE, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY |
			      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot make " SDSI_MODULE_DRIVER_LINK ": %s",
			 strerror(-ret));
	return ret;
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

struct modules_fill {
	const char *modules;
	size_t len;
};

static int fill_modules(int fd, void *ctx)
{
	const struct modules_fill *m = ctx;
	int ret = util_write_all(fd, m->modules, m->len);

	return ret ? ret : util_write_all(fd, SDSI_MODULE_LINE, strlen(SDSI_MODULE_LINE));
}

/* Bind a copy of /proc/modules with an intel_sdsi line over it (proc_bind.h). */
static int list_sdsi_module(struct emu_namespace *ns, const char *scratch_dir, bool quiet,
			    char *err, size_t errlen)
{
	struct modules_fill m;
	char *modules;
	int ret = util_read_file(PROC_MODULES, EMU_PROC_READ_MAX, &modules, &m.len);

	if (ret == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "sdsi-emu: note: this kernel has no " PROC_MODULES
				" (it was built without loadable modules), so lsmod will "
				"not list intel_sdsi; the emulated sockets work all the "
				"same (-q hides this note)\n");
		return 0;
	}
	if (ret) {
		snprintf(err, errlen, "cannot read " PROC_MODULES ": %s", strerror(-ret));
		return ret;
	}
	m.modules = modules;
	if (!lists_intel_sdsi(modules, m.len))
		ret = emu_proc_bind(PROC_MODULES, scratch_dir, "list intel_sdsi", fill_modules, &m,
				    &ns->modules_bound, err, errlen);
	free(modules);
	return ret;
}

int emu_ns_prepare(struct emu_namespace *ns, const char *scratch_dir, bool quiet,
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
		ret = add_sdsi_module_dir(ns, quiet, err, errlen);
	if (ret == 0)
		ret = list_sdsi_module(ns, scratch_dir, quiet, err, errlen);
	if (ret)
		emu_ns_restore(ns);
	return ret;
}

int emu_ns_add_device(struct emu_namespace *ns, const char *source, const char *name,
		      char *err, size_t errlen)
{
	char dst[PATH_MAX];
	int fd, ret;

	if (!ns->dev_tmpfs) {
		ret = cover_dir(DEV_DIR, &ns->dev_tmpfs, err, errlen);
		if (ret)
			return ret;
		/* device nodes bound from the original keep their own mount's flags */
	}
	snprintf(dst, sizeof(dst), DEV_DIR "/%s", name);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", dst, strerror(errno));
		return ret;
	}
	close(fd);
	if (mount(source, dst, NULL, MS_BIND, NULL) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot bind %s at %s: %s", source, dst, strerror(errno));
		return ret;
	}
	return 0;
}

void emu_ns_restore(struct emu_namespace *ns)
{
	/* Detaching a tmpfs takes the entries bound into it along. */
	if (ns->dev_tmpfs && umount2(DEV_DIR, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " DEV_DIR ": %s\n", strerror(errno));
	if (ns->modules_bound && umount2(PROC_MODULES, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " PROC_MODULES ": %s\n", strerror(errno));
	if (ns->module_tmpfs && umount2(SYS_MODULE, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " SYS_MODULE ": %s\n", strerror(errno));
	if (ns->bus_tmpfs && umount2(SYS_BUS, MNT_DETACH) < 0)
		fprintf(stderr, "sdsi-emu: cannot unmount " SYS_BUS ": %s\n", strerror(errno));
	memset(ns, 0, sizeof(*ns));
}
