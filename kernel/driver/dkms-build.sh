#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Show that kernel/driver/dkms.conf builds intel_sdsi with DKMS against a
# kernel's unpacked headers, touching nothing outside OUT_DIR: DKMS's tree
# (--dkmstree) and source tree (--sourcetree) live there, and nothing is
# added, installed or signed on the host.
#   kernel/driver/dkms-build.sh DKMS HEADERS_DIR RELEASE OUT_DIR
# DKMS is the dkms program (e.g. from an unpacked dkms .deb).
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: $0 DKMS HEADERS_DIR RELEASE OUT_DIR" >&2; exit 2; }
dkms=$1 headers=$2 rel=$3 out=$4
repo=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$repo/kernel/driver/dkms.conf")
[ -n "$version" ] || { echo "$0: dkms.conf names no PACKAGE_VERSION" >&2; exit 1; }
rm -rf "$out"
src="$out/src/intel_sdsi-$version"
mkdir -p "$src" "$out/tree" || exit 1
out=$(cd "$out" && pwd)
ln -s "$repo/kernel/driver/dkms.conf" "$repo/kernel/driver/Kbuild" \
	"$repo/kernel/driver/sdsi_aux.c" "$repo/core/sdsi_mbox.c" \
	"$repo/core/sdsi_mbox.h" "$repo/kernel/sdsi_window_vsec.h" \
	"$repo/include" "$src/" || exit 1
# sign_file names a signer that does not exist, so DKMS neither looks for
# the host's nor makes a key under /var/lib/dkms.
env sign_file=/nonexistent/sign-file \
	"$dkms" build -m intel_sdsi -v "$version" -k "$rel" \
	--dkmstree "$out/tree" --sourcetree "$out/src" \
	--kernelsourcedir "$(cd "$headers" && pwd)" >"$out/dkms.log" 2>&1
status=$?
ko=$(find "$out/tree/intel_sdsi/$version/$rel" -name 'intel_sdsi.ko*' 2>/dev/null | head -1)
if [ $status -ne 0 ] || [ -z "$ko" ]; then
	cat "$out/dkms.log" >&2
	find "$out/tree" -name make.log -exec cat {} + >&2
	echo "$0: dkms build for $rel failed (exit $status)" >&2
	exit 1
fi
echo "dkms: $ko"
