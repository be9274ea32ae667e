#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Record what the four programs (intel_sdsi, sdsi-authority, sdsi-emu,
# sdsi-shmem) print and return for a fixed set of commands, so that a
# refactor can show it changed no behaviour:
#   git switch main && make build && scripts/behaviour-snapshot.sh build /tmp/before
#   git switch my-change && make build && scripts/behaviour-snapshot.sh build /tmp/after
#   diff -u /tmp/before /tmp/after        # must print nothing
# Each step is written as its label, its command line, its stdout, its
# stderr and its exit status.  What differs from run to run for reasons of
# its own is normalised: the temporary directory and the build directory,
# hex strings of 24 digits or more (keys, key images, signatures), base64
# lines, dates and times, process ids; two runs on one build give the same
# bytes.  The emulator steps need root, /dev/fuse and fusermount3, as
# `sdsi-emu run` does; without them they are recorded as skipped.
#   behaviour-snapshot.sh BUILD_DIR OUT_FILE
# Exit status: 0 when OUT_FILE was written, 2 on a usage error.
set -uo pipefail

if [ "${1:-}" = --inside ]; then	# inside `sdsi-emu run`: see emulated()
	inside=1
	shift
else
	inside=0
fi
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR OUT_FILE" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
tool=$build/tools/intel_sdsi
auth=$build/tools/sdsi-authority/sdsi-authority
emu=$build/emu/sdsi-emu
shmem=$build/shmem/sdsi-shmem
export LC_ALL=C TZ=UTC
unset SDSI_SYSFS_ROOT

# step LABEL CMD [ARGS...]: run CMD in $work and record it.
step() {
	local label=$1 rc
	shift
	(cd "$work" && "$@") >"$work/.out" 2>"$work/.err" </dev/null
	rc=$?
	printf '=== %s\n$ %s\n--- stdout\n' "$label" "$*"
	cat "$work/.out"
	printf '\n--- stderr\n'
	cat "$work/.err"
	printf '\n--- exit %d\n' "$rc"
}

# The steps that run inside one emulated platform of two sockets whose
# silicon trusts $work/ca: provisioning changes the state the later
# steps read.
emulated() {
	local cap=$work/cap.bin
	step "list" "$tool" -l
	step "list json" "$tool" -l --json
	step "info" "$tool" -d 1 -i
	step "info json" "$tool" -d 1 -i --json
	step "state before" "$tool" -d 0 -s --json
	step "meter" "$tool" -d 0 -m
	step "meter current json" "$tool" -d 0 -C --json
	step "all info" "$tool" --all -i --json
	step "akc dry run" "$tool" -d 0 -a "$work/ca.akc" --dry-run
	step "akc" "$tool" -d 0 -a "$work/ca.akc" --json
	step "akc again" "$tool" -d 0 -a "$work/ca.akc"
	step "cap dry run json" "$tool" -d 0 -c "$cap" --dry-run --json
	step "cap" "$tool" -d 0 -c "$cap"
	step "cap again json" "$tool" -d 0 -c "$cap" --json
	step "cap wrong socket" "$tool" -d 1 -c "$cap"
	step "akc other socket" "$tool" -d 1 -a "$work/ca.akc" -q
	step "one-time cap other socket" "$tool" -d 1 -c "$work/one.cap" --json
	step "state after" "$tool" -d 0 -s
	step "state after json" "$tool" -d 0 -s --json
	step "state prometheus" "$tool" -d 0 -s --format prometheus
	step "info after json" "$tool" -d 0 -i --json
	step "no such device" "$tool" -d 7 -i --json
	step "missing blob" "$tool" -d 0 -c "$work/missing.cap"
	step "blob too large" "$tool" -d 0 -a "$work/big.bin" --json
	step "ctl status" "$emu" ctl status
	step "state other socket" "$tool" -d 1 -s
	step "ctl fault" "$emu" ctl fault 1 status-timeout
	step "faulted state" "$tool" -d 1 -s --json
	step "ctl bad fault" "$emu" ctl fault 0 no-such-fault
	step "ctl unbind" "$emu" ctl unbind 1
	step "unbound info" "$tool" -d 1 -i
	step "save state" cp /sys/bus/auxiliary/devices/intel_vsec.sdsi.0/state_certificate \
		"$work/state.bin"
}

# sdsi-shmem serving two sockets on a window file, driven through its
# control socket; its closing counters are kept, its timing figures not.
shmem_run() {
	local pid rc
	"$shmem" --window "$work/window" --sockets 2 --ppin 1234,5678 \
		--ctl "$work/ctl.sock" 2>"$work/shmem.err" &
	pid=$!
	for _ in $(seq 200); do
		[ -S "$work/ctl.sock" ] && break
		sleep 0.05
	done
	step "shmem ctl status" "$emu" ctl --ctl "$work/ctl.sock" status
	step "shmem ctl iblock" "$emu" ctl --ctl "$work/ctl.sock" iblock 1 on
	step "shmem ctl bad socket" "$emu" ctl --ctl "$work/ctl.sock" iblock 9 on
	step "shmem ctl bad command" "$emu" ctl --ctl "$work/ctl.sock" no-such-command
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	echo "=== shmem run: exit $rc"
	grep -E '^sdsi-shmem: [a-z-]+=' "$work/shmem.err"
}

if [ "$inside" = 1 ]; then
	work=$2
	emulated
	exit 0
fi

out=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/sdsi-snapshot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
head -c 200000 /dev/zero >"$work/big.bin"
printf 'not a blob' >"$work/junk.bin"

{
	for p in "$tool" "$auth" "$emu" "$shmem"; do
		step "${p##*/} help" "$p" --help
		step "${p##*/} version" "$p" --version
		step "${p##*/} bad option" "$p" --no-such-option
	done
	step "tool no command" "$tool"
	step "tool bad devno" "$tool" -d x -i
	step "tool empty sysfs" env SDSI_SYSFS_ROOT="$work" "$tool" -l
	step "tool decode junk" "$tool" --file "$work/junk.bin" -s
	step "tool decode missing" "$tool" --file "$work/missing.bin" -i --json
	step "authority init" "$auth" init "$work/ca"
	step "authority init again" "$auth" init "$work/ca"
	step "authority akc" "$auth" akc "$work/ca" -o "$work/ca.akc" --key-rev 2
	step "authority cap" "$auth" cap "$work/ca" --ppin abcdef0123 --feature CC02 \
		--feature SGX1 --id 51 --revision 1 --type metered -o "$work/cap.bin"
	step "authority cap help" "$auth" cap --help
	step "authority cap bad type" "$auth" cap "$work/ca" --ppin 1 --feature CC02 \
		--type yearly -o "$work/x.cap"
	step "authority one-time cap" "$auth" cap "$work/ca" --ppin 5566778899 --feature CC02 \
		--id 7 -o "$work/one.cap"
	step "authority inspect one-time" "$auth" inspect "$work/one.cap"
	step "authority cap no ppin" "$auth" cap "$work/ca" --feature CC02 -o "$work/x.cap"
	step "authority inspect akc" "$auth" inspect "$work/ca.akc" --dir "$work/ca"
	step "authority inspect cap json" "$auth" inspect "$work/cap.bin" --json
	step "authority inspect junk" "$auth" inspect "$work/junk.bin"
	step "authority inspect big" "$auth" inspect "$work/big.bin"
	step "authority inspect missing" "$auth" inspect "$work/missing.akc"
	step "tool decode cap" "$tool" --file "$work/cap.bin" -s
	step "tool decode akc as registers" "$tool" --file "$work/ca.akc" -i --json
	step "emu mount state is a file" "$emu" mount --state "$work/junk.bin" "$work"
	step "emu ctl no state" "$emu" ctl --state "$work/nostate" status
	step "emu bad abi" "$emu" mount --abi middle "$work"
	step "emu run no sockets" "$emu" run --sockets 0 -- true
	step "emu ctl nobody" "$emu" ctl --ctl "$work/nobody.sock" status
	step "emu mount missing key" "$emu" mount --root-key "$work/none.pub" "$work"
	step "shmem no window" "$shmem"
	step "shmem bad sockets" "$shmem" --window "$work/window" --sockets 17
	shmem_run
	if [ "$(id -u)" = 0 ] && [ -e /dev/fuse ] && command -v fusermount3 >/dev/null; then
		step "emu run list" "$emu" run --sockets 2 -- "$tool" -l
		step "emu run exit status" "$emu" run -- sh -c 'exit 3'
		"$emu" run --sockets 2 --authority "$work/ca" --ppin abcdef0123,5566778899 \
			-- "$0" --inside "$build" "$work" 2>&1
		echo "=== emulated platform: exit $?"
		step "tool decode state" "$tool" --file "$work/state.bin" -s
		step "tool decode state json" "$tool" --file "$work/state.bin" -s --json
	else
		echo "=== emulated platform: skipped (needs root, /dev/fuse, fusermount3)"
	fi
} >"$work/.snapshot" 2>&1

# Temporary and build paths first, then what keys and clocks make differ.
sed -E -e "s#$work#WORK#g" -e "s#$build#BUILD#g" \
	-e 's/[0-9a-fA-F]{24,}/<hex>/g' \
	-e 's#^[A-Za-z0-9+/]{40,}={0,2}$#<base64>#' \
	-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z?/<time>/g' \
	-e 's/(pid|PID) [0-9]+/\1 <n>/g' \
	"$work/.snapshot" >"$out"
