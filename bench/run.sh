#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the benchmarks against a build directory and print their figures.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
dev=/sys/bus/auxiliary/devices/intel_vsec.sdsi.0

echo "== $(date -u +%FT%TZ) on $(nproc) cores, $(uname -r)"
"$build/bench/bench_mbox" 20000
echo
"$build/bench/bench_license" 500
echo
echo "FUSE driver end to end (sdsi-emu run, 2 sockets, GUID V2, current ABI)"
"$build/emu/sdsi-emu" run --sockets 2 -- \
	"$build/bench/bench_sysfs" 1 2000 "$dev/registers" "$dev/state_certificate" "$dev/meter_current"
"$build/emu/sdsi-emu" run --sockets 2 -- \
	"$build/bench/bench_sysfs" 4 500 "$dev/state_certificate"
