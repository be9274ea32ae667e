#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inside the guest, chrooted into the host's userland: load the test
# module, wait for sdsi-shmem (on the host) to announce the window, load the
# configuration's intel_sdsi.ko (the kernel's own or ours), and run the
# conformance suite and intel_sdsi's end-to-end tests against that driver.  Writes JUnit files and
# "status" into /tmp/results.
set -u
results=/tmp/results
. "$results/config.env"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PYTHONDONTWRITEBYTECODE=1
cd "$SDSI_REPO" || exit 1
echo "guest: $(uname -r), driver=$SDSI_DRIVER abi=$SDSI_ABI guid=$SDSI_GUID sockets=$SDSI_SOCKETS"

fail() {
	echo "guest: $*"
	echo "fail: $*" >"$results/status"
	exit 1
}

insmod /tmp/modules/sdsi_window.ko phys="$SDSI_PHYS" sockets="$SDSI_SOCKETS" ||
	fail "insmod sdsi_window"
export SDSI_TARGET=kernel SDSI_WINDOW=/dev/sdsi_window
export SDSI_ABI SDSI_SOCKETS SDSI_BUILD SDSI_AUTHORITY
export SDSI_TOOL="$SDSI_BUILD/tools/intel_sdsi"
# The control page's magic says every socket is laid out.
PYTHONPATH=tests/integration/conformance /usr/bin/python3 -c \
	'from targets import kernel; kernel.Target().page.wait_ready(30)' ||
	fail "sdsi-shmem's control page did not appear in /dev/sdsi_window"
# The configuration's driver: the kernel's own or ours (kernel/driver).
case "$SDSI_DRIVER" in
upstream) driver_ko=/tmp/modules/intel_sdsi.ko ;;
sdsi) driver_ko=/tmp/modules/sdsi/intel_sdsi.ko ;;
*) fail "SDSI_DRIVER=$SDSI_DRIVER: expected upstream or sdsi" ;;
esac
insmod "$driver_ko" || fail "insmod $driver_ko"
ls -l /sys/bus/auxiliary/devices/
ls -l /sys/bus/auxiliary/devices/intel_vsec.sdsi.0/

status=0
/usr/bin/python3 -m pytest -q -p no:cacheprovider \
	tests/integration/conformance --junitxml="$results/conformance.xml" \
	|| status=1
/usr/bin/python3 -m pytest -q -p no:cacheprovider --basetemp=/tmp/pytest \
	kernel/tests --junitxml="$results/tool.xml" || status=1

dmesg | grep -i -E 'sdsi|intel_vsec' >"$results/dmesg.txt"
# A warning, oops or BUG in the kernel fails the run even if every test
# passed: the driver must survive what the tests did to it.
if dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace' >"$results/kernel-trouble.txt"; then
	echo "guest: the kernel logged trouble:"
	cat "$results/kernel-trouble.txt"
	status=1
fi
echo "exit $status" >"$results/status"
