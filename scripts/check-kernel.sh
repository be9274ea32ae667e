#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-kernel: the real Linux intel_sdsi drivers (Debian 6.12, 6.1
# and unstable's) against the model, in QEMU.  Builds what the guest runs, then hands
# over to rig/rig.sh.  Skips only where QEMU cannot run at all, and
# says so loudly; the last line sums the JUnit files of every guest.
set -uo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [CONFIG]... (rig/rig.sh lists them)" >&2
	exit 2
fi
build=$1
shift
cd "$(dirname "$0")/.." || exit 2
# A kernel or driver of the user's (KERNEL_IMAGE, KERNEL_MODULES,
# KERNEL_BUILD, DRIVER_MODULE): checked before anything is built or
# booted, then run as the rig's "user" configuration.
if [ -n "${KERNEL_IMAGE-}${KERNEL_MODULES-}${KERNEL_BUILD-}${DRIVER_MODULE-}${KERNEL_PART-}" ]; then
	export KERNEL_IMAGE KERNEL_MODULES KERNEL_BUILD DRIVER_MODULE KERNEL_PART
	rig/user-kernel.sh >/dev/null || exit 2
	[ $# -eq 0 ] || { echo "check-kernel: KERNELS=$*: not with a kernel or driver of your own" >&2; exit 2; }
	set -- user
fi

# Missing packages (QEMU, kernel images, headers) need root to install;
# without it ensure-deps and the rig fail naming what is missing.
scripts/ensure-deps.sh --kernel || exit 1
# The one reason to skip: QEMU cannot emulate an x86-64 guest here at all.
if ! qemu-system-x86_64 -accel help 2>/dev/null | grep -qx tcg ||
	! echo quit | timeout 60 qemu-system-x86_64 -accel tcg -machine pc \
		-display none -nodefaults -S -monitor stdio >/dev/null 2>&1; then
	echo "################################################################" >&2
	echo "check-kernel: SKIPPED: QEMU cannot run an x86-64 guest with TCG" >&2
	echo "on this machine; the real Linux drivers were NOT tested." >&2
	echo "################################################################" >&2
	exit 77
fi
ninja -C "$build" shmem/sdsi-shmem window/libsdsi-doorbell.so tools/intel_sdsi \
	tools/sdsi-authority/sdsi-authority rig/sdsi-stallmon || exit 1

# What the rig must leave as it found it: the installed packages, /boot
# and /etc/apt.  Taken after ensure-deps (which may install the rig's own
# tools) and compared after the rig.
host_state() {
	echo "# installed packages (dpkg-query)"
	dpkg-query -W -f='${db:Status-Abbrev} ${Package}:${Architecture} ${Version}\n' | sort
	echo "# /boot: name, type, size, mtime, link target"
	find /boot -printf '%p %y %s %T@ %l\n' | sort
	echo "# /etc/apt: name, type, mode, owner, link target; then content hashes"
	find /etc/apt -printf '%p %y %m %u:%g %l\n' | sort
	find /etc/apt -type f -print0 | sort -z | xargs -0 -r sha256sum 2>&1
}

start=$(date +%s)
# Only this run's results are summed.
rm -rf "$build"/kernel-rig/results-*
mkdir -p "$build/kernel-rig"
host_before="$build/kernel-rig/host-before.txt"
host_after="$build/kernel-rig/host-after.txt"
host_state >"$host_before"
rig/rig.sh "$build" "$@"
status=$?
host_state >"$host_after"
if ! diff -u "$host_before" "$host_after" >"$build/kernel-rig/host-changes.diff"; then
	echo "################################################################" >&2
	echo "check-kernel: FAIL: the host changed while the kernel rig ran" >&2
	echo "(packages, /boot or /etc/apt; - before, + after):" >&2
	grep -E '^[-+][^-+]' "$build/kernel-rig/host-changes.diff" >&2
	echo "################################################################" >&2
	status=1
fi

# One line per configuration: its kernel, part and driver, and its counts.
for dir in "$build"/kernel-rig/results-*; do
	[ -f "$dir/config.env" ] || continue
	line=$(. "$dir/config.env" && echo "linux ${SDSI_KERNEL_LABEL:-$SDSI_KERNEL}, part ${SDSI_GUID}, driver=$SDSI_DRIVER, abi=$SDSI_ABI")
	read -r p f s <<<"$(/usr/bin/python3 scripts/junit-sum.py "$dir/*.xml" || echo "0 0 0")"
	v=$(sed -n 's/^sdsi-shmem: protocol-violations=\([0-9]*\)$/\1/p' "$dir/shmem.log" 2>/dev/null)
	# attest: the attestation transport (ok, none, fail); script: the
	# verdict of SDSI_RIG_GUEST_SCRIPT, where one was given.
	a=$(cat "$dir/attest" 2>/dev/null) || a='?'
	sv=''
	[ -z "${SDSI_RIG_GUEST_SCRIPT-}" ] || sv=", script=$(cat "$dir/script" 2>/dev/null || echo '?')"
	echo "kernel ${dir##*/results-}: $line: $p passed, $f failed, $s skipped, violations=${v:-?}, attest=$a$sv"
	# A barid configuration proves BARID only if its BARID checks ran:
	# deselected there (rig/tests/conftest.py), it would pass on anything.
	if (. "$dir/config.env" && [ -n "${SDSI_BARID-}" ]) &&
		! grep -qs 'classname="rig\.tests\.test_discovery_access"' "$dir/tool.xml"; then
		echo "check-kernel: FAIL: ${dir##*/results-} has BARID entries, but rig/tests/test_discovery_access.py did not run there" >&2
		status=1
	fi
done
# The run of each configuration (results-*) is its verdict.
summary=$(/usr/bin/python3 scripts/junit-sum.py "$build/kernel-rig/results-*/*.xml") || summary="0 0 0"
read -r passed failed skipped <<<"$summary"
[ $((passed + failed)) -gt 0 ] || { echo "check-kernel: no test ran" >&2; status=1; }
# A test that does not apply to a configuration is deselected
# (rig/tests/conftest.py); a skip is one that should have run and did not.
[ "$skipped" -eq 0 ] ||
	{ echo "check-kernel: FAIL: $skipped tests skipped (results-*/*.xml say which)" >&2; status=1; }
echo "check-kernel took $(( $(date +%s) - start )) s"
echo "kernel: $passed passed, $failed failed, $skipped skipped"
exit $status
