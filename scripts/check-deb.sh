#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What docs/packages.md promises of `make deb`: builds the Debian packages
# (scripts/build-deb.sh, lintian clean) into BUILD_DIR/deb, then checks them
# on this machine as a user would have them:
#   - no packaged program or library carries a RUNPATH or RPATH;
#   - intel-sdsi-dkms holds real files only, the tree drivers/kernel's
#     dkms-source.sh makes, under /usr/src/intel_sdsi-VERSION, and DKMS
#     builds the module from it against the kernel rig's headers when the
#     rig has fetched them (BUILD_DIR/kernel-rig; unstable's in the rig's
#     root of unstable, with its dkms); it is never installed
#     here, which would build against the host's kernel and write
#     /var/lib/dkms;
#   - the other six install with apt; sdsi-authority (the test CA) is its
#     own package, no file of it in intel-sdsi-tools; the installed Ansible
#     collection is the one ansible-doc finds with no configuration (the
#     path ansible-core searches by default), at the project's version;
#   - intel-sdsi-tools makes /etc/sdsi/attestation-roots, empty, and the
#     installed intel_sdsi trusts it by default;
#   - the installed intel_sdsi runs
#     inside the installed `sdsi-emu run` and finds the emulated sockets; a
#     C program builds with `pkg-config --cflags --libs libsdsi` alone and
#     runs against the installed libsdsi, whose LIBSDSI_VERSION is the
#     project's and the package's version;
#   - apt-get purge removes them, and dpkg's state and their files are as
#     before.
# Refuses to run (exit 1, touching nothing) when any of the packages is
# installed already: they are the user's then, not this test's.  Needs
# root for apt.  The last line printed is
#   deb: N checks passed
set -euo pipefail

check_name=deb
# shellcheck source=scripts/check-lib.sh
. "$(dirname "$0")/check-lib.sh"
check_build_dir "$@"
repo=$(cd "$(dirname "$0")/.." && pwd)

host_packages=(libsdsi1 libsdsi-dev intel-sdsi-tools sdsi-authority sdsi-emu ansible-sdsi-ondemand)
dkms_package=intel-sdsi-dkms

[ "$(id -u)" -eq 0 ] || fail "installing packages with apt needs root"

# dpkg's word for a package: installed, config-files, ..., or not-installed.
dpkg_status() {
	dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || echo not-installed
}
for p in "${host_packages[@]}" "$dkms_package"; do
	status=$(dpkg_status "$p")
	[ "$status" = not-installed ] ||
		fail "$p is on this machine already ($status); this test installs and purges it," \
			"so it will not run: remove it first (apt-get purge $p)"
done

# apt waits for another apt or dpkg on the machine rather than failing.
apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sdsi-check-deb.XXXXXX")
installed=()
cleanup() {
	if [ ${#installed[@]} -gt 0 ]; then
		"${apt[@]}" purge "${installed[@]}" >"$tmp/purge-on-exit.log" 2>&1 ||
			{ cat "$tmp/purge-on-exit.log" >&2; echo "deb: could not purge ${installed[*]}" >&2; }
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

version=$(meson introspect "$build" --projectinfo |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])') ||
	fail "cannot read the project version of $build"

# ---- build (lintian included) -------------------------------------------

"$repo/scripts/build-deb.sh" "$build/deb" >"$tmp/build-deb.log" 2>&1 ||
	{ cat "$tmp/build-deb.log" >&2; fail "scripts/build-deb.sh $build/deb"; }
grep -E '^(deb|[EWI]):' "$tmp/build-deb.log"
pass

deb_of() {	# PACKAGE: its .deb in build/deb
	local f
	f=$(find "$build/deb" -maxdepth 1 -name "${1}_*.deb" | head -1)
	[ -n "$f" ] || fail "scripts/build-deb.sh made no $1 package"
	echo "$f"
}
for p in "${host_packages[@]}" "$dkms_package"; do
	deb=$(deb_of "$p")
	pkg_version=$(dpkg-deb -f "$deb" Version)
	[ "${pkg_version%-*}" = "$version" ] ||
		fail "$(basename "$deb") is version $pkg_version, the project (meson.build) is $version"
	mkdir -p "$tmp/x/$p"
	dpkg-deb -x "$deb" "$tmp/x/$p" || fail "dpkg-deb -x $deb"
	pass
done

# ---- no RUNPATH: the packaged ELF files find libsdsi in the loader's path

elves=0
while IFS= read -r -d '' f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
	elves=$((elves + 1))
	if readelf -d "$f" | grep -E '\((RUNPATH|RPATH)\)' >"$tmp/rpath.txt"; then
		fail "${f#"$tmp/x/"} carries $(xargs <"$tmp/rpath.txt")"
	fi
done < <(find "$tmp/x" -type f -print0)
[ $elves -eq 5 ] || fail "found $elves ELF files in the packages, expected 5 (4 programs, libsdsi)"
pass

# ---- intel-sdsi-dkms: real files, the sources the repository builds ------

dkms_src=$tmp/x/$dkms_package/usr/src/intel_sdsi-$version
[ -f "$dkms_src/dkms.conf" ] || fail "$dkms_package has no /usr/src/intel_sdsi-$version/dkms.conf"
conf_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$dkms_src/dkms.conf")
[ "$conf_version" = "$version" ] || fail "$dkms_package's dkms.conf says PACKAGE_VERSION $conf_version, not $version"
dpkg-deb -c "$(deb_of "$dkms_package")" >"$tmp/dkms-contents.txt"
! grep -v '^[d-]' "$tmp/dkms-contents.txt" >"$tmp/dkms-odd.txt" ||
	fail "$dkms_package holds entries that are not files or directories: $(xargs <"$tmp/dkms-odd.txt")"
"$repo/drivers/kernel/dkms-source.sh" "$tmp/dkms-expected"
diff -r "$tmp/dkms-expected" "$dkms_src" >"$tmp/dkms-diff.txt" 2>&1 ||
	{ cat "$tmp/dkms-diff.txt" >&2; fail "$dkms_package's /usr/src tree differs from drivers/kernel/dkms-source.sh's"; }
pass
# The user's choice of kernels (drivers/kernel/dkms-policy.sh): a conffile
# saying no by default, the repository's file.
dkms_default=$tmp/x/$dkms_package/etc/default/$dkms_package
cmp -s "$repo/drivers/kernel/intel-sdsi-dkms.default" "$dkms_default" ||
	fail "$dkms_package's /etc/default/$dkms_package is not drivers/kernel/intel-sdsi-dkms.default"
grep -q -x 'SDSI_DKMS_ALL_KERNELS=no' "$dkms_default" ||
	fail "$dkms_package's /etc/default/$dkms_package does not say SDSI_DKMS_ALL_KERNELS=no"
dpkg-deb -f "$(deb_of "$dkms_package")" Package >/dev/null &&
	dpkg-deb --info "$(deb_of "$dkms_package")" conffiles 2>/dev/null |
	grep -q -x "/etc/default/$dkms_package" ||
	fail "$dkms_package does not declare /etc/default/$dkms_package a conffile"
pass

# DKMS builds the module from exactly the packaged tree, against each
# kernel whose headers the rig has unpacked (make check-kernel fetches them):
# Debian 12's with the rig's unpacked bookworm dkms, unstable's in the rig's
# root of unstable (rig/sid-kernel.sh) with its own dkms, since those
# headers want unstable's compiler and C library.  By default DKMS builds
# ours only below Linux 6.10 (drivers/kernel/dkms-policy.sh): for newer
# kernels the build opts in, as a user would; and for the first of them
# the default is checked to skip the build with its reason.
rig=$build/kernel-rig
dkms_built=0 dkms_skip_checked=0
# Whether release REL has the current ABI in tree: 6.10 or later.
current_in_tree() {
	[ "$(printf '%s\n' 6.10 "${1%%-*}" | sort -V | head -n 1)" = 6.10 ]
}
# dkms-build.sh for release REL as "CMD..." runs it, with dkms-build.sh's
# options where CMD has "@opts@".
with_opts() {
	local arg argv=()
	for arg in "${@:2}"; do
		if [ "$arg" = @opts@ ]; then
			[ -z "$1" ] || argv+=("$1")
		else
			argv+=("$arg")
		fi
	done
	"${argv[@]}"
}
dkms_check() {
	local rel=$1 opt=''
	shift
	if current_in_tree "$rel" && [ $dkms_skip_checked -eq 0 ]; then
		with_opts --expect-skip "$@" >"$tmp/dkms-build.log" 2>&1 ||
			{ cat "$tmp/dkms-build.log" >&2; fail "dkms build of $dkms_package's sources for $rel did not skip by default"; }
		echo "deb: $dkms_package leaves $rel its own intel_sdsi by default"
		dkms_skip_checked=1
		pass
	fi
	! current_in_tree "$rel" || opt=--all-kernels
	with_opts "$opt" "$@" >"$tmp/dkms-build.log" 2>&1 ||
		{ cat "$tmp/dkms-build.log" >&2; fail "dkms build of $dkms_package's sources for $rel"; }
	echo "deb: $dkms_package builds intel_sdsi.ko with dkms for $rel${opt:+ (opted in)}"
	dkms_built=$((dkms_built + 1))
	pass
}
if [ -x "$rig/dkms-root/usr/sbin/dkms" ]; then
	for headers in "$rig"/img-*/usr/src/linux-headers-*; do
		[ -f "$headers/Module.symvers" ] || continue	# the -common half
		rel=${headers##*/linux-headers-}
		dkms_check "$rel" "$repo/drivers/kernel/dkms-build.sh" @opts@ "$rig/dkms-root/usr/sbin/dkms" \
			"$headers" "$rel" "$tmp/dkms-$rel" "$dkms_src"
	done
fi
if [ -x "$rig/sid-root/usr/sbin/dkms" ]; then
	for headers in "$rig"/sid-root/usr/src/linux-headers-*; do
		[ -f "$headers/Module.symvers" ] || continue
		rel=${headers##*/linux-headers-}
		dkms_check "$rel" "$repo/rig/sid-kernel.sh" run "$rig" "$repo" "$tmp" -- \
			"$repo/drivers/kernel/dkms-build.sh" @opts@ /usr/sbin/dkms \
			"/usr/src/linux-headers-$rel" "$rel" "$tmp/dkms-$rel" "$dkms_src"
	done
	# The mount point sid-kernel.sh made for $tmp in the root.
	rmdir "$rig/sid-root$tmp" 2>/dev/null || :
fi
# make check runs this after check-kernel, so the rig's headers are there;
# under CI their absence is a failure, not a note.
[ $dkms_built -eq 0 ] || [ $dkms_skip_checked -eq 1 ] ||
	fail "no kernel of 6.10 or later under $rig: the default skip of $dkms_package was not checked"
if [ $dkms_built -eq 0 ]; then
	[ "${CI:-}" != true ] ||
		fail "no kernel headers or dkms under $rig: make check-kernel fetches them, and CI must build $dkms_package's sources"
	echo "deb: note: no kernel headers under $rig (make check-kernel fetches them);" \
		"$dkms_package's sources were compared with the repository's, not built"
fi

# ---- install the six with apt ---------------------------------------------

# deb-systemd-helper's records of our units (written on installation,
# removed on purge), as they are before.
systemd_state() {
	find /var/lib/systemd -path '*deb-systemd-*' -name 'sdsi*' 2>/dev/null | sort
}
systemd_state >"$tmp/systemd-before.txt"

debs=()
for p in "${host_packages[@]}"; do
	debs+=("$(deb_of "$p")")
done
# From here on the EXIT trap purges whatever this test installed.
installed=("${host_packages[@]}")
"${apt[@]}" install --no-install-recommends "${debs[@]}" \
	>"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "apt-get install ${debs[*]}"; }
# What apt unpacked, from its own log (other apt runs on a shared machine
# do not count): our six and any dependency it had to add, which this test
# then owns and purges too.  Nothing of the user's is upgraded or removed.
mapfile -t installed < <(sed -n 's/^Unpacking \([^ :]*\)\(:[^ ]*\)\? (.*/\1/p' "$tmp/install.log" | sort -u)
for p in "${host_packages[@]}"; do
	printf '%s\n' "${installed[@]}" | grep -qx -- "$p" ||
		{ cat "$tmp/install.log" >&2; fail "apt-get install unpacked no $p"; }
done
grep -q '^0 upgraded, [0-9]* newly installed, 0 to remove' "$tmp/install.log" ||
	{ cat "$tmp/install.log" >&2; fail "apt-get install ${debs[*]} upgraded or removed other packages"; }
for p in "${host_packages[@]}"; do
	[ "$(dpkg_status "$p")" = installed ] || fail "$p is not installed after apt-get install"
	dpkg -L "$p" >>"$tmp/files.txt"
done
pass

# ---- the installed programs ------------------------------------------------

for p in intel_sdsi sdsi-authority sdsi-emu sdsi-shmem; do
	[ "$(command -v "$p")" = "/usr/bin/$p" ] || fail "$p is not /usr/bin/$p on PATH after installation"
	out=$("/usr/bin/$p" --version 2>&1) || fail "/usr/bin/$p --version: $out"
	[[ $out == "$p "*"$version"* ]] || fail "/usr/bin/$p --version says '$out'"
	page=$(man -w "$p" 2>/dev/null) || fail "man -w $p finds no page"
	[ "$page" = "/usr/share/man/man1/$p.1.gz" ] || fail "man -w $p gives $page"
	[ -f "/usr/share/bash-completion/completions/$p" ] || fail "no bash completion for $p"
	pass
done
# Every document a page or --help cites by its installed path is there.
for p in intel_sdsi sdsi-authority sdsi-emu sdsi-shmem; do
	cited=$({ MANWIDTH=200 man "$p" 2>/dev/null; "/usr/bin/$p" --help; } |
		sed -e ':a' -e '/\/$/{N;s/\n *//;ba;}' |
		grep -o '/usr/share/doc/[a-z0-9.+-]*/[A-Za-z0-9._-]*\.md' | sort -u)
	[ -n "$cited" ] || fail "$p: neither its man page nor its --help cites a document in /usr/share/doc"
	for f in $cited; do
		[ -f "$f" ] || fail "$p cites $f, which its package did not install"
	done
done
pass

# The test CA is a package of its own: nothing of it in the production tools.
for f in /usr/bin/sdsi-authority /usr/share/man/man1/sdsi-authority.1.gz \
	/usr/share/bash-completion/completions/sdsi-authority; do
	owner=$(dpkg -S "$f" 2>/dev/null | cut -d: -f1)
	[ "$owner" = sdsi-authority ] || fail "$f belongs to '${owner:-no package}', not sdsi-authority"
done
! dpkg -L intel-sdsi-tools | grep -q authority ||
	fail "intel-sdsi-tools holds files of sdsi-authority: $(dpkg -L intel-sdsi-tools | grep authority | xargs)"
pass

# The trust anchors intel_sdsi --attest verify reads by default: the
# directory is intel-sdsi-tools', empty (no test root of sdsi-authority, nor
# any other, is trusted until the owner puts the vendor's root there), and
# the installed intel_sdsi names it.
roots=/etc/sdsi/attestation-roots
[ -d "$roots" ] && [ ! -L "$roots" ] || fail "no directory $roots after installing intel-sdsi-tools"
owner=$(dpkg -S "$roots" 2>/dev/null | cut -d: -f1)
[ "$owner" = intel-sdsi-tools ] || fail "$roots belongs to '${owner:-no package}', not intel-sdsi-tools"
[ -z "$(ls -A "$roots")" ] || fail "$roots is not empty after installation: $(ls -A "$roots" | tr "\n" " ")"
/usr/bin/intel_sdsi --help | tr -s ' \n' ' ' >"$tmp/help.txt"
grep -qF "Default: $roots" "$tmp/help.txt" || fail "/usr/bin/intel_sdsi --help does not name $roots as its default"
pass

# The Ansible collection where ansible-core looks without being told: no
# configuration file, no collections path, a home of its own (so nothing of
# the user's ~/.ansible is searched or written).
collection=/usr/share/ansible/collections/ansible_collections/sdsi/ondemand
mkdir -p "$tmp/ansible-home"
: >"$tmp/ansible.cfg"
ansible_env=(env -u ANSIBLE_COLLECTIONS_PATH -u ANSIBLE_COLLECTIONS_PATHS
	ANSIBLE_CONFIG="$tmp/ansible.cfg" ANSIBLE_HOME="$tmp/ansible-home"
	ANSIBLE_LOCAL_TEMP="$tmp/ansible-home/tmp" ANSIBLE_NOCOLOR=1)
for m in sdsi_facts sdsi_provision; do
	(cd "$tmp" && "${ansible_env[@]}" ansible-doc "sdsi.ondemand.$m") >"$tmp/doc-$m.txt" 2>&1 ||
		{ cat "$tmp/doc-$m.txt" >&2; fail "ansible-doc sdsi.ondemand.$m does not find the installed collection"; }
	head -1 "$tmp/doc-$m.txt" | grep -qF "(/usr/share/ansible/collections/ansible_collections/sdsi/ondemand/plugins/modules/$m.py)" ||
		fail "ansible-doc sdsi.ondemand.$m reads $(head -1 "$tmp/doc-$m.txt"), not the installed collection"
done
(cd "$tmp" && "${ansible_env[@]}" ansible-galaxy collection list sdsi.ondemand) >"$tmp/galaxy-list.txt" 2>&1 ||
	{ cat "$tmp/galaxy-list.txt" >&2; fail "ansible-galaxy collection list sdsi.ondemand"; }
grep -Eq "^sdsi\.ondemand +$version *$" "$tmp/galaxy-list.txt" ||
	{ cat "$tmp/galaxy-list.txt" >&2; fail "ansible-galaxy does not list sdsi.ondemand $version"; }
[ -f "$collection/MANIFEST.json" ] && [ -f "$collection/FILES.json" ] ||
	fail "$collection has no MANIFEST.json and FILES.json: not installed from a built collection"
pass

ldd /usr/bin/intel_sdsi >"$tmp/ldd.txt"
lib=$(sed -n 's/^[[:space:]]*libsdsi.so.1 => \([^ ]*\) .*/\1/p' "$tmp/ldd.txt")
[ -n "$lib" ] || { cat "$tmp/ldd.txt" >&2; fail "/usr/bin/intel_sdsi does not find libsdsi.so.1"; }
owner=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | cut -d: -f1)
[ "$owner" = libsdsi1 ] || fail "/usr/bin/intel_sdsi loads $lib, which is not libsdsi1's (${owner:-no package})"
pass

# The installed tool inside the installed emulator: the two sockets listed.
/usr/bin/sdsi-emu run --sockets 2 -- /usr/bin/intel_sdsi -l >"$tmp/list.txt" 2>"$tmp/list.err" ||
	{ cat "$tmp/list.err" >&2; fail "/usr/bin/sdsi-emu run --sockets 2 -- /usr/bin/intel_sdsi -l"; }
printf 'intel_vsec.sdsi.0\nintel_vsec.sdsi.1\n' | diff - "$tmp/list.txt" >&2 ||
	fail "intel_sdsi -l inside sdsi-emu run does not list the two emulated sockets"
/usr/bin/sdsi-emu run --sockets 2 -- /usr/bin/intel_sdsi -d 1 -i >"$tmp/info.txt" 2>"$tmp/info.err" ||
	{ cat "$tmp/info.err" >&2; fail "/usr/bin/intel_sdsi -d 1 -i inside /usr/bin/sdsi-emu run"; }
grep -q '^PPIN: *0x[0-9a-f]\{1,16\}$' "$tmp/info.txt" ||
	{ cat "$tmp/info.txt" >&2; fail "intel_sdsi -d 1 -i inside sdsi-emu run shows no PPIN"; }
pass

# ---- a program against libsdsi-dev, with pkg-config alone ------------------

cat >"$tmp/consumer.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <sdsi/libsdsi.h>

int main(void)
{
	char text[5];

	sdsi_fourcc(SDSI_METER_SIGNATURE, text);
	if (strcmp(text, "MTDB") != 0)
		return 1;
	printf("%s %d.%d.%d\n", LIBSDSI_VERSION, LIBSDSI_VERSION_MAJOR, LIBSDSI_VERSION_MINOR,
	       LIBSDSI_VERSION_PATCH);
	return 0;
}
EOF
read -r -a flags < <(env -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR pkg-config --cflags --libs libsdsi) ||
	fail "pkg-config --cflags --libs libsdsi fails with libsdsi-dev installed"
cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/consumer" "$tmp/consumer.c" "${flags[@]}" >"$tmp/cc.txt" 2>&1 ||
	{ cat "$tmp/cc.txt" >&2; fail "a C program does not build with \$(pkg-config --cflags --libs libsdsi)"; }
out=$("$tmp/consumer") || fail "the C program against the installed libsdsi failed"
dev_version=$(dpkg-query -W -f='${Version}' libsdsi-dev)
[ "$out" = "$version $version" ] ||
	fail "the installed header says LIBSDSI_VERSION and its parts '$out', the project is $version"
[ "${dev_version%-*}" = "$version" ] ||
	fail "libsdsi-dev is version $dev_version, its LIBSDSI_VERSION is $version"
pass

# ---- purge: the machine as before -----------------------------------------

"${apt[@]}" purge "${installed[@]}" >"$tmp/purge.log" 2>&1 ||
	{ cat "$tmp/purge.log" >&2; fail "apt-get purge ${installed[*]}"; }
purged=("${installed[@]}")
installed=()
for p in "${purged[@]}"; do
	[ "$(dpkg_status "$p")" = not-installed ] || fail "$p is $(dpkg_status "$p") after apt-get purge"
	! compgen -G "/var/lib/dpkg/info/$p.*" >/dev/null && ! compgen -G "/var/lib/dpkg/info/$p:*" >/dev/null ||
		fail "dpkg still keeps /var/lib/dpkg/info/$p.* after the purge"
done
grep -q "^0 upgraded, 0 newly installed, ${#purged[@]} to remove" "$tmp/purge.log" ||
	{ cat "$tmp/purge.log" >&2; fail "apt-get purge ${purged[*]} removed other packages too"; }
# Together with the install's summary (nothing upgraded or removed), this
# says every other package is as it was.  dpkg's whole list is not compared:
# on a shared machine another apt may change it meanwhile.
systemd_state | diff "$tmp/systemd-before.txt" - >&2 ||
	fail "deb-systemd-helper's records of the units differ from before the test (above)"
left=0
while IFS= read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && { echo "deb: left behind: $f" >&2; left=$((left + 1)); }
done <"$tmp/files.txt"
[ $left -eq 0 ] || fail "$left files of the packages remain after apt-get purge"
for d in /etc/sdsi /usr/include/sdsi /usr/share/doc/libsdsi1 /usr/share/doc/libsdsi-dev \
	/usr/share/doc/intel-sdsi-tools /usr/share/doc/sdsi-authority /usr/share/doc/sdsi-emu \
	/usr/share/doc/ansible-sdsi-ondemand /usr/share/ansible/collections/ansible_collections/sdsi; do
	[ ! -e "$d" ] || fail "$d remains after apt-get purge"
done
pass

checks_passed
