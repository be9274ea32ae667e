#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Show that kernel/driver/dkms.conf builds intel_sdsi with DKMS against a
# kernel's unpacked headers, touching nothing outside OUT_DIR: DKMS's tree
# (--dkmstree) and source tree (--sourcetree) live there, and nothing is
# added, installed or signed on the host.
#   kernel/driver/dkms-build.sh DKMS HEADERS_DIR RELEASE OUT_DIR [SOURCE_DIR]
# DKMS is the dkms program (e.g. from an unpacked dkms .deb).  The source
# tree is kernel/driver/dkms-source.sh's, or SOURCE_DIR (an unpacked
# intel-sdsi-dkms's /usr/src/intel_sdsi-VERSION) when given.
set -uo pipefail
[ $# -eq 4 ] || [ $# -eq 5 ] ||
	{ echo "usage: $0 DKMS HEADERS_DIR RELEASE OUT_DIR [SOURCE_DIR]" >&2; exit 2; }
dkms=$1 headers=$2 rel=$3 out=$4 given_src=${5:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
conf=${given_src:-$repo/kernel/driver}/dkms.conf
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
[ -n "$version" ] || { echo "$0: dkms.conf names no PACKAGE_VERSION" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/tree" || exit 1
out=$(cd "$out" && pwd)
src="$out/src/intel_sdsi-$version"
if [ -n "$given_src" ]; then
	# A tree as a package ships it (scripts/check-deb.sh): copied, so that
	# DKMS's build products stay under OUT_DIR.
	mkdir -p "$out/src" && cp -a "$given_src" "$src" || exit 1
else
	"$repo/kernel/driver/dkms-source.sh" --link "$src" || exit 1
fi
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
