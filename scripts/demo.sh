#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: a two-socket emulated On Demand platform, shown the way an
# operator meets it.  Everything runs inside `sdsi-emu run`, so nothing on
# this machine changes.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
export PATH="$build/emu:$build/tools:$PATH"

state=$(mktemp -d /tmp/sdsi-demo.XXXXXX)
trap 'rm -rf "$state"' EXIT

echo "### Starting an emulated 2-socket platform (GUID V2, current Linux ABI), NVRAM in $state"
sdsi-emu run --sockets 2 --state "$state" -- bash scripts/demo-inside.sh
echo
echo "### The emulator has exited: nothing is mounted any more"
grep -c ' /sys/bus/auxiliary ' /proc/self/mountinfo || true
