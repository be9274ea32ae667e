#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-kernel-build: our intel_sdsi (drivers/kernel) built with W=1
# and sparse, any warning fatal (drivers/kernel/build.sh), against every
# kernel Debian offers: 6.1 (bookworm), 6.12 (bookworm-backports), 7.2
# (unstable) and 7.3 (experimental); one line "kernel-build: RELEASE ok"
# each.  Then the compile probes on both of their answers
# (drivers/kernel/test-kcompat.sh), and checkpatch --strict on the module's
# own files (drivers/kernel/checkpatch.sh); and intel-sdsi-dkms's policy
# under Debian 12's dkms (tests/dkms).
# The kernels come as the kernel rig fetches them, into the same
# BUILD_DIR/kernel-rig (rig/debian-kernels.sh, rig/sid-kernel.sh),
# so neither fetches twice; nothing is installed outside it but the
# Debian packages of ensure-deps.sh.
#   scripts/check-kernel-build.sh BUILD_DIR
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
mkdir -p "$1" || exit 1
build=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
log() { echo "kernel-build: $*" >&2; }

"$repo/scripts/ensure-deps.sh" --kernel || { log "missing packages"; exit 1; }
work="$build/kernel-rig"
mkdir -p "$work" || exit 1
# shellcheck source=scripts/private-apt.sh
. "$repo/scripts/private-apt.sh"
apt_dir="$work/apt"
# shellcheck source=rig/debian-kernels.sh
. "$repo/rig/debian-kernels.sh"

failed=0
fail() { log "$*"; failed=1; }

# The probes' answers each kernel must give (drivers/kernel/probes/): 6.1
# has no <linux/intel_vsec.h>, 6.12 has it with the old layout and mutable
# attributes, 7.x changed all of them.
declare -A expected=(
	[6.1]=''
	[6.12]='SDSI_HAVE_INTEL_VSEC_H'
	[7]='SDSI_HAVE_CONST_BIN_ATTRS SDSI_HAVE_CONST_BIN_IS_VISIBLE SDSI_HAVE_CONST_BIN_READ SDSI_HAVE_CONST_BIN_WRITE SDSI_HAVE_INTEL_VSEC_H SDSI_HAVE_VSEC_DEV SDSI_HAVE_VSEC_RESOURCE_ARRAY'
)

# The module built into OUT ($2) by build.sh run as the rest ($3...) says,
# and its probes' "yes" answers checked against EXPECT ($4).
built() {
	local rel=$1 out=$2 expect=$3 got
	shift 3
	"$@" || { fail "$rel: not clean (see $out/build.log)"; return; }
	got=$(awk '$3 == "yes" {print $2}' "$out/kcompat.log" | sort | tr '\n' ' ')
	[ "${got% }" = "$expect" ] ||
		{ fail "$rel: the probes said yes to '${got% }', expected '$expect'"; return; }
	echo "kernel-build: $rel ok"
}

setup_private_apt || { log "cannot set up the private apt in $apt_dir"; exit 1; }
for gen in 6.1 6.12; do
	rel=$(kernel_release "$gen") || { fail "no Debian $gen kernel found by apt"; continue; }
	fetch_kernel "$rel" || { fail "$rel: cannot fetch its headers"; continue; }
	headers="$work/img-$rel/usr/src/linux-headers-$rel"
	built "$rel" "$work/build-$rel" "${expected[$gen]}" \
		"$repo/drivers/kernel/build.sh" "$headers" "$work/build-$rel"
	[ "$gen" = 6.12 ] && headers_6_12=$headers
done
# Unstable's and experimental's headers want their own compiler and C
# library: built in the rig's root of unstable (rig/sid-kernel.sh).
for suite in unstable experimental; do
	if [ $suite = unstable ]; then
		rel=$("$repo/rig/sid-kernel.sh" fetch "$work")
	else
		rel=$("$repo/rig/sid-kernel.sh" headers "$work" $suite)
	fi || { fail "$suite: cannot fetch its kernel's headers"; continue; }
	built "$rel" "$work/build-$rel" "${expected[7]}" \
		"$repo/rig/sid-kernel.sh" run "$work" "$repo" "$work" -- \
		"$repo/drivers/kernel/build.sh" "/usr/src/linux-headers-$rel" "$work/build-$rel"
done

if [ -n "${headers_6_12-}" ]; then
	"$repo/drivers/kernel/test-kcompat.sh" "$headers_6_12" "$work/kcompat-test" ||
		fail "the compile probes do not give both answers (drivers/kernel/test-kcompat.sh)"
fi
"$repo/drivers/kernel/checkpatch.sh" "$work" || fail "checkpatch --strict is not clean"

# intel-sdsi-dkms's policy through Debian 12's real dkms on the 6.1 and
# 6.12 headers above (tests/dkms): which kernel gets ours, the opt-in,
# Secure Boot and autoinstall.
if fetch_dkms; then
	SDSI_KERNEL_RIG=$work nice /usr/bin/python3 -m pytest -q -p no:cacheprovider \
		--basetemp "$work/dkms-policy-tests" "$repo/tests/dkms" ||
		fail "intel-sdsi-dkms's policy under dkms (tests/dkms) failed"
else
	fail "cannot fetch dkms through the private apt"
fi

echo "check-kernel-build took $((SECONDS - start)) s"
[ $failed -eq 0 ] || { log "FAILED"; exit 1; }
