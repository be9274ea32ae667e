#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inside the guest, chrooted into the host's userland (under a writable
# overlay): install the configuration's modules under /lib/modules/REL
# and run depmod, as a real machine has them; start the uevent listener
# that loads drivers by modalias (kernel/guest-uevents.py, udev's part);
# modprobe the test module, whose intel_vsec.sdsi.N devices then autoload
# intel_sdsi (the kernel's own or the one installed as an update); and run
# the conformance suite and intel_sdsi's end-to-end tests against that
# driver.  Writes JUnit files and "status" into /tmp/results.
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

rel=$(uname -r)
[ -d "$SDSI_GUESTMODS/lib/modules/$rel" ] ||
	fail "no modules staged for $rel in $SDSI_GUESTMODS"
mkdir -p /lib/modules && cp -a "$SDSI_GUESTMODS/lib/modules/$rel" /lib/modules/ ||
	fail "cannot install the modules under /lib/modules/$rel"
depmod -a "$rel" || fail "depmod -a $rel"
# The test module's options, where a machine keeps them, so that a plain
# "modprobe sdsi_window" (the reload test) brings the same devices back.
mkdir -p /etc/modprobe.d
echo "options sdsi_window phys=$SDSI_PHYS sockets=$SDSI_SOCKETS" \
	>/etc/modprobe.d/sdsi-rig.conf
rm -f /run/sdsi-uevents.ready
/usr/bin/python3 "$SDSI_REPO/kernel/guest-uevents.py" "$results/uevents.log" \
	/run/sdsi-uevents.ready &
uevents=$!
for _ in $(seq 300); do
	[ -f /run/sdsi-uevents.ready ] && break
	kill -0 "$uevents" 2>/dev/null || fail "kernel/guest-uevents.py died"
	sleep 0.1
done
[ -f /run/sdsi-uevents.ready ] || fail "kernel/guest-uevents.py did not start"
modprobe sdsi_window || fail "modprobe sdsi_window"
export SDSI_TARGET=kernel SDSI_WINDOW=/dev/sdsi_window
export SDSI_ABI SDSI_SOCKETS SDSI_BUILD SDSI_AUTHORITY
export SDSI_TOOL="$SDSI_BUILD/tools/intel_sdsi"
# The control page's magic says every socket is laid out.
PYTHONPATH=tests/integration/conformance /usr/bin/python3 -c \
	'from targets import kernel; kernel.Target().page.wait_ready(30)' ||
	fail "sdsi-shmem's control page did not appear in /dev/sdsi_window"
# The devices' uevents load intel_sdsi (modinfo -n: the kernel's own or
# the update), which binds every socket.
for _ in $(seq 600); do
	bound=$(ls -d /sys/bus/auxiliary/drivers/intel_sdsi/intel_vsec.sdsi.* 2>/dev/null | wc -l)
	[ "$bound" -eq "$SDSI_SOCKETS" ] && break
	sleep 0.1
done
cat "$results/uevents.log"
[ "$bound" -eq "$SDSI_SOCKETS" ] ||
	fail "intel_sdsi did not autoload and bind $SDSI_SOCKETS devices ($bound bound)"
echo "guest: intel_sdsi autoloaded from $(modinfo -n intel_sdsi)," \
	"version '$(cat /sys/module/intel_sdsi/version 2>/dev/null)'"
export SDSI_DRIVER_DIR SDSI_DRIVER_VERSION
ls -l /sys/bus/auxiliary/devices/
ls -l /sys/bus/auxiliary/devices/intel_vsec.sdsi.0/

status=0
# The machine's own tests first, on their own: reloading the test module
# needs /dev/sdsi_window closed, which the suites' sessions keep open.
/usr/bin/python3 -m pytest -q -p no:cacheprovider \
	kernel/tests/test_machine.py --junitxml="$results/machine.xml" || status=1
/usr/bin/python3 -m pytest -q -p no:cacheprovider \
	tests/integration/conformance --junitxml="$results/conformance.xml" \
	|| status=1
/usr/bin/python3 -m pytest -q -p no:cacheprovider --basetemp=/tmp/pytest \
	kernel/tests --ignore=kernel/tests/test_machine.py \
	--junitxml="$results/tool.xml" || status=1

kill "$uevents" 2>/dev/null
dmesg | grep -i -E 'sdsi|intel_vsec' >"$results/dmesg.txt"
# A warning, oops or BUG in the kernel fails the run even if every test
# passed: the driver must survive what the tests did to it.
if dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace' >"$results/kernel-trouble.txt"; then
	echo "guest: the kernel logged trouble:"
	cat "$results/kernel-trouble.txt"
	status=1
fi
echo "exit $status" >"$results/status"
