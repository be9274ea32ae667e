#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run CMD against the window target (tests/sdsikit/targets/window.py):
# sdsi-shmem --doorbell plays SOCKETS sockets in a fresh window file,
# `sdsi-emu mount --window` serves them through our FUSE driver at a
# fresh directory, and CMD runs with SDSI_TARGET=window, SDSI_WINDOW,
# SDSI_SOCKETS and SDSI_SYSFS_ROOT pointing there.  Both servers are
# stopped afterwards; a driver store that sdsi-shmem found without its ring
# (unannounced) fails the run, as in the kernel rig, since the answers
# would then have depended on the host's timing.
#   with-window.sh BUILD_DIR SOCKETS ABI "SDSI_SHMEM_OPTIONS" -- CMD [ARGS...]
# Exit status: CMD's, or 1 if the servers failed.
set -uo pipefail

if [ $# -lt 6 ] || [ "$5" != -- ]; then
	echo "usage: $0 BUILD_DIR SOCKETS ABI \"SDSI_SHMEM_OPTIONS\" -- CMD [ARGS...]" >&2
	exit 2
fi
build=$1 sockets=$2 abi=$3 shmem_opts=$4
shift 5

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sdsi-window.XXXXXX") || exit 1
window="$scratch/window"
tree="$scratch/tree"
mkdir "$tree"
shmem_pid='' emu_pid=''

stop() {	# PID: SIGTERM, then wait for it
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

cleanup() {
	stop "$emu_pid"
	stop "$shmem_pid"
	mountpoint -q "$tree" && umount -l "$tree"
	rm -rf "$scratch"
}
trap cleanup EXIT

# shellcheck disable=SC2086 # shmem_opts is a word list
"$build/shmem/sdsi-shmem" --doorbell --exit-with-parent --window "$window" \
	--sockets "$sockets" $shmem_opts 2>"$scratch/shmem.log" &
shmem_pid=$!
# sdsi-emu waits for sdsi-shmem's control page itself.
"$build/emu/sdsi-emu" mount --window "$window" --sockets "$sockets" --abi "$abi" \
	"$tree" >"$scratch/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 200); do
	grep -q ' mounted at ' "$scratch/emu.log" && break
	kill -0 "$emu_pid" 2>/dev/null || break
	sleep 0.05
done
if ! grep -q ' mounted at ' "$scratch/emu.log"; then
	echo "with-window: sdsi-emu did not mount the window:" >&2
	cat "$scratch/emu.log" "$scratch/shmem.log" >&2
	exit 1
fi

SDSI_TARGET=window SDSI_WINDOW="$window" SDSI_SOCKETS="$sockets" \
	SDSI_SYSFS_ROOT="$tree/devices" "$@"
status=$?

stop "$emu_pid"
emu_pid=''
stop "$shmem_pid"
shmem_pid=''
if ! grep -q '^sdsi-shmem: unannounced-stores=0$' "$scratch/shmem.log"; then
	echo "with-window: sdsi-shmem saw driver stores nobody rang for:" >&2
	cat "$scratch/shmem.log" >&2
	[ $status -ne 0 ] || status=1
fi
exit $status
