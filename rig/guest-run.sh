#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inside the guest, chrooted into the host's userland (under a writable
# overlay): run each configuration of this boot in turn (SDSI_CONFIGS in
# /tmp/results/config.env; one boot serves every configuration of its
# kernel, rig/rig-boot.sh).  For each: wait until the host has started
# its sdsi-shmem ("go"), install its modules under /lib/modules/REL and
# run depmod, as a real machine has them; modprobe the test module, whose
# intel_vsec.sdsi.N devices then autoload intel_sdsi (the kernel's own or
# the one installed as an update) through the uevent listener
# (rig/guest-uevents.py, udev's part); run the conformance suite and
# intel_sdsi's end-to-end tests against that driver; then take both
# modules out again, so that the next configuration starts as a freshly
# booted machine would, and write its "status".  JUnit files, logs and
# the status of configuration K go to /tmp/results/K.
set -u
results=/tmp/results
. "$results/config.env"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# Bytecode, pytest's rewritten test modules included, in the guest's own
# /tmp: compiled once per boot, not once per run of pytest.  Under TCG a
# pytest that compiles the conformance suite takes about 9 s to collect
# it, one that finds it compiled 4.5 s; the first run of a boot pays
# about 6 s more, for the standard library, whose compiled files Python
# then looks for only here.  The host's tree is never written.
export PYTHONPYCACHEPREFIX=/tmp/pycache
cd "$SDSI_REPO" || exit 1

# How long the host may take to start a configuration's sdsi-shmem.
go_limit_s=120

boot_fail() {
	echo "guest: $*"
	for k in $SDSI_CONFIGS; do
		[ -f "$results/$k/status" ] || echo "fail: $*" >"$results/$k/status"
	done
	exit 1
}

rm -f /run/sdsi-uevents.ready
/usr/bin/python3 "$SDSI_REPO/rig/guest-uevents.py" "$results/uevents.log" \
	/run/sdsi-uevents.ready &
uevents=$!
for _ in $(seq 300); do
	[ -f /run/sdsi-uevents.ready ] && break
	kill -0 "$uevents" 2>/dev/null || boot_fail "rig/guest-uevents.py died"
	sleep 0.1
done
[ -f /run/sdsi-uevents.ready ] || boot_fail "rig/guest-uevents.py did not start"

# One configuration, in a subshell: "fail" ends the configuration, not
# the boot.  Prints its verdict's reason on failure.
run_config() {
	local k=$1 dir="$results/$1" rel bound
	fail() {
		echo "guest: $*"
		echo "fail: $*" >"$dir/verdict"
		exit 1
	}
	. "$dir/config.env"
	echo "guest: $k: $(uname -r), driver=$SDSI_DRIVER abi=$SDSI_ABI guid=$SDSI_GUID sockets=$SDSI_SOCKETS barid=${SDSI_BARID:-none}"
	rel=$(uname -r)
	[ -d "$SDSI_GUESTMODS/lib/modules/$rel" ] ||
		fail "no modules staged for $rel in $SDSI_GUESTMODS"
	# The configuration's module tree replaces the previous one whole.
	rm -rf "/lib/modules/$rel"
	mkdir -p /lib/modules && cp -a "$SDSI_GUESTMODS/lib/modules/$rel" /lib/modules/ ||
		fail "cannot install the modules under /lib/modules/$rel"
	depmod -a "$rel" || fail "depmod -a $rel"
	# The test module's options, where a machine keeps them, so that a
	# plain "modprobe sdsi_window" (the reload test) brings the same
	# devices back; per configuration, since barid=K (BARID entries in a
	# lent BAR, rig/sdsi_window.c) is one configuration's.
	mkdir -p /etc/modprobe.d
	echo "options sdsi_window phys=$SDSI_PHYS sockets=$SDSI_SOCKETS" \
		"barid=${SDSI_BARID:--1}" >/etc/modprobe.d/sdsi-rig.conf
	modprobe sdsi_window || fail "modprobe sdsi_window"
	export SDSI_TARGET=kernel SDSI_WINDOW=/dev/sdsi_window
	export SDSI_ABI SDSI_SOCKETS SDSI_BUILD SDSI_AUTHORITY SDSI_DRIVER SDSI_PHYS SDSI_BARID
	export SDSI_TOOL="$SDSI_BUILD/tools/intel_sdsi"
	# Every socket is laid out: the host said go only once sdsi-shmem's
	# control page showed its magic (rig/rig-boot.sh); a socket that
	# was not would fail the bind below.
	# The devices' uevents load intel_sdsi (modinfo -n: the kernel's own
	# or the update), which binds every socket.
	for _ in $(seq 600); do
		bound=$(ls -d /sys/bus/auxiliary/drivers/intel_sdsi/intel_vsec.sdsi.* 2>/dev/null | wc -l)
		[ "$bound" -eq "$SDSI_SOCKETS" ] && break
		sleep 0.1
	done
	[ "$bound" -eq "$SDSI_SOCKETS" ] ||
		fail "intel_sdsi did not autoload and bind $SDSI_SOCKETS devices ($bound bound)"
	echo "guest: intel_sdsi autoloaded from $(modinfo -n intel_sdsi)," \
		"version '$(cat /sys/module/intel_sdsi/version 2>/dev/null)'"
	export SDSI_DRIVER_DIR SDSI_DRIVER_VERSION
	ls -l /sys/bus/auxiliary/devices/
	ls -l /sys/bus/auxiliary/devices/intel_vsec.sdsi.0/

	local status=0
	# The machine's own tests first, on their own: reloading the test
	# module needs /dev/sdsi_window closed, which the suites' sessions
	# keep open.
	/usr/bin/python3 -m pytest -q -p no:cacheprovider \
		rig/tests/test_machine.py --junitxml="$dir/machine.xml" || status=1
	/usr/bin/python3 -m pytest -q -p no:cacheprovider \
		tests/integration/conformance --junitxml="$dir/conformance.xml" \
		|| status=1
	/usr/bin/python3 -m pytest -q -p no:cacheprovider --basetemp=/tmp/pytest \
		rig/tests --ignore=rig/tests/test_machine.py \
		--ignore=rig/tests/test_attestation.py \
		--junitxml="$dir/tool.xml" || status=1
	# The attestation transport on its own, since its outcome is the
	# configuration's attest= word: ok once the flow verified (the test
	# leaves attest-ok), none where the driver has no transport and said
	# so, fail if any of its tests failed.
	local attest=none
	rm -f "$dir/attest-ok"
	export SDSI_ATTEST_EXPECT SDSI_ATTEST_OUT="$dir/attest-ok"
	if /usr/bin/python3 -m pytest -q -p no:cacheprovider \
		rig/tests/test_attestation.py --junitxml="$dir/attest.xml"; then
		[ -f "$dir/attest-ok" ] && attest=ok
	else
		attest=fail status=1
	fi
	echo "$attest" >"$dir/attest"
	# The user's script (SDSI_RIG_GUEST_SCRIPT) last, on the machine the
	# suites leave, with the configuration in its environment.
	if [ -n "${SDSI_GUEST_SCRIPT-}" ]; then
		export SDSI_CONFIG=$k SDSI_DRIVER SDSI_GUID SDSI_KERNEL SDSI_REPO
		"$SDSI_REPO/rig/guest-script.sh" "$SDSI_GUEST_SCRIPT" "$dir"
		echo "guest: $k: the guest script says $(cat "$dir/script")"
	fi
	echo "exit $status" >"$dir/verdict"
}

# Take the driver and the test module out, as a machine unloads
# intel_vsec: false if either stays, since the next configuration would
# then run on this one's driver.
unload_modules() {
	modprobe -r sdsi_window 2>&1
	modprobe -r intel_sdsi 2>&1
	! grep -q -E '^(intel_sdsi|sdsi_window) ' /proc/modules
}

broken=''
for k in $SDSI_CONFIGS; do
	dir="$results/$k"
	for _ in $(seq $((go_limit_s * 10))); do
		[ -f "$dir/go" ] && break
		sleep 0.1
	done
	if [ ! -f "$dir/go" ]; then
		boot_fail "the host did not start $k's sdsi-shmem within ${go_limit_s} s"
	fi
	if [ -n "$broken" ]; then
		echo "fail: not run: $broken" >"$dir/status"
		continue
	fi
	(run_config "$k") >"$dir/guest.log" 2>&1
	if ! unload_modules >>"$dir/guest.log"; then
		broken="$k left intel_sdsi or sdsi_window loaded"
		echo "guest: $broken" >>"$dir/guest.log"
		echo "fail: $broken" >"$dir/verdict"
	fi
	# This configuration's kernel messages, and only its: read and cleared.
	dmesg -c >"$dir/dmesg-all.txt"
	grep -i -E 'sdsi|intel_vsec' "$dir/dmesg-all.txt" >"$dir/dmesg.txt"
	# A warning, oops or BUG in the kernel fails the run even if every
	# test passed: the driver must survive what the tests did to it.
	if grep -E 'WARNING:|BUG:|Oops|Call Trace' "$dir/dmesg-all.txt" \
		>"$dir/kernel-trouble.txt"; then
		{
			echo "guest: the kernel logged trouble:"
			cat "$dir/kernel-trouble.txt"
		} >>"$dir/guest.log"
		grep -q '^exit 0$' "$dir/verdict" 2>/dev/null &&
			echo "exit 1" >"$dir/verdict"
	fi
	cat "$dir/guest.log"
	# The status last: it tells the host that the modules are out and
	# its sdsi-shmem may go.
	if [ -f "$dir/verdict" ]; then
		mv "$dir/verdict" "$dir/status"
	else
		echo "fail: the configuration ended without a verdict" >"$dir/status"
	fi
done
kill "$uevents" 2>/dev/null
cat "$results/uevents.log"
