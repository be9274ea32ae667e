#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One version, said in several places: meson.build's project version is the
# source, and every repetition of it must agree (a meson test, so each
# build checks it):
#   - <sdsi/libsdsi_version.h> as generated (LIBSDSI_VERSION and its parts);
#   - debian/changelog's newest entry (its upstream part, before the '-');
#   - drivers/kernel/dkms.conf's PACKAGE_VERSION (the /usr/src directory),
#     which drivers/kernel/Kbuild also makes the module's MODULE_VERSION
#     (checked here: Kbuild reads it from there, sdsi_aux.c declares it);
#   - the Ansible collection's galaxy.yml version (its artifact's name);
#   - the footer of each hand-written man page (man/*.1's .TH line), the
#     same as intel_sdsi's generated one: "sdsi VERSION", no date;
# and the soname: lib/meson.build's soversion N names the package libsdsiN
# in debian/control and its symbols file (docs/library.md).
#   scripts/check-versions.sh SOURCE_DIR VERSION_HEADER PROJECT_VERSION
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SOURCE_DIR VERSION_HEADER PROJECT_VERSION" >&2; exit 2; }
src=$1 header=$2 version=$3
bad=0
differs() {	# WHAT FOUND
	echo "versions: $1 says '$2', meson.build's project version is '$version'" >&2
	bad=1
}

macro() {	# NAME: its value in the generated header
	sed -n "s/^#define $1[[:space:]]\+\(.*\)$/\1/p" "$header"
}
[ "$(macro LIBSDSI_VERSION)" = "\"$version\"" ] || differs "$header LIBSDSI_VERSION" "$(macro LIBSDSI_VERSION)"
parts="$(macro LIBSDSI_VERSION_MAJOR).$(macro LIBSDSI_VERSION_MINOR).$(macro LIBSDSI_VERSION_PATCH)"
[ "$parts" = "$version" ] || differs "$header MAJOR.MINOR.PATCH" "$parts"

# "sdsi (0.1.0-1) unstable; urgency=medium" on the first line.
changelog=$(sed -n '1s/^sdsi (\([^)-]*\)-[^)]*).*/\1/p' "$src/debian/changelog")
[ "$changelog" = "$version" ] || differs "debian/changelog" "$changelog"

dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$src/drivers/kernel/dkms.conf")
[ "$dkms" = "$version" ] || differs "drivers/kernel/dkms.conf PACKAGE_VERSION" "$dkms"
grep -q '^sdsi_version := $(shell sed .*PACKAGE_VERSION=.* $(src)/dkms.conf)$' "$src/drivers/kernel/Kbuild" &&
	grep -q -- '-DSDSI_MODULE_VERSION=\\"$(sdsi_version)\\"' "$src/drivers/kernel/Kbuild" ||
	{ echo "versions: drivers/kernel/Kbuild does not take MODULE_VERSION from dkms.conf's PACKAGE_VERSION" >&2; bad=1; }
grep -qx 'MODULE_VERSION(SDSI_MODULE_VERSION);' "$src/drivers/kernel/sdsi_aux.c" ||
	{ echo "versions: drivers/kernel/sdsi_aux.c declares no MODULE_VERSION(SDSI_MODULE_VERSION)" >&2; bad=1; }

galaxy=$(sed -n 's/^version: *//p' "$src/ansible/ansible_collections/sdsi/ondemand/galaxy.yml")
[ "$galaxy" = "$version" ] || differs "ansible/ansible_collections/sdsi/ondemand/galaxy.yml version" "$galaxy"

for page in "$src"/man/*.1; do
	name=$(basename "$page" .1 | tr '[:lower:]' '[:upper:]')
	th=$(grep '^\.TH ' "$page")
	[ "$th" = ".TH $name 1 \"\" \"sdsi $version\" \"User Commands\"" ] ||
		differs "man/$(basename "$page")'s .TH line" "$th"
done

soversion=$(sed -n "s/^[[:space:]]*soversion[[:space:]]*:[[:space:]]*'\([0-9]*\)'.*/\1/p" "$src/lib/meson.build")
if [ -z "$soversion" ]; then
	echo "versions: lib/meson.build names no soversion" >&2
	bad=1
else
	grep -qx "Package: libsdsi$soversion" "$src/debian/control" ||
		{ echo "versions: debian/control has no package libsdsi$soversion for soversion $soversion" >&2; bad=1; }
	[ -f "$src/debian/libsdsi$soversion.symbols" ] &&
		grep -q "^libsdsi.so.$soversion libsdsi$soversion " "$src/debian/libsdsi$soversion.symbols" ||
		{ echo "versions: debian/libsdsi$soversion.symbols does not list libsdsi.so.$soversion" >&2; bad=1; }
fi

[ $bad -eq 0 ] || exit 1
echo "versions: $version everywhere, soname libsdsi.so.$soversion"
