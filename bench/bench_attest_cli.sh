#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# intel_sdsi --attest verify beside a plain -s read (issue 28): on one
# socket (-d 0 on a 1-socket platform) and on 8 (--all on an 8-socket one),
# each the median of its rounds, in ms.  A verify is one whole owner's
# check: VCA, DIGESTS, the chain, CHALLENGE, signed MEASUREMENTS, the state
# and meter certificates read, the chain verified by OpenSSL and two P-384
# signatures checked; its mailbox transactions are about ten against the
# read's one, so with a firmware latency it costs about ten reads.
# Each round is a fresh emulated platform; rounds of 1 and 8 sockets
# alternate, so load on the machine hits both alike.  Only intel_sdsi is
# timed, from inside the platform.
#
# Latency: RDY_LATENCY_US per mailbox transaction (default 0, the cost of
# the software alone; bench_fleet.sh uses 100 ms, real firmware's range).
# What the emulator cannot make parallel: the model's signing runs on the
# host's cores, as does intel_sdsi's verification, so 8 sockets on 2 busy
# cores cost more than 8 parts with their own firmware would.
set -euo pipefail
rounds=${BENCH_ATTEST_ROUNDS:-5}
latency_us=${RDY_LATENCY_US:-0}
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
bench_begin "${1:-build}"
pem=$work/ca/attestation-root.pem

# Inside the platform: -s and --attest verify, each timed in ms, after an
# untimed -i that fills the dentry cache of the FUSE tree (as bench_fleet.sh).
# A verify that does not attest fails the round: the figures are of success.
cat >"$work/round.sh" <<'EOF'
set -eu
ms() { echo $(( $(date +%s%N) / 1000000 )); }
where=$3
"$1" --all -i >/dev/null
t0=$(ms); "$1" $where -s >/dev/null
t1=$(ms); "$1" $where --attest verify --trust "$2" >/dev/null
t2=$(ms)
echo "$((t1 - t0)) $((t2 - t1))"
EOF

round() {	# sockets, intel_sdsi's device option
	"$emu" run -q --sockets "$1" --authority "$work/ca" --rdy-latency-us "$latency_us" -- \
		sh "$work/round.sh" "$tool" "$pem" "$2"
}

for ((i = 0; i < rounds; i++)); do
	round 1 "-d 0" >>"$work/one"
	round 8 "--all" >>"$work/eight"
done

range() {	# column $2 of file $1: the fastest and slowest round
	cut -d' ' -f"$2" "$1" | sort -n | sed -n '1p;$p' | paste -sd- -
}

echo "intel_sdsi --attest verify beside -s ($rounds rounds each, median ms, fastest-slowest; RDY latency $((latency_us / 1000)) ms per transaction; load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores)"
printf '  %-22s %18s %22s\n' "" "1 socket (-d 0)" "8 sockets (--all)"
for col in 1 2; do
	case $col in
	1) what="-s (state read)" ;;
	2) what="--attest verify" ;;
	esac
	printf "  %-22s %8s ms %-10s %10s ms %s\n" "$what" \
		"$(bench_median "$work/one" "$col")" "($(range "$work/one" "$col"))" \
		"$(bench_median "$work/eight" "$col")" "($(range "$work/eight" "$col"))"
done
