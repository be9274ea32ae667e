#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build intel_sdsi.ko (drivers/kernel + drivers/core/sdsi_{mbox,disc}.c) against a kernel's
# headers, with W=1 and sparse on every file (C=2), and fail on any
# warning: the module must stay clean on every kernel the rig boots.
#   drivers/kernel/build.sh HEADERS_DIR OUT_DIR
# OUT_DIR is (re)made as a directory of symlinks to the sources, so the
# repository itself stays free of build products.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 HEADERS_DIR OUT_DIR" >&2; exit 2; }
headers=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
command -v sparse >/dev/null || { echo "$0: sparse is not installed" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out" || exit 1
ln -s "$repo/drivers/kernel/Kbuild" "$repo/drivers/kernel/sdsi_aux.c" \
	"$repo/drivers/kernel/dkms.conf" \
	"$repo/drivers/core/sdsi_mbox.c" "$repo/drivers/core/sdsi_mbox.h" \
	"$repo/drivers/core/sdsi_disc.c" "$repo/drivers/core/sdsi_disc.h" \
	"$out/" || exit 1
ln -s "$repo/include" "$out/include" || exit 1
# The kernel's API, by compile probes: sdsi_kcompat.h in OUT_DIR.
"$repo/drivers/kernel/kcompat.sh" "$headers" "$out" >"$out/kcompat.log" 2>&1 ||
	{ cat "$out/kcompat.log" >&2; exit 1; }
log="$out/build.log"
# No module BTF: the headers would run a pahole bookworm lacks (rig.sh).
# KBUILD_CHECKSRC keeps sparse on where the headers lack the script that
# vets it (Debian's 7.2 kbuild has no scripts/checker-valid.sh, and the
# Makefile would then drop C=2 with only a notice, which it still prints);
# sparse was checked above, and a build in which it did not check every
# source fails.
make -C "$headers" M="$(cd "$out" && pwd)" W=1 C=2 KBUILD_CHECKSRC=2 \
	CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$log" 2>&1
status=$?
if [ $status -ne 0 ] || grep -q -E 'warning:|error:' "$log" ||
	! grep -q -E '^ *CHECK .*sdsi_aux\.c$' "$log" ||
	! grep -q -E '^ *CHECK .*sdsi_mbox\.c$' "$log" ||
	! grep -q -E '^ *CHECK .*sdsi_disc\.c$' "$log"; then
	cat "$log" >&2
	echo "$0: intel_sdsi against $headers: not clean (see $log)" >&2
	exit 1
fi
[ -f "$out/intel_sdsi.ko" ] || { echo "$0: no $out/intel_sdsi.ko" >&2; exit 1; }
