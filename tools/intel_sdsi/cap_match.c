// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading the AKC or the CAPs of a fleet provisioning run and matching them
 * to sockets by PPIN (cap_match.h).  Every entry of a CAP directory is
 * reported, usable or not: a file silently passed over could be the very
 * licence a socket was waiting for.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_match.h"
#include "commands.h"
#include "tool_error.h"

/*
 * Read and decode one file; f->usable says whether it can be matched, and
 * f->err why not.  Only running out of memory is an error here.
 */
static int load_file(struct blob_file *f, enum sdsi_blob_kind kind)
{
	const enum sdsi_blob_format want = kind == SDSI_BLOB_AKC ? SDSI_BLOB_FORMAT_AKC
								 : SDSI_BLOB_FORMAT_CAP;
	f->err = tool_error_new();
	f->bytes = malloc(SDSI_READ_BUF_SIZE);
	if (!f->bytes)
		return -ENOMEM;
	if (sdsi_read_file(f->path, f->bytes, SDSI_READ_BUF_SIZE, &f->len, f->err)) {
		free(f->bytes);
		f->bytes = NULL;
		return sdsi_error_class(f->err) == SDSI_ERR_INTERNAL ? -sdsi_error_errno(f->err) : 0;
	}
	if (sdsi_decode_blob(f->bytes, f->len, &f->info, f->err)) {
		/* The decoder names the field and the offset; the file is ours to name. */
		sdsi_error_prefix(f->err, f->path);
	} else if (f->info.format == SDSI_BLOB_FORMAT_FOREIGN && kind == SDSI_BLOB_CAP) {
		tool_error(f->err, EBADMSG, SDSI_ERR_MALFORMED,
		     "%s: not a CAP of the sdsi format (a foreign blob): its PPIN cannot be read, so no socket can be matched to it; provision it with -d N -c FILE",
		     f->path);
	} else if (f->info.format != SDSI_BLOB_FORMAT_FOREIGN && f->info.format != want) {
		tool_error(f->err, EINVAL, SDSI_ERR_REFUSED, "%s: %s, not %s: use --all %s", f->path,
		     kind == SDSI_BLOB_AKC ? "a CAP" : "an AKC",
		     kind == SDSI_BLOB_AKC ? "an AKC" : "a CAP",
		     kind == SDSI_BLOB_AKC ? "-c" : "-a");
	} else {
		/* A foreign AKC goes on with the generic checks, as with -d. */
		f->usable = true;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entry names of dir but . and .., sorted; *names NULL when empty. */
static int list_dir(const char *path, char ***names, size_t *count, struct sdsi_error *err)
{
	char **list = NULL, **grown;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir = opendir(path);
	int e;

	*names = NULL;
	*count = 0;
	if (!dir) {
		e = errno;
		tool_error(err, e, e == ENOMEM ? SDSI_ERR_INTERNAL : SDSI_ERR_USAGE, "%s: %s", path,
		     strerror(e));
		return -e;
	}
	while ((errno = 0, de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(list, cap * sizeof(*list));
			if (!grown)
				goto oom;
			list = grown;
		}
		list[n] = strdup(de->d_name);
		if (!list[n])
			goto oom;
		n++;
	}
	e = errno;
	closedir(dir);
	if (e) {
		for (size_t i = 0; i < n; i++)
			free(list[i]);
		free(list);
		tool_error(err, e, SDSI_ERR_IO, "%s: reading the directory: %s", path, strerror(e));
		return -e;
	}
	if (n)
		qsort(list, n, sizeof(*list), by_name);
	*names = list;
	*count = n;
	return 0;
oom:
	closedir(dir);
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
	tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory listing %s", path);
	return -ENOMEM;
}

static int load_dir(struct blob_set *set, struct sdsi_error *err)
{
	const size_t len = strlen(set->source);
	/* DIR/NAME, without doubling a trailing slash. */
	const char *sep = len && set->source[len - 1] == '/' ? "" : "/";
	char **names;
	size_t n;
	int ret;

	ret = list_dir(set->source, &names, &n, err);
	if (ret)
		return ret;
	set->files = n ? calloc(n, sizeof(*set->files)) : NULL;
	if (n && !set->files)
		ret = -ENOMEM;
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct blob_file *f = &set->files[i];

		f->path = malloc(len + strlen(sep) + strlen(names[i]) + 1);
		if (!f->path) {
			ret = -ENOMEM;
			break;
		}
		sprintf(f->path, "%s%s%s", set->source, sep, names[i]);
		set->count++;
		ret = load_file(f, set->kind);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret)
		tool_error(err, -ret, SDSI_ERR_INTERNAL, "out of memory loading %s", set->source);
	return ret;
}

/* The one file named must be usable, as with -d: else nothing is done. */
static int load_one(struct blob_set *set, struct sdsi_error *err)
{
	struct blob_file *f;
	int ret;

	set->files = calloc(1, sizeof(*set->files));
	f = set->files;
	if (!f || !(f->path = strdup(set->source))) {
		tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory loading %s", set->source);
		return -ENOMEM;
	}
	set->count = 1;
	ret = load_file(f, set->kind);
	if (ret) {
		tool_error(err, -ret, SDSI_ERR_INTERNAL, "out of memory loading %s", set->source);
		return ret;
	}
	if (!f->usable) {
		sdsi_error_copy(err, f->err);
		return -sdsi_error_errno(err);
	}
	return 0;
}

int blob_set_load(const char *source, enum sdsi_blob_kind kind, struct blob_set *set,
		  struct sdsi_error *err)
{
	struct stat st;
	int ret;

	memset(set, 0, sizeof(*set));
	sdsi_error_set(err, 0, SDSI_ERR_NONE, 0, "%s", "");
	set->kind = kind;
	set->source = source;
	/* -a takes one AKC, the same for every socket; -c a CAP or a directory of them. */
	set->is_dir = kind == SDSI_BLOB_CAP && stat(source, &st) == 0 && S_ISDIR(st.st_mode);
	ret = set->is_dir ? load_dir(set, err) : load_one(set, err);
	if (ret)
		blob_set_free(set);
	return ret;
}

void blob_set_free(struct blob_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		free(set->files[i].path);
		free(set->files[i].bytes);
		sdsi_error_free(set->files[i].err);
	}
	free(set->files);
	set->files = NULL;
	set->count = 0;
}

bool blob_set_matches(const struct blob_set *set, size_t i, uint64_t ppin)
{
	const struct blob_file *f = &set->files[i];

	if (!f->usable)
		return false;
	/* An AKC is not bound to a CPU: every socket gets it. */
	return set->kind == SDSI_BLOB_AKC || f->info.ppin == ppin;
}

const char *blob_file_name(const struct blob_set *set, const struct blob_file *f)
{
	const char *slash;

	if (!set->is_dir)
		return f->path;
	slash = strrchr(f->path, '/');
	return slash ? slash + 1 : f->path;
}
