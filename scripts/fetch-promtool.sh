#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Debian's promtool for the tests of `intel_sdsi --format prometheus`,
# unpacked (never installed) from bookworm's prometheus package into
# BUILD_DIR/tools-apt/prometheus, through a private apt in
# BUILD_DIR/tools-apt/apt (scripts/private-apt.sh).  Installing the package
# would do more than the tests need: on a host booted with systemd it also
# enables and starts the Prometheus server.
#   scripts/fetch-promtool.sh BUILD_DIR   prints the path of promtool
# A second run only checks (and refreshes lists older than a day); a new
# Debian version of the package is fetched and unpacked in place of the old.
set -euo pipefail

log() { echo "fetch-promtool: $*" >&2; }
die() { log "$*"; exit 1; }

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no build directory '$1'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/private-apt.sh
. "$here/private-apt.sh"

work="$build/tools-apt"
root="$work/prometheus"
promtool="$root/usr/bin/promtool"
mkdir -p "$work" || die "cannot create $work"
# One fetch at a time per build directory (two test runs may start at once).
exec 9>"$work/lock"
flock 9 || die "cannot lock $work/lock"

apt_dir="$work/apt"
# prometheus comes from bookworm; its security updates, if any, from there.
setup_private_apt bookworm bookworm-security ||
	die "cannot set up the private apt in $apt_dir (see above)"
version=$(candidate_version prometheus) ||
	die "the private apt in $apt_dir offers no prometheus package"
stamp="prometheus $version"
if ! unpacked "$root" "$stamp" || [ ! -x "$promtool" ]; then
	deb=$(download_deb prometheus "$version") ||
		die "cannot download prometheus $version through the private apt in $apt_dir"
	# Only promtool (a Go program needing only libc) and its licence: the
	# server and its web assets stay in the .deb.
	unpack_debs -m ./usr/bin/promtool -m ./usr/share/doc/prometheus/copyright \
		"$root" "$stamp" "$deb" ||
		die "cannot unpack promtool from $deb into $root"
	log "unpacked promtool of prometheus $version into $root"
fi
[ -x "$promtool" ] || die "$promtool is missing after unpacking prometheus $version"
said=$("$promtool" --version 2>&1) ||
	die "$promtool --version failed (remove $root to unpack it again): $said"
case "$said" in
promtool*) ;;
*) die "$promtool --version does not name promtool: $said" ;;
esac
echo "$promtool"
