#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's checkpatch.pl --strict on every file compiled into the
# module: the glue, its compile probes, the driver core
# (drivers/core/sdsi_mbox.[ch], sdsi_disc.[ch]) and the headers of include/sdsi/ it
# includes, which are the C files of the one list of the module's sources
# (drivers/kernel/dkms-source.sh).  All are clean but for the checks
# named in ARGUED below, each argued in docs/conformance.md ("checkpatch").
# checkpatch.pl, with
# the spelling list and the list of structures that should be const it
# reads beside itself, comes from Debian's linux-source-6.12, fetched
# through the rig's private apt into WORK (never installed): only those
# three files are taken out of its source tarball, once per version.
#   drivers/kernel/checkpatch.sh WORK      (WORK: BUILD_DIR/kernel-rig)
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 WORK" >&2; exit 2; }
mkdir -p "$1" && work=$(cd "$1" && pwd) || exit 1
repo=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "checkpatch: $*" >&2; }
# shellcheck source=scripts/private-apt.sh
. "$repo/scripts/private-apt.sh"
# shellcheck disable=SC2034 # private-apt.sh reads it
apt_dir="$work/apt"
setup_private_apt || exit 1

package=linux-source-6.12
version=$(candidate_version "$package") || exit 1
dir="$work/checkpatch"
if [ "$(cat "$dir/.sdsi-packages" 2>/dev/null)" != "$package $version" ]; then
	deb=$(download_deb "$package" "$version") || exit 1
	rm -rf "$dir" "$dir.part" && mkdir -p "$dir.part" || exit 1
	tarball=$(dpkg-deb -c "$deb" | awk '$6 ~ /\/usr\/src\/linux-source-.*\.tar\.xz$/ {print $6; exit}')
	[ -n "$tarball" ] || { log "$deb holds no source tarball"; exit 1; }
	log "taking checkpatch.pl out of $package $version"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" | xz -dc |
		tar -x -C "$dir.part" --strip-components=2 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' ||
		{ log "cannot take checkpatch.pl out of $deb"; exit 1; }
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		[ -f "$dir.part/$f" ] || { log "$package $version has no scripts/$f"; exit 1; }
	done
	echo "$package $version" >"$dir.part/.sdsi-packages" && mv "$dir.part" "$dir" || exit 1
fi

# From WORK: in a git tree checkpatch.pl leaves a cache of CamelCase words
# in the current directory, which must not be the repository.
cd "$work" || exit 1
# The module's sources as DKMS gets them (symlinks into the repository).
src="$work/checkpatch-src"
"$repo/drivers/kernel/dkms-source.sh" --link "$src" || exit 1
files=()
while IFS= read -r f; do
	files+=("$(readlink "$f")")
done < <(find "$src" -name '*.[ch]' | sort)
[ ${#files[@]} -gt 0 ] || { log "no C sources in $src"; exit 1; }
# The checks argued in docs/conformance.md, FILE:TYPE,...: the X-macro
# table of the sysfs files, which no parentheses can enclose.
declare -A argued=(
	[include/sdsi/sysfs_files.h]='COMPLEX_MACRO,MACRO_ARG_REUSE'
)
# --no-tree: no kernel tree around the files; the checks that need one
# (a compatible string's binding, for one) do not concern this module.
: >"$work/checkpatch.log"
failed=0
for f in "${files[@]}"; do
	ignore=()
	[ -n "${argued[${f#"$repo"/}]-}" ] && ignore=(--ignore "${argued[${f#"$repo"/}]}")
	perl "$dir/checkpatch.pl" --strict --no-tree --terse --show-types \
		"${ignore[@]}" -f "$f" >>"$work/checkpatch.log" 2>&1 || failed=1
done
if [ $failed -eq 0 ]; then
	echo "checkpatch: --strict clean on ${#files[@]} files (${#argued[@]} with checks argued in docs/conformance.md)"
else
	grep -v '^total: 0 errors, 0 warnings, 0 checks' "$work/checkpatch.log" >&2
	log "--strict found the above in the module's files"
	exit 1
fi
