// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading the AKC or the CAPs of a fleet provisioning run and matching them
 * to sockets by PPIN (cap_match.h).  Every entry of a CAP directory is
 * reported, usable or not: a file silently passed over could be the very
 * licence a socket was waiting for.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cap_match.h"
#include "commands.h"
#include "sdsi/le.h"
#include "sdsi/license_type.h"
#include "tool_error.h"

/*
 * A CAP file that does not read as a licence blob: why, in the reader's
 * words.  One that starts with a licence type is a damaged licence blob
 * (malformed); any other is unread, and only the manifest can say which
 * socket it is for.
 */
static void not_a_licence(struct blob_file *f)
{
	struct sdsi_error *why = sdsi_error_new();
	size_t offset;

	if (!why || sdsi_read_license_blob(f->bytes, f->len, why) == -ENOMEM) {
		sdsi_error_free(why);
		tool_error(f->err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory reading %s", f->path);
		return;
	}
	offset = sdsi_error_offset(why) < 0 ? 0 : (size_t)sdsi_error_offset(why);
	if (f->len >= 4 && sdsi_license_type_name(sdsi_le32(f->bytes))) {
		tool_error(f->err, EBADMSG, SDSI_ERR_MALFORMED, "%s: malformed CAP at offset %zu: %s",
			   f->path, offset, sdsi_error_message(why));
	} else {
		f->unread = true;
		tool_error(f->err, EBADMSG, SDSI_ERR_MALFORMED,
			   "%s: foreign: does not read as a licence blob (at offset %zu: %s), so no PPIN says which socket it is for; name it in the directory's " CAP_MANIFEST_NAME ", or provision it with -d N -c FILE",
			   f->path, offset, sdsi_error_message(why));
	}
	sdsi_error_free(why);
}

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
		not_a_licence(f);
	} else if (f->info.format != SDSI_BLOB_FORMAT_FOREIGN && f->info.format != want) {
		tool_error(f->err, EINVAL, SDSI_ERR_REFUSED, "%s: %s, not %s: use --all %s", f->path,
		     kind == SDSI_BLOB_AKC ? "a CAP" : "an AKC",
		     kind == SDSI_BLOB_AKC ? "an AKC" : "a CAP",
		     kind == SDSI_BLOB_AKC ? "-c" : "-a");
	} else {
		/* A foreign AKC goes on with the generic checks, as with -d. */
		f->usable = true;
		f->ppin = f->info.ppin;
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

/*
 * The manifest's word on each file it names: a file that does not read gets
 * the manifest's PPIN; one whose licence blob carries another PPIN is not
 * used, since which socket it is for is then unclear.  An entry that names
 * no file of the directory stops the run: the file it meant is missing.
 */
static int apply_manifest(struct blob_set *set, struct sdsi_error *err)
{
	struct cap_manifest *m = &set->manifest;

	for (size_t i = 0; i < set->count; i++) {
		struct blob_file *f = &set->files[i];
		struct manifest_entry *e = cap_manifest_find(m, blob_file_name(set, f));

		if (!e)
			continue;
		e->used = true;
		if (f->unread) {
			f->usable = true;
			f->by_manifest = true;
			f->ppin = e->ppin;
			sdsi_error_set(f->err, 0, SDSI_ERR_NONE, -1, "%s", "");
		} else if (f->usable && f->info.ppin != e->ppin) {
			f->usable = false;
			tool_error(f->err, EINVAL, SDSI_ERR_REFUSED,
				   "%s: %s line %u binds it to PPIN 0x%016" PRIx64 ", its licence blob to PPIN 0x%016" PRIx64 ": which socket it is for is unclear",
				   f->path, m->path, e->line, e->ppin, f->info.ppin);
		}
	}
	for (size_t i = 0; i < m->count; i++)
		if (!m->entries[i].used)
			return tool_error(err, ENOENT, SDSI_ERR_MALFORMED,
					  "%s:%u: no file %s in %s", m->path, m->entries[i].line,
					  m->entries[i].name, set->source), -ENOENT;
	return 0;
}

static int load_dir(struct blob_set *set, struct sdsi_error *err)
{
	const size_t len = strlen(set->source);
	/* DIR/NAME, without doubling a trailing slash. */
	const char *sep = len && set->source[len - 1] == '/' ? "" : "/";
	char **names, *path;
	size_t n;
	int ret;

	ret = list_dir(set->source, &names, &n, err);
	if (ret)
		return ret;
	set->files = n ? calloc(n, sizeof(*set->files)) : NULL;
	if (n && !set->files)
		ret = -ENOMEM;
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct blob_file *f = &set->files[set->count];

		path = malloc(len + strlen(sep) + strlen(names[i]) + 1);
		if (!path) {
			ret = -ENOMEM;
			break;
		}
		sprintf(path, "%s%s%s", set->source, sep, names[i]);
		if (!strcmp(names[i], CAP_MANIFEST_NAME)) {
			/* Read first of all: a manifest it cannot read stops the run. */
			ret = cap_manifest_load(path, &set->manifest, err);
			set->has_manifest = ret == 0;
			free(path);
			if (ret) {
				for (size_t k = 0; k < n; k++)
					free(names[k]);
				free(names);
				return ret;
			}
			continue;
		}
		f->path = path;
		set->count++;
		ret = load_file(f, set->kind);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret) {
		tool_error(err, -ret, SDSI_ERR_INTERNAL, "out of memory loading %s", set->source);
		return ret;
	}
	return set->has_manifest ? apply_manifest(set, err) : 0;
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
	if (set->has_manifest)
		cap_manifest_free(&set->manifest);
	set->has_manifest = false;
}

bool blob_set_matches(const struct blob_set *set, size_t i, uint64_t ppin)
{
	const struct blob_file *f = &set->files[i];

	if (!f->usable)
		return false;
	/* An AKC is not bound to a CPU: every socket gets it. */
	return set->kind == SDSI_BLOB_AKC || f->ppin == ppin;
}

const char *blob_file_name(const struct blob_set *set, const struct blob_file *f)
{
	const char *slash;

	if (!set->is_dir)
		return f->path;
	slash = strrchr(f->path, '/');
	return slash ? slash + 1 : f->path;
}
