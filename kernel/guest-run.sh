#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inside the guest, chrooted into the host's userland: start sdsi-shmem on
# the test module's window, load the kernel's own intel_sdsi.ko, run the
# conformance suite and the tool's end-to-end tests against the real
# driver.  Writes JUnit files and "status" into /tmp/results.
set -u
results=/tmp/results
. "$results/config.env"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PYTHONDONTWRITEBYTECODE=1
cd "$SDSI_REPO" || exit 1
echo "guest: $(uname -r), abi=$SDSI_ABI guid=$SDSI_GUID sockets=$SDSI_SOCKETS"

fail() {
	echo "guest: $*"
	echo "fail: $*" >"$results/status"
	exit 1
}

insmod /tmp/modules/sdsi_window.ko phys="$SDSI_PHYS" sockets="$SDSI_SOCKETS" ||
	fail "insmod sdsi_window"
ctl=/tmp/sdsi-shmem.sock
"$SDSI_BUILD/shmem/sdsi-shmem" --window /dev/sdsi_window --ctl "$ctl" \
	--sockets "$SDSI_SOCKETS" --guid "$SDSI_GUID" &
shmem=$!
for _ in $(seq 100); do
	[ -S "$ctl" ] && break
	kill -0 $shmem 2>/dev/null || fail "sdsi-shmem exited"
	sleep 0.1
done
[ -S "$ctl" ] || fail "sdsi-shmem did not come up"
insmod /tmp/modules/intel_sdsi.ko || fail "insmod intel_sdsi"
ls -l /sys/bus/auxiliary/devices/
ls -l /sys/bus/auxiliary/devices/intel_vsec.sdsi.0/

export SDSI_TARGET=kernel SDSI_SHMEM_CTL=$ctl
export SDSI_ABI SDSI_SOCKETS
export SDSI_TOOL="$SDSI_BUILD/tools/intel_sdsi"
status=0
/usr/bin/python3 -m pytest -q -p no:cacheprovider -o cache_dir=/tmp \
	tests/integration/conformance --junitxml="$results/conformance.xml" \
	|| status=1
/usr/bin/python3 -m pytest -q -p no:cacheprovider \
	kernel/tests --junitxml="$results/tool.xml" || status=1

kill $shmem
wait $shmem
dmesg | grep -i -E 'sdsi|intel_vsec' >"$results/dmesg.txt"
echo "exit $status" >"$results/status"
