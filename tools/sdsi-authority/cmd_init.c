// SPDX-License-Identifier: GPL-2.0-only
/*
 * `init DIR`: create the two key pairs of an authority and its attestation
 * root.  The root key stands for the key fused into the silicon; the
 * licensor key is the one an AKC certifies and CAPs are signed with; the
 * attestation root (a self-signed certificate and its key) issues each
 * part's device certificate at manufacture, and is what an owner trusts.  Existing keys are never replaced:
 * losing a root key would orphan every AKC issued with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "sdsi/input_file.h"
#include "authority.h"
#include "util/util_escape.h"
#include "paths/sdsi_path.h"
#include "util/util_array.h"

static const struct cli_option init_options[] = {
	AUTH_HELP_OPTION,
};

static const char *const key_files[] = {
	AUTH_ROOT_KEY, AUTH_ROOT_PUB, AUTH_LICENSOR_KEY, AUTH_LICENSOR_PUB,
	AUTH_ATTEST_ROOT_KEY, AUTH_ATTEST_ROOT_CERT,
};

/* rc of writing the file at path, which is said when it was written. */
static int wrote(int rc, const char *path)
{
	char shown[UTIL_TEXT_NAME_SIZE];

	if (!rc)
		printf("wrote %s\n", util_text_name(shown, sizeof(shown), path));
	return rc;
}

/*
 * A private key (0600) then the file that goes with it: the certificate
 * that names the key, or (cert NULL) its public key; both written in the
 * DIR descriptor make_dir checked (openat, never replacing a file).  The
 * exit status: another init that won the race to a file is a refusal, as
 * run_init's check before writing.
 */
static int write_pair(int dirfd, const char *dir, const char *private_name, EVP_PKEY *key,
		      const char *second_name, X509 *cert)
{
	struct sdsi_lic_error err = { 0 };
	char path[4096];
	int rc;

	rc = wrote(sdsi_lic_key_save_private_at(dirfd, private_name,
						auth_key_path(path, sizeof(path), dir,
							      private_name),
						key, &err), path);
	if (!rc) {
		auth_key_path(path, sizeof(path), dir, second_name);
		rc = wrote(cert ? sdsi_lic_cert_save_at(dirfd, second_name, path, cert, &err) :
			   sdsi_lic_key_save_public_at(dirfd, second_name, path, key, &err),
			   path);
	}
	if (!rc)
		return SDSI_EXIT_OK;
	auth_error("%s", err.reason);
	return rc == -EEXIST ? SDSI_EXIT_REFUSED :
	       rc == -ENOMEM ? SDSI_EXIT_INTERNAL : SDSI_EXIT_IO;
}

static int make_pair(int dirfd, const char *dir, const char *private_name,
		     const char *public_name)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key;
	int rc;

	if (sdsi_lic_key_generate(&key, &err)) {
		auth_error("%s", err.reason);
		return SDSI_EXIT_INTERNAL;
	}
	rc = write_pair(dirfd, dir, private_name, key, public_name, NULL);
	EVP_PKEY_free(key);
	return rc;
}

/*
 * DIR made if missing (0700) in its parent, walked and checked from "/"
 * (paths/sdsi_path.h), then opened once as akc and cap open it
 * (auth_open_dir's rules, applied here to the descriptor made).  A name
 * with no last component of its own ("." or "/") must exist.  The
 * descriptor, or -status after printing why.
 */
static int make_dir(const char *dir)
{
	char leaf[NAME_MAX + 1], err[SDSI_PATH_ERR_SIZE];
	struct stat st;
	int parent, fd;

	parent = sdsi_path_open_parent(dir, "authority directory", leaf, err, sizeof(err));
	if (parent == -EISDIR)
		return auth_open_dir(dir);
	if (parent == -ENOENT || parent == -ENOTDIR) {
		auth_error("%s: cannot create the directory there", err);
		return -SDSI_EXIT_IO;
	}
	if (parent < 0) {
		auth_error("%s", err);
		return -auth_key_exit(parent);
	}
	if (mkdirat(parent, leaf, 0700) < 0 && errno != EEXIST) {
		auth_error("%s: cannot create the directory: %s", dir, strerror(errno));
		close(parent);
		return -SDSI_EXIT_IO;
	}
	fd = openat(parent, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		/* An existing name that is not a directory: the user named the wrong thing. */
		if (fstatat(parent, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
			close(parent);
			if (S_ISLNK(st.st_mode)) {
				auth_error("authority directory %s: a symbolic link, not followed (its target could be swapped); name the real path",
					   dir);
				return -SDSI_EXIT_REFUSED;
			}
			auth_error("%s: not a directory: it is %s", dir,
				   S_ISREG(st.st_mode) ? "a regular file" : sdsi_file_kind(st.st_mode));
			return -SDSI_EXIT_USAGE;
		}
		close(parent);
		auth_error("%s: %s", dir, strerror(e));
		return -SDSI_EXIT_IO;
	}
	close(parent);
	/*
	 * Whoever can write to DIR could swap the root key that sockets
	 * (sdsi-emu --authority) trust: a DIR open to others is refused as
	 * sdsi-emu refuses it.
	 */
	return auth_dir_closed(fd, dir);
}

/* The attestation root: its key, then its self-signed certificate. */
static int make_attest_root(int dirfd, const char *dir)
{
	struct sdsi_lic_error err = { 0 };
	EVP_PKEY *key;
	X509 *cert;
	int rc;

	if (sdsi_lic_attest_root_make("sdsi attestation root", &key, &cert, &err)) {
		auth_error("%s", err.reason);
		return SDSI_EXIT_INTERNAL;
	}
	rc = write_pair(dirfd, dir, AUTH_ATTEST_ROOT_KEY, key, AUTH_ATTEST_ROOT_CERT, cert);
	EVP_PKEY_free(key);
	X509_free(cert);
	return rc;
}

static int run_init(const struct auth_command *cmd, int argc, char **argv)
{
	char path[4096];
	const char *dir;
	struct stat st;
	size_t i;
	int rc, dirfd;

	/* No options besides --help, which auth_getopt handles itself. */
	if (auth_getopt(cmd, argc, argv) != -1)
		return SDSI_EXIT_USAGE;
	if (argc - optind != 1)
		return auth_usage_error(cmd, "expected one directory, got %d arguments",
					argc - optind);
	dir = argv[optind];
	dirfd = make_dir(dir);
	if (dirfd < 0)
		return -dirfd;
	/* Refuse before writing anything, so a refusal leaves DIR as it was. */
	for (i = 0; i < UTIL_ARRAY_SIZE(key_files); i++) {
		if (fstatat(dirfd, key_files[i], &st, AT_SYMLINK_NOFOLLOW) == 0) {
			auth_error("%s already exists: refusing to overwrite an authority's keys",
				   auth_key_path(path, sizeof(path), dir, key_files[i]));
			close(dirfd);
			return SDSI_EXIT_REFUSED;
		}
	}
	rc = make_pair(dirfd, dir, AUTH_ROOT_KEY, AUTH_ROOT_PUB);
	if (!rc)
		rc = make_pair(dirfd, dir, AUTH_LICENSOR_KEY, AUTH_LICENSOR_PUB);
	if (!rc)
		rc = make_attest_root(dirfd, dir);
	close(dirfd);
	return rc;
}

const struct auth_command auth_cmd_init = {
	.name = "init",
	.synopsis = "DIR",
	.summary = "Create an authority in DIR (created if missing): a root key pair\n"
		   "(root.key, root.pub) and a licensor key pair (licensor.key,\n"
		   "licensor.pub), ECDSA P-384 in PEM, and an attestation root\n"
		   "(attestation-root.key, and attestation-root.pem, its self-signed\n"
		   "certificate: what an owner trusts when attesting a part).\n"
		   "Private keys get mode 0600.  Existing keys are never overwritten.",
	AUTH_OPTIONS(init_options),
	.run = run_init,
};
