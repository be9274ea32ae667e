#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the benchmarks against a build directory and print their figures.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
dev=/sys/bus/auxiliary/devices/intel_vsec.sdsi.0
# A small read-only text attribute that every Linux has, computed by its show
# function from memory (no hardware behind it), as guid is by the FUSE driver:
# what the same open+read+close costs in the kernel's own sysfs.
kernel_attr=/sys/devices/system/cpu/online
rounds=${BENCH_ROUNDS:-9}
per_round=${BENCH_PER_ROUND:-1000}

echo "== $(date -u +%FT%TZ) on $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/bench_mbox" 20000
echo
"$build/bench/bench_license" 500
echo
"$build/bench/bench_attest" 50
echo
echo "FUSE driver against the kernel's sysfs (sdsi-emu run, 2 sockets, GUID V2, current ABI)"
stats=$(mktemp)
out=$(mktemp)
trap 'rm -f "$stats" "$out"' EXIT
SDSI_FUSEDRV_STATS=$stats "$build/emu/sdsi-emu" run --sockets 2 -- \
	"$build/bench/bench_sysfs" compare "$rounds" "$per_round" \
	"$kernel_attr" "$dev/guid" "$dev/registers" | tee "$out"
# The counters cover the whole mount: both FUSE files, so divide by twice
# the operations of one file; once-per-mount requests (INIT) round to 0.
ops=$(sed -n 's/^operations per file: //p' "$out")
echo "FUSE requests per open+read+close (counted by the driver, SDSI_FUSEDRV_STATS):"
awk -v ops="$((ops * 2))" '$2 / ops >= 0.005 { printf "  %-12s %6.2f\n", $1, $2 / ops }
	{ total += $2 }
	END { printf "  %-12s %6.2f\n", "total", total / ops }' "$stats"
echo
echo "FUSE driver end to end, throughput"
"$build/emu/sdsi-emu" run --sockets 2 -- \
	"$build/bench/bench_sysfs" 1 2000 "$dev/registers" "$dev/state_certificate" "$dev/meter_current"
"$build/emu/sdsi-emu" run --sockets 2 -- \
	"$build/bench/bench_sysfs" 4 500 "$dev/state_certificate"
echo
bench/bench_fleet.sh "$build"
echo
bench/bench_attest_cli.sh "$build"
echo
RDY_LATENCY_US=10000 bench/bench_attest_cli.sh "$build"
