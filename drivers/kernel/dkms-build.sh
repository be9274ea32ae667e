#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Show that drivers/kernel/dkms.conf builds intel_sdsi with DKMS against a
# kernel's unpacked headers, touching nothing outside OUT_DIR: DKMS's tree
# (--dkmstree) and source tree (--sourcetree) live there, and nothing is
# added, installed or signed on the host.
#   drivers/kernel/dkms-build.sh [--install MODULES_DIR] [--all-kernels]
#       [--efivars DIR] [--expect-skip] DKMS HEADERS_DIR RELEASE OUT_DIR [SOURCE_DIR]
# DKMS is the dkms program (e.g. from an unpacked dkms .deb).  The source
# tree is drivers/kernel/dkms-source.sh's, or SOURCE_DIR (an unpacked
# intel-sdsi-dkms's /usr/src/intel_sdsi-VERSION) when given.
# --install runs `dkms install` instead of `dkms build`, as the package's
# postinst does, with MODULES_DIR as the install tree (--installtree: a
# private stand-in for /lib/modules holding MODULES_DIR/RELEASE, with the
# kernel's own intel_sdsi in it): fails unless DKMS put the module under
# MODULES_DIR/RELEASE/updates/dkms.  DKMS exits 0 when it declines to
# replace the kernel's module; this script does not.  No depmod here (it
# would read the host's /lib/modules): whoever uses the tree runs it.
# dkms.conf's policy (dkms-policy.sh) reads OUT_DIR/default, never
# /etc/default/intel-sdsi-dkms: SDSI_DKMS_ALL_KERNELS=no, or yes with
# --all-kernels (the user opted in); and Secure Boot from DIR given by
# --efivars (a made-up efivars directory), else from none (off), with
# DKMS's certificate $mok_certificate if set, else OUT_DIR/mok.pub (none).
# --expect-skip: succeeds only if DKMS built and installed nothing, exited
# 77 (BUILD_EXCLUSIVE) and printed the policy's reason, which it shows.
set -uo pipefail
action=build install_tree='' all_kernels=no efivars='' expect=module
while [ $# -gt 0 ]; do
	case "$1" in
	--install)
		[ $# -ge 2 ] || { echo "$0: --install needs MODULES_DIR" >&2; exit 2; }
		action=install
		install_tree=$(cd "$2" 2>/dev/null && pwd) ||
			{ echo "$0: --install $2: no such directory" >&2; exit 2; }
		shift 2
		;;
	--all-kernels) all_kernels=yes; shift ;;
	--efivars)
		[ $# -ge 2 ] || { echo "$0: --efivars needs DIR" >&2; exit 2; }
		efivars=$(cd "$2" 2>/dev/null && pwd) ||
			{ echo "$0: --efivars $2: no such directory" >&2; exit 2; }
		shift 2
		;;
	--expect-skip) expect=skip; shift ;;
	*) break ;;
	esac
done
[ $# -eq 4 ] || [ $# -eq 5 ] ||
	{ echo "usage: $0 [--install MODULES_DIR] [--all-kernels] [--efivars DIR] [--expect-skip] DKMS HEADERS_DIR RELEASE OUT_DIR [SOURCE_DIR]" >&2; exit 2; }
dkms=$1 headers=$2 rel=$3 out=$4 given_src=${5:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
conf=${given_src:-$repo/drivers/kernel}/dkms.conf
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
	"$repo/drivers/kernel/dkms-source.sh" --link "$src" || exit 1
fi
trees=(--dkmstree "$out/tree" --sourcetree "$out/src")
[ $action = build ] || trees+=(--installtree "$install_tree" --no-depmod)
echo "SDSI_DKMS_ALL_KERNELS=$all_kernels" >"$out/default" || exit 1
# sign_file names a signer that does not exist, so DKMS neither looks for
# the host's nor makes a key under /var/lib/dkms.
env sign_file=/nonexistent/sign-file SDSI_DKMS_DEFAULTS="$out/default" \
	SDSI_DKMS_EFIVARS="${efivars:-$out/no-efivars}" \
	mok_certificate="${mok_certificate:-$out/mok.pub}" \
	"$dkms" $action -m intel_sdsi -v "$version" -k "$rel" "${trees[@]}" \
	--kernelsourcedir "$(cd "$headers" && pwd)" >"$out/dkms.log" 2>&1
status=$?
if [ $expect = skip ]; then
	ko=$(find "$out/tree/intel_sdsi/$version/$rel" ${install_tree:+"$install_tree/$rel/updates/dkms"} \
		-name 'intel_sdsi.ko*' 2>/dev/null | head -1)
	reason=$(grep '^intel-sdsi-dkms: ' "$out/dkms.log" | head -1)
	if [ $status -ne 77 ] || [ -n "$ko" ] || [ -z "$reason" ]; then
		cat "$out/dkms.log" >&2
		echo "$0: dkms $action for $rel was to skip intel_sdsi with its reason (exit 77), but exited $status${ko:+ and made $ko}" >&2
		exit 1
	fi
	echo "dkms: skipped $rel: ${reason#intel-sdsi-dkms: }"
	exit 0
fi
ko=$(find "$out/tree/intel_sdsi/$version/$rel" -name 'intel_sdsi.ko*' 2>/dev/null | head -1)
if [ $status -ne 0 ] || [ -z "$ko" ]; then
	cat "$out/dkms.log" >&2
	find "$out/tree" -name make.log -exec cat {} + >&2
	echo "$0: dkms build for $rel failed (exit $status)" >&2
	exit 1
fi
if [ $action = install ]; then
	installed=$(find "$install_tree/$rel/updates/dkms" -name 'intel_sdsi.ko*' 2>/dev/null | head -1)
	if [ -z "$installed" ]; then
		cat "$out/dkms.log" >&2
		echo "$0: dkms install for $rel put no intel_sdsi under $install_tree/$rel/updates/dkms" >&2
		exit 1
	fi
	echo "dkms: installed $installed"
	exit 0
fi
echo "dkms: $ko"
