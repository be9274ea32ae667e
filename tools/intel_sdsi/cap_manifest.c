// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the manifest of a CAP directory (cap_manifest.h).  The whole file
 * is judged before any socket is touched: a line the tool cannot read could
 * be the one that names a socket's licence, so it stops the run.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_manifest.h"
#include "tool_error.h"

/* PPIN in hexadecimal, 0x optional, 1 to 16 digits: 0 and *ppin, else -1. */
static int parse_ppin(const char *s, size_t len, uint64_t *ppin)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (len - i == 0 || len - i > 16)
		return -1;
	for (; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		v = v << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ? s[i] - '0'
						: (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	*ppin = v;
	return 0;
}

static int bad_line(struct sdsi_error *err, const char *path, unsigned int line, const char *why)
{
	tool_error(err, EBADMSG, SDSI_ERR_MALFORMED,
		   "%s:%u: %s; a line is \"PPIN NAME\" (see intel_sdsi(1), the manifest), a blank line or a # comment",
		   path, line, why);
	return -EBADMSG;
}

/* One line (no newline, NUL-terminated in place): an entry or nothing. */
static int parse_line(struct cap_manifest *m, char *text, unsigned int line,
		      struct sdsi_error *err)
{
	struct manifest_entry *grown, *e;
	char *p = text, *word, *name, *end;
	uint64_t ppin;
	size_t wlen;

	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	if (!*p || *p == '#')
		return 0;
	word = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	wlen = (size_t)(p - word);
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	if (!*name)
		return bad_line(err, m->path, line, "a PPIN with no file name after it");
	if (parse_ppin(word, wlen, &ppin))
		return bad_line(err, m->path, line,
				"the PPIN is not 1 to 16 hexadecimal digits (0x optional)");
	if (strchr(name, '/'))
		return bad_line(err, m->path, line,
				"the file name has a '/': it names an entry of the directory itself");
	e = cap_manifest_find(m, name);
	if (e) {
		tool_error(err, EBADMSG, SDSI_ERR_MALFORMED, "%s:%u: %s is named twice (first on line %u)",
			   m->path, line, name, e->line);
		return -EBADMSG;
	}
	grown = realloc(m->entries, (m->count + 1) * sizeof(*grown));
	if (!grown)
		goto oom;
	m->entries = grown;
	e = &m->entries[m->count];
	*e = (struct manifest_entry){ .name = strdup(name), .ppin = ppin, .line = line };
	if (!e->name)
		goto oom;
	m->count++;
	return 0;
oom:
	tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory reading %s", m->path);
	return -ENOMEM;
}

int cap_manifest_load(const char *path, struct cap_manifest *m, struct sdsi_error *err)
{
	uint8_t *buf;
	size_t len;
	unsigned int line = 1;
	char *p, *nl;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	/* One byte more than allowed, so a file over the limit is told apart. */
	buf = malloc(CAP_MANIFEST_MAX + 1);
	if (!m->path || !buf) {
		free(buf);
		cap_manifest_free(m);
		tool_error(err, ENOMEM, SDSI_ERR_INTERNAL, "out of memory reading %s", path);
		return -ENOMEM;
	}
	if (sdsi_read_file(path, buf, CAP_MANIFEST_MAX, &len, err)) {
		free(buf);
		cap_manifest_free(m);
		return -sdsi_error_errno(err);
	}
	if (memchr(buf, '\0', len)) {
		free(buf);
		cap_manifest_free(m);
		tool_error(err, EBADMSG, SDSI_ERR_MALFORMED, "%s: a NUL byte: not a text file", path);
		return -EBADMSG;
	}
	buf[len] = '\0';
	for (p = (char *)buf; *p && ret == 0; p = nl ? nl + 1 : p + strlen(p), line++) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		ret = parse_line(m, p, line, err);
		if (!nl)
			break;
	}
	free(buf);
	if (ret)
		cap_manifest_free(m);	/* a manifest refused holds nothing */
	return ret;
}

void cap_manifest_free(struct cap_manifest *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->entries[i].name);
	free(m->entries);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

struct manifest_entry *cap_manifest_find(const struct cap_manifest *m, const char *name)
{
	for (size_t i = 0; i < m->count; i++)
		if (!strcmp(m->entries[i].name, name))
			return &m->entries[i];
	return NULL;
}
