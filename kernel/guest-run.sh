#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inside the guest, chrooted into the host's userland: load the test
# module, wait for sdsi-shmem (on the host) to announce the window, load the
# kernel's own intel_sdsi.ko, and run the conformance suite and intel_sdsi's
# end-to-end tests against the real driver.  Writes JUnit files and
# "status" into /tmp/results.
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
export SDSI_TARGET=kernel SDSI_WINDOW=/dev/sdsi_window
export SDSI_ABI SDSI_SOCKETS SDSI_BUILD SDSI_AUTHORITY
export SDSI_TOOL="$SDSI_BUILD/tools/intel_sdsi"
# The control page's magic says every socket is laid out.
PYTHONPATH=tests/integration/conformance /usr/bin/python3 -c \
	'from targets import kernel; kernel.Target().page.wait_ready(30)' ||
	fail "sdsi-shmem's control page did not appear in /dev/sdsi_window"
insmod /tmp/modules/intel_sdsi.ko || fail "insmod intel_sdsi"
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
