#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The one ground on which the kernel rig runs a configuration again:
#   kernel/host-stall-evidence.sh RESULTS_DIR DEADLINE_US
# Exits 0, printing the longest host stall seen (us), only when the run in
# RESULTS_DIR failed (its status is not "exit 0"), every failed test failed
# because the driver returned ETIMEDOUT (scripts/junit-sum.py --timeouts:
# not one a test expected, not a hung program; a guest that did not come
# back or a run with no failed test, such as a kernel warning, is not
# that), and sdsi-stallmon, which ran beside the guest and is not under
# test, saw the host stall longer than DEADLINE_US.  Exits 1 otherwise, 2
# on a usage error.
# sdsi-shmem's own account of its stalls is no evidence: it plays the
# hardware, and a slow poller would both cause the timeouts and excuse them.
set -uo pipefail

if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
	echo "usage: $0 RESULTS_DIR DEADLINE_US" >&2
	exit 2
fi
results=$1 deadline=$2
here=$(cd "$(dirname "$0")" && pwd)

[ -f "$results/status" ] && [ "$(cat "$results/status")" != "exit 0" ] || exit 1
/usr/bin/python3 "$here/../scripts/junit-sum.py" --timeouts "$results/*.xml" \
	>/dev/null || exit 1
late=$(sed -n 's/^sdsi-stallmon: cpus=[0-9]* .* max-late-us=\([0-9]*\) .*/\1/p' \
	"$results/stallmon.log" 2>/dev/null)
[ -n "$late" ] && [ "$late" -gt "$deadline" ] || exit 1
echo "$late"
