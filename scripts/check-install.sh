#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What docs/packages.md promises of `make install`: installs BUILD_DIR into a scratch
# DESTDIR (the build's configured prefix is left as it is) and checks that
# the programs, libsdsi with its headers and pkg-config file, the man pages,
# the bash completions and the systemd units are where that prefix puts them and work: the
# installed programs run, and a third-party C program builds and runs
# against libsdsi knowing nothing but the installed libsdsi.pc.
# Stops at the first failure, naming it; the last line printed is
#   install: N checks passed
set -euo pipefail

check_name=install
# shellcheck source=scripts/check-lib.sh
. "$(dirname "$0")/check-lib.sh"
check_build_dir "$@"
here=$(cd "$(dirname "$0")/.." && pwd)

programs=(intel_sdsi sdsi-emu sdsi-authority sdsi-shmem)
soname=libsdsi.so.1		# soversion '1' in lib/meson.build: the ABI promise
headers=(sdsi/libsdsi.h sdsi/hw.h sdsi/license_blob.h sdsi/spdm_ioctl.h sdsi/libsdsi_version.h)


tmp=$(mktemp -d "${TMPDIR:-/tmp}/sdsi-check-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/destdir

# The directories as the build will install them: the options made
# absolute against the prefix, as meson does.
read -r version prefix bindir libdir includedir mandir datadir sysconfdir sanitize < <(
	{ meson introspect "$build" --projectinfo; echo; meson introspect "$build" --buildoptions; } |
	python3 -c '
import json, os, sys
project, options = [json.loads(doc) for doc in sys.stdin.read().split("\n\n", 1)]
opt = {o["name"]: o["value"] for o in options}
dirs = [os.path.join(opt["prefix"], opt[d]) for d in
        ("bindir", "libdir", "includedir", "mandir", "datadir", "sysconfdir")]
print(project["version"], opt["prefix"], *dirs, opt["b_sanitize"])') ||
	fail "cannot read the project version and install directories of $build"

# Only what gets installed needs to be up to date; make check has usually
# built it all already.
mapfile -t installed_outputs < <(meson introspect "$build" --targets | python3 -c '
import json, os, sys
build = sys.argv[1]
for t in json.load(sys.stdin):
    if t["installed"]:
        for f in t["filename"]:
            print(os.path.relpath(f, build))' "$build")
[ ${#installed_outputs[@]} -gt 0 ] || fail "meson introspect lists no installed target in $build"
ninja -C "$build" "${installed_outputs[@]}" >"$tmp/ninja.log" 2>&1 ||
	{ cat "$tmp/ninja.log" >&2; fail "building the installed targets of $build"; }
meson install -C "$build" --destdir "$dest" --no-rebuild >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "meson install -C $build --destdir $dest"; }
pass

# ---- files -------------------------------------------------------------

for p in "${programs[@]}"; do
	[ -f "$dest$bindir/$p" ] || fail "program $p not installed at $bindir/$p"
	[ -x "$dest$bindir/$p" ] || fail "program $bindir/$p is not executable"
	pass
done

real=libsdsi.so.$version
if [ ! -f "$dest$libdir/$real" ] || [ -L "$dest$libdir/$real" ]; then
	fail "library $libdir/$real not installed as a regular file"
fi
[[ $(readelf -d "$dest$libdir/$real") == *"(SONAME)"*"[$soname]"* ]] ||
	fail "library $libdir/$real does not carry the SONAME $soname"
pass
for link in "$soname" libsdsi.so; do
	[ -L "$dest$libdir/$link" ] || fail "symlink $libdir/$link not installed"
	[ "$(readlink -f "$dest$libdir/$link")" = "$(readlink -f "$dest$libdir/$real")" ] ||
		fail "symlink $libdir/$link does not lead to $real"
	pass
done
for h in "${headers[@]}"; do
	[ -f "$dest$includedir/$h" ] || fail "header $includedir/$h not installed"
	pass
done

pcdir=$libdir/pkgconfig
[ -f "$dest$pcdir/libsdsi.pc" ] || fail "pkg-config file $pcdir/libsdsi.pc not installed"
pass

for p in "${programs[@]}"; do
	page=$mandir/man1/$p.1
	[ -f "$dest$page" ] || fail "man page $page not installed"
	LC_ALL=C.UTF-8 MANPAGER=cat MANWIDTH=80 man -l "$dest$page" >"$tmp/man.out" 2>"$tmp/man.err" ||
		{ cat "$tmp/man.err" >&2; fail "man -l $page failed"; }
	[ ! -s "$tmp/man.err" ] || { cat "$tmp/man.err" >&2; fail "man -l $page complained"; }
	grep -qF "$p" "$tmp/man.out" || fail "man page $page renders without naming $p"
	if command -v groff >/dev/null; then
		LC_ALL=C.UTF-8 groff -ww -man -z "$dest$page" >"$tmp/groff.err" 2>&1
		[ ! -s "$tmp/groff.err" ] || { cat "$tmp/groff.err" >&2; fail "groff -ww warns about $page"; }
	fi
	# whatis and apropos read the NAME section through lexgrog.
	if command -v lexgrog >/dev/null; then
		lexgrog "$dest$page" >"$tmp/lexgrog.out" 2>&1 || true
		grep -qF ": \"$p - " "$tmp/lexgrog.out" ||
			{ cat "$tmp/lexgrog.out" >&2; fail "man page $page has no NAME line '$p - ...' for whatis"; }
	fi
	pass
done

# The JSON contract the man pages point to (docs/schema/): every schema, parseable.
for schema in "$here"/docs/schema/*.json; do
	installed=$datadir/sdsi/schema/${schema##*/}
	[ -f "$dest$installed" ] || fail "JSON schema $installed not installed"
	python3 -m json.tool "$dest$installed" >/dev/null || fail "JSON schema $installed does not parse"
	pass
done

# Every program's, each written from its option table at build time.
for p in "${programs[@]}"; do
	completion=$datadir/bash-completion/completions/$p
	[ -f "$dest$completion" ] || fail "bash completion $completion not installed"
	bash -n "$dest$completion" 2>"$tmp/bash.err" ||
		{ cat "$tmp/bash.err" >&2; fail "bash completion $completion is not valid bash"; }
	# shellcheck disable=SC2016  # expanded by the inner bash
	bash -c 'source "$1" && complete -p "$2"' _ "$dest$completion" "$p" >/dev/null 2>&1 ||
		fail "sourcing $completion registers no completion for $p"
	pass
done

# The textfile collector units, where systemd and Debian's packaging helper
# look (PREFIX/lib/systemd/system), naming the intel_sdsi installed with them.
for u in sdsi-textfile.service sdsi-textfile.timer; do
	[ -f "$dest$prefix/lib/systemd/system/$u" ] || fail "systemd unit $prefix/lib/systemd/system/$u not installed"
	pass
done
grep -q "^ExecStart=.* $bindir/intel_sdsi --all " "$dest$prefix/lib/systemd/system/sdsi-textfile.service" ||
	fail "sdsi-textfile.service does not run $bindir/intel_sdsi"

# The unit that keeps an emulated platform mounted, starting the installed
# sdsi-emu.
unit=$prefix/lib/systemd/system/sdsi-emu-mount@.service
[ -f "$dest$unit" ] || fail "systemd unit $unit not installed"
grep -qx "ExecStart=$bindir/sdsi-emu mount .*" "$dest$unit" ||
	fail "$unit does not start $bindir/sdsi-emu mount"
pass

# The attestation roots intel_sdsi --attest verify trusts by default: the
# directory is there for the owner to put the vendor's root in, and empty.
# No certificate of ours is installed anywhere, so no test root (the one
# sdsi-authority makes, least of all) is ever trusted by default.
roots=$sysconfdir/sdsi/attestation-roots
[ -d "$dest$roots" ] && [ ! -L "$dest$roots" ] || fail "trust anchor directory $roots not installed"
[ -z "$(ls -A "$dest$roots")" ] ||
	fail "trust anchor directory $roots is not empty: $(ls -A "$dest$roots" | tr "\n" " ")"
LD_LIBRARY_PATH="$dest$libdir" "$dest$bindir/intel_sdsi" --help >"$tmp/help.out" 2>&1 ||
	{ cat "$tmp/help.out" >&2; fail "$bindir/intel_sdsi --help exits non-zero"; }
tr -s ' \n' ' ' <"$tmp/help.out" | grep -qF "Default: $roots" ||
	fail "intel_sdsi --help does not name $roots as its default trust anchors"
pass
{ grep -rlI -e '-----BEGIN CERTIFICATE-----' "$dest"
  find "$dest" \( -name '*.pem' -o -name '*.crt' -o -name '*.der' \) -print; } >"$tmp/pem.txt" || :
[ ! -s "$tmp/pem.txt" ] ||
	fail "the install holds certificates, and no root of ours may be installed: $(sed "s|^$dest||" "$tmp/pem.txt" | sort -u | xargs)"
pass

# ---- the installed programs run ------------------------------------------

# Would the loader find each library a program needs that this project
# installs, with the program in bindir under the real prefix and no
# LD_LIBRARY_PATH?  Either the program's RUNPATH names the directory or the
# loader searches it by default; meson does not run ldconfig.
interp=$(readelf -l "$dest$bindir/intel_sdsi" | sed -n 's/.*interpreter: \(.*\)\]$/\1/p')
default_dirs=$("$interp" --help 2>/dev/null | sed -n 's/^  \(\/.*\) (system search path)$/\1/p')
finds_library() {	# PROGRAM LIBRARY
	local entry
	local -a entries=()
	IFS=: read -r -a entries < <(readelf -d "$dest$bindir/$1" |
		sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p')
	for entry in "${entries[@]}" $default_dirs; do
		entry=${entry//\$\{ORIGIN\}/$bindir}
		entry=${entry//\$ORIGIN/$bindir}
		[ -e "$dest$entry/$2" ] && return 0
	done
	return 1
}

export LD_LIBRARY_PATH="$dest$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for p in "${programs[@]}"; do
	exe=$dest$bindir/$p
	ldd "$exe" >"$tmp/ldd.out" 2>&1 || { cat "$tmp/ldd.out" >&2; fail "ldd $bindir/$p failed"; }
	! grep -qF "not found" "$tmp/ldd.out" ||
		fail "$bindir/$p needs a library that is not there: $(grep "not found" "$tmp/ldd.out" | xargs)"
	for needed in $(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		[ -e "$dest$libdir/$needed" ] || continue
		grep -qF "$needed => $dest$libdir/" "$tmp/ldd.out" ||
			fail "$bindir/$p loads $needed from elsewhere than the one installed: $(grep "$needed" "$tmp/ldd.out" | xargs)"
		finds_library "$p" "$needed" ||
			fail "$bindir/$p runs only with LD_LIBRARY_PATH: it has no RUNPATH naming $libdir," \
				"which the loader does not search by default, so it cannot find $needed"
	done
	"$exe" --help >"$tmp/help.out" 2>&1 || { cat "$tmp/help.out" >&2; fail "$bindir/$p --help exits non-zero"; }
	grep -qiF "usage: $p" "$tmp/help.out" || fail "$bindir/$p --help prints no 'usage: $p'"
	pass
done
for p in intel_sdsi sdsi-emu sdsi-authority sdsi-shmem; do
	out=$("$dest$bindir/$p" --version 2>&1) || fail "$bindir/$p --version exits non-zero: $out"
	[[ $out == "$p "*"$version"* ]] || fail "$bindir/$p --version says '$out', not $p ... $version"
	pass
done

# ---- a third party builds against libsdsi with pkg-config alone -----------

# Only the DESTDIR's libsdsi.pc: PKG_CONFIG_LIBDIR hides the system's.  The
# file names the real prefix; the sysroot maps it into the DESTDIR.
pc=(env PKG_CONFIG_LIBDIR="$dest$pcdir" PKG_CONFIG_PATH= PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1
    PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 pkg-config)
modversion=$("${pc[@]}" --modversion libsdsi 2>&1) || fail "pkg-config libsdsi: $modversion"
[ "$modversion" = "$version" ] || fail "libsdsi.pc says version $modversion, the project is $version"
pc_prefix=$("${pc[@]}" --variable=prefix libsdsi)
[ "$pc_prefix" = "$prefix" ] || fail "libsdsi.pc says prefix $pc_prefix, the build's is $prefix"
pass
cflags=$("${pc[@]}" --cflags libsdsi)
libs=$("${pc[@]}" --libs libsdsi)
[[ " $cflags " == *" -I$includedir "* ]] || fail "libsdsi.pc cflags '$cflags' do not name $includedir"
[[ " $libs " == *" -L$libdir "* && " $libs " == *" -lsdsi "* ]] ||
	fail "libsdsi.pc libs '$libs' are not -L$libdir -lsdsi"
pass

cat >"$tmp/consumer.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sdsi/hw.h>
#include <sdsi/libsdsi.h>

#define EXPECT(cond) \
	do { if (!(cond)) { fprintf(stderr, "consumer.c:%d: %s\n", __LINE__, #cond); return 1; } } while (0)

int main(void)
{
	struct sdsi_error *err = sdsi_error_new();
	unsigned int devno = 0;
	char text[5];

	EXPECT(err != NULL);

	EXPECT(strcmp(sdsi_errno_name(EIO), "EIO") == 0);
	sdsi_fourcc(SDSI_METER_SIGNATURE, text);
	EXPECT(strcmp(text, "MTDB") == 0);
	EXPECT(sdsi_parse_devno("12", &devno, err) == 0 && devno == 12);
	EXPECT(sdsi_parse_devno("x1", &devno, err) == -EINVAL);
	EXPECT(sdsi_error_errno(err) == EINVAL && sdsi_error_class(err) == SDSI_ERR_USAGE &&
	       strstr(sdsi_error_message(err), "'x1'"));
	sdsi_error_free(err);
	/* The header's version is the project's (lib/include/sdsi/libsdsi_version.h.in). */
	EXPECT(strcmp(LIBSDSI_VERSION, PROJECT_VERSION) == 0);
	EXPECT(LIBSDSI_VERSION_NUMBER == LIBSDSI_VERSION_AT(PROJECT_MAJOR, PROJECT_MINOR, PROJECT_PATCH));
	puts("consumer: ok");
	return 0;
}
EOF
# An instrumented libsdsi needs the sanitizer runtime in its users too.
san=()
[ "$sanitize" = none ] || san=("-fsanitize=$sanitize")
IFS=. read -r major minor patch <<<"$version"
version_defs=("-DPROJECT_VERSION=\"$version\"" "-DPROJECT_MAJOR=$major" "-DPROJECT_MINOR=$minor"
	"-DPROJECT_PATCH=$patch")
sysroot_pc=(env PKG_CONFIG_SYSROOT_DIR="$dest" "${pc[@]}")
read -r -a dest_cflags < <("${sysroot_pc[@]}" --cflags libsdsi)
read -r -a dest_libs < <("${sysroot_pc[@]}" --libs libsdsi)
# -MD lists the headers really used: none may come from outside the DESTDIR.
"${CC:-cc}" -std=gnu11 -Wall -Wextra -Werror "${san[@]}" "${version_defs[@]}" "${dest_cflags[@]}" -MD -MF "$tmp/consumer.d" \
	-o "$tmp/consumer" "$tmp/consumer.c" "${dest_libs[@]}" >"$tmp/cc.out" 2>&1 ||
	{ cat "$tmp/cc.out" >&2; fail "a C program using <sdsi/libsdsi.h> does not build with libsdsi.pc's flags"; }
for h in "${headers[@]}"; do
	grep -qF "$dest$includedir/$h" "$tmp/consumer.d" ||
		fail "the C program did not take $h from the installed $includedir"
done
pass
ldd "$tmp/consumer" >"$tmp/ldd.out" 2>&1 || true
grep -qF "$soname => $dest$libdir/$soname" "$tmp/ldd.out" ||
	fail "the C program does not load the installed $libdir/$soname: $(grep libsdsi "$tmp/ldd.out" | xargs)"
out=$("$tmp/consumer" 2>&1) || fail "the C program against the installed libsdsi failed: $out"
[ "$out" = "consumer: ok" ] || fail "the C program printed '$out'"
pass

checks_passed
