// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "sdsi/exit_status.h"
#include "sdsi/hw.h"
#include "cli_platform.h"
#include "licensing/sdsi_lic.h"
#include "paths/sdsi_path.h"
#include "util/util_array.h"

#define FEATURES_V1_DEFAULT	SDSI_FEATURE_ON_DEMAND

const struct cli_option cli_platform_options[] = {
	CLI_PLATFORM_OPTION_ENTRIES
};

const size_t cli_platform_option_count =
	UTIL_ARRAY_SIZE(cli_platform_options);

int cli_usage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", program);
	return SDSI_EXIT_USAGE;
}

void cli_platform_init(struct cli_platform *p)
{
	memset(p, 0, sizeof(*p));
	p->sockets = 1;
	p->guid = SDSI_GUID_V2;
}

static int parse_ppins(const char *program, const char *text, struct cli_platform *p)
{
	const char *s = text;
	unsigned int n = 0;

	for (;;) {
		size_t len = strcspn(s, ",");

		if (n == CLI_MAX_SOCKETS)
			return cli_usage_error(program, "--ppin: more than %u values in '%s'",
					      CLI_MAX_SOCKETS, text);
		if (!cli_parse_hex64(s, len, &p->ppin[n]) || p->ppin[n] == 0)
			return cli_usage_error(program, "--ppin: '%.*s' is not a non-zero hex PPIN (in '%s')",
					      (int)len, s, text);
		n++;
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	/* Checked against --sockets once every option is known. */
	p->nppins = n;
	return 0;
}

static int parse_field3(const char *program, const char *name, const char *text,
			uint8_t *field)
{
	unsigned long long v;

	if (!cli_parse_uint(text, CLI_THRESHOLD_MIN, CLI_THRESHOLD_MAX, &v))
		return cli_usage_error(program, "--%s: '%s' is not a number from %u to %u",
				      name, text, CLI_THRESHOLD_MIN, CLI_THRESHOLD_MAX);
	*field = (uint8_t)v;
	return 0;
}

static int parse_u32(const char *program, const char *name, const char *text,
		     unsigned long long min, uint32_t *field)
{
	unsigned long long v;

	if (!cli_parse_uint(text, min, UINT32_MAX, &v))
		return cli_usage_error(program, "--%s: '%s' is not a number from %llu to 4294967295",
				      name, text, min);
	*field = (uint32_t)v;
	return 0;
}

static int parse_name(const char *program, const char *name, const char *arg,
		      const char **field)
{
	if (arg[0] == '\0')
		return cli_usage_error(program, "--%s: empty name", name);
	*field = arg;
	return 0;
}

int cli_platform_option(const char *program, int id, const char *arg,
		       struct cli_platform *p)
{
	const struct cli_option *o = cli_option_by_id(cli_platform_options,
						     cli_platform_option_count, id);
	unsigned long long v;
	char err[256];

	switch (id) {
	case CLI_OPT_SOCKETS:
		if (!cli_parse_uint(arg, 1, CLI_MAX_SOCKETS, &v))
			return cli_usage_error(program, "--sockets: '%s' is not a number from 1 to %u",
					      arg, CLI_MAX_SOCKETS);
		p->sockets = (unsigned int)v;
		return 0;
	case CLI_OPT_GUID:
		if (cli_parse_guid(arg, &p->guid))
			return cli_usage_error(program, "--guid: '%s' is not v1, v2, 0x006dd191 or 0xf210d9ef",
					      arg);
		return 0;
	case CLI_OPT_STATE:
	case CLI_OPT_STATE_DIR:
		return parse_name(program, o->name, arg, &p->state_dir);
	case CLI_OPT_FEATURES:
		if (cli_parse_features(arg, &p->features, err, sizeof(err)))
			return cli_usage_error(program, "--features: %s", err);
		p->features_given = true;
		return 0;
	case CLI_OPT_PPIN:
		return parse_ppins(program, arg, p);
	case CLI_OPT_IBLOCK:
		p->iblock = true;
		return 0;
	case CLI_OPT_AKC_THRESHOLD:
		return parse_field3(program, o->name, arg, &p->akc_threshold);
	case CLI_OPT_CAP_THRESHOLD:
		return parse_field3(program, o->name, arg, &p->cap_threshold);
	case CLI_OPT_UPDATES:
		return parse_field3(program, o->name, arg, &p->updates);
	case CLI_OPT_NVRAM_ENDURANCE:
		/* 0 would select the model's default: not a value to ask for. */
		return parse_u32(program, o->name, arg, 1, &p->nvram_endurance);
	case CLI_OPT_RDY_LATENCY:
		return parse_u32(program, o->name, arg, 0, &p->rdy_latency_us);
	case CLI_OPT_AUTHORITY:
		return parse_name(program, o->name, arg, &p->authority_dir);
	case CLI_OPT_ROOT_KEY:
		return parse_name(program, o->name, arg, &p->root_key);
	}
	return cli_usage_error(program, "option %d is not a platform option", id);
}

/*
 * A failure to open the root: a link, or a path another user could change,
 * is refused (a safety check: exit 5); anything else is the input's fault.
 */
static int anchor_failed(const char *program, int rc, const char *msg)
{
	fprintf(stderr, "%s: %s\n", program, msg);
	if (rc == -EPERM || rc == -ELOOP)
		return SDSI_EXIT_REFUSED;
	return sdsi_exit_for_input_errno(rc);
}

/*
 * The root key from fd, opened once and checked; a status otherwise.  One
 * root per process, kept for its whole life (reachable from here, so no
 * leak checker counts it lost).
 */
static int load_root(const char *program, struct cli_platform *p, int fd, const char *path)
{
	static EVP_PKEY *loaded;
	struct sdsi_lic_error lerr;
	int rc;

	EVP_PKEY_free(loaded);
	loaded = NULL;
	rc = sdsi_lic_key_load_public_fd(fd, path, &loaded, &lerr);
	close(fd);
	p->root_pkey = loaded;
	if (!rc)
		return 0;
	fprintf(stderr, "%s: root key: %s\n", program, lerr.reason);
	return sdsi_exit_for_input_errno(rc);
}

/*
 * One file of the attestation root, name in DIR's descriptor: opened as
 * root.pub is (no link followed, checked by its descriptor), its
 * descriptor in *fd; -ENOENT when DIR has none, 0, or a status printed.
 */
static int open_attest_file(const char *program, int dirfd, const char *name,
			    const char *path, int *fd)
{
	char msg[SDSI_PATH_ERR_SIZE];

	*fd = sdsi_path_openat_file(dirfd, name, path, "--authority", SDSI_PATH_OWNED, NULL,
				    msg, sizeof(msg));
	if (*fd == -ENOENT)
		return -ENOENT;
	if (*fd < 0)
		return anchor_failed(program, *fd, msg);
	return 0;
}

/*
 * The attestation root beside the licence keys, when the authority has one
 * (sdsi-authority init makes it): both files or neither, each opened in
 * DIR's descriptor and loaded once, here; the models take the loaded
 * certificate and key.  As the root key, one per process, kept for its
 * whole life.
 */
static int load_attest_root(const char *program, struct cli_platform *p, int dirfd,
			    const char *dir)
{
	static X509 *cert;
	static EVP_PKEY *key;
	struct sdsi_lic_error lerr;
	char cert_path[PATH_MAX], key_path[PATH_MAX];
	int cfd = -1, kfd = -1, crc, krc, rc;

	X509_free(cert);
	EVP_PKEY_free(key);
	cert = NULL;
	key = NULL;
	p->attest_root = NULL;
	p->attest_root_key = NULL;
	if (snprintf(cert_path, sizeof(cert_path), "%s/attestation-root.pem", dir) >=
	    (int)sizeof(cert_path) ||
	    snprintf(key_path, sizeof(key_path), "%s/attestation-root.key", dir) >=
	    (int)sizeof(key_path))
		return cli_usage_error(program, "--authority %s: name too long", dir);
	crc = open_attest_file(program, dirfd, "attestation-root.pem", cert_path, &cfd);
	if (crc > 0)
		return crc;
	krc = open_attest_file(program, dirfd, "attestation-root.key", key_path, &kfd);
	if (krc > 0) {
		if (cfd >= 0)
			close(cfd);
		return krc;
	}
	if (crc && krc)
		return 0;	/* an authority made before attestation */
	if (crc || krc) {
		close(crc ? kfd : cfd);
		return cli_usage_error(program, "--authority %s: %s without %s: the attestation root needs both",
				      dir, crc ? key_path : cert_path, crc ? cert_path : key_path);
	}
	rc = sdsi_lic_cert_load_fd(cfd, cert_path, &cert, &lerr) ?:
	     sdsi_lic_key_load_private_fd(kfd, key_path, &key, &lerr);
	close(cfd);
	close(kfd);
	if (!rc && X509_check_private_key(cert, key) != 1) {
		ERR_clear_error();
		fprintf(stderr, "%s: attestation root: %s is not the key of %s\n", program,
			key_path, cert_path);
		rc = -EBADMSG;
	} else if (rc) {
		fprintf(stderr, "%s: attestation root: %s\n", program, lerr.reason);
	}
	if (rc) {
		X509_free(cert);
		EVP_PKEY_free(key);
		cert = NULL;
		key = NULL;
		return sdsi_exit_for_input_errno(rc);
	}
	p->attest_root = cert;
	p->attest_root_key = key;
	return 0;
}

/*
 * --authority names the directory 'sdsi-authority init' writes; a key file
 * given there instead is the common slip, so the message names both ways.
 * DIR is opened once (paths/sdsi_path.h: every component from "/", no
 * link, owned by root or us, closed to others' writes, DIR itself even
 * without the sticky bit's excuse) and root.pub in it, by descriptor.
 */
static int open_authority(const char *program, struct cli_platform *p, const char *dir)
{
	char msg[SDSI_PATH_ERR_SIZE], pub[PATH_MAX];
	struct stat st;
	int dirfd, fd, rc;

	dirfd = sdsi_path_open_dir(dir, "--authority", msg, sizeof(msg));
	if (dirfd == -ENOENT || dirfd == -ENOTDIR)
		return cli_usage_error(program, "%s: it takes the directory that "
				      "'sdsi-authority init DIR' wrote, or give a public key file with --root-key FILE",
				      msg);
	if (dirfd < 0)
		return anchor_failed(program, dirfd, msg);
	if (fstat(dirfd, &st) < 0 ||
	    sdsi_path_check_owner(&st, false, "--authority", dir, dir, msg, sizeof(msg))) {
		close(dirfd);
		return anchor_failed(program, -EPERM, msg);
	}
	snprintf(pub, sizeof(pub), "%s/root.pub", dir);
	fd = sdsi_path_openat_file(dirfd, "root.pub", pub, "--authority", SDSI_PATH_OWNED, NULL,
				   msg, sizeof(msg));
	if (fd == -ENOENT) {
		close(dirfd);
		return cli_usage_error(program, "--authority %s: no root.pub in it (%s): make it with "
				      "'sdsi-authority init %s', or give a public key file with --root-key FILE",
				      dir, strerror(ENOENT), dir);
	}
	if (fd < 0) {
		close(dirfd);
		return anchor_failed(program, fd, msg);
	}
	rc = load_root(program, p, fd, pub) ?: load_attest_root(program, p, dirfd, dir);
	close(dirfd);
	return rc;
}

static int open_root_key(const char *program, struct cli_platform *p, const char *path)
{
	char msg[SDSI_PATH_ERR_SIZE];
	int fd = sdsi_path_open_file(path, "--root-key", SDSI_PATH_OWNED, NULL, msg, sizeof(msg));

	if (fd < 0)
		return anchor_failed(program, fd, msg);
	return load_root(program, p, fd, path);
}

int cli_platform_finish(const char *program, struct cli_platform *p)
{
	if (!p->features_given)
		p->features = p->guid == SDSI_GUID_V1 ? FEATURES_V1_DEFAULT
						      : SDSI_MODEL_DEFAULT_FEATURES;
	if (p->authority_dir && p->root_key)
		return cli_usage_error(program, "--authority and --root-key both name the root key; give one");
	if (p->nppins > p->sockets)
		return cli_usage_error(program, "--ppin: %u values given for %u socket(s)",
				      p->nppins, p->sockets);
	/* Opened and loaded once, here: the models take the key, never the name. */
	if (p->authority_dir)
		return open_authority(program, p, p->authority_dir);
	if (p->root_key)
		return open_root_key(program, p, p->root_key);
	return 0;
}

int cli_platform_root_key(const struct cli_platform *p, char *path, size_t len)
{
	int n = 0;

	path[0] = '\0';
	if (p->root_key)
		n = snprintf(path, len, "%s", p->root_key);
	else if (p->authority_dir)
		n = snprintf(path, len, "%s/root.pub", p->authority_dir);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void cli_platform_model_config(const struct cli_platform *p, unsigned int n,
			      struct sdsi_model_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->guid = p->guid;
	cfg->socket_index = n;
	cfg->socket_id = (uint8_t)n;
	cfg->ppin = n < CLI_MAX_SOCKETS ? p->ppin[n] : 0;
	cfg->features = p->features;
	cfg->iblock = p->iblock;
	cfg->akc_fail_threshold = p->akc_threshold;
	cfg->cap_fail_threshold = p->cap_threshold;
	cfg->updates_threshold = p->updates;
	cfg->nvram_endurance = p->nvram_endurance;
	cfg->root_key = p->root_pkey;
	cfg->attest_root_cert = p->attest_root;
	cfg->attest_root_key = p->attest_root_key;
}

int cli_platform_model_setup(const struct cli_platform *p, struct sdsi_model *m,
			    unsigned int n, char *err, size_t errlen)
{
	int ret;

	if (!p->rdy_latency_us)
		return 0;
	ret = sdsi_model_fault_set(m, SDSI_FAULT_RDY_LATENCY, p->rdy_latency_us, 0);
	if (ret)
		snprintf(err, errlen, "socket %u: cannot set a RDY latency of %u us: %s",
			 n, p->rdy_latency_us, strerror(-ret));
	return ret;
}

int cli_platform_model_create(const struct cli_platform *p, unsigned int n,
			     const char *state_dir, const char *root_key_path,
			     sdsi_model_clock_fn clock, void *clock_ctx,
			     struct sdsi_model **m, char *err, size_t errlen)
{
	struct sdsi_model_config cfg;
	int ret;

	*m = NULL;
	cli_platform_model_config(p, n, &cfg);
	cfg.state_dir = state_dir;
	cfg.clock = clock;
	cfg.clock_ctx = clock_ctx;
	cfg.root_key_path = root_key_path && root_key_path[0] ? root_key_path : NULL;
	ret = sdsi_model_create(&cfg, m, err, errlen);
	if (ret)
		return ret;
	return cli_platform_model_setup(p, *m, n, err, errlen);
}
