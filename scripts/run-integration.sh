#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The pytest integration suites: the host-side platform tests once, the
# host-side licensing tests once (they also need intel_sdsi and
# sdsi-authority from BUILD_DIR), then the ABI conformance suite inside
# `sdsi-emu run` for each configuration of the matrix, then again on the
# window target (our FUSE driver over sdsi-shmem's window,
# scripts/with-window.sh) for both GUIDs and both ABIs.
#
# The runs share nothing (each has its own emulator, namespace, state and
# pytest directory), so SDSI_TEST_JOBS of them (3 by default) go at once
# (scripts/lib.sh, sdsi_run).  Every run writes a JUnit file; the last line
# printed sums them:
#   integration: N passed, N failed, N skipped
# Exit status is non-zero if any run failed or no test ran at all.
set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_emu_build_dir BUILD_DIR "$@") || exit 2
emu="$build/emu/sdsi-emu"
cd "$sdsi_root" || exit 2

python=/usr/bin/python3      # Debian's, which has pytest
results="$build/integration-results"
rm -rf "$results"
mkdir -p "$results"

sdsi_emu_env "$build"
sdsi_pytest_tmp "$build" integration || exit 2
# One stuck run must not hang the matrix; the bound allows for the other
# runs going at the same time.
run_limit=(timeout --kill-after=10 480)
sdsi_runs_init "$results" || exit 2

run_pytest() {	# NAME CMD...
	local name=$1
	shift
	sdsi_run "$name" "${run_limit[@]}" "$@"
}

# Each run has its own --basetemp (pytest empties it at its start), named
# by the run's number so that the socket paths below it stay short
# (scripts/lib.sh): "$sdsi_tmp/${#sdsi_runs[@]}" where a run is started.
pytest_args=(-q -p no:cacheprovider)

# The host-side suites start an emulator of their own in each test, so their
# tests share nothing and go on pytest-xdist's workers too (scripts/lib.sh):
# the platform suite is the matrix's longest run, started first.  The
# conformance runs below are not split: each run's tests share the one
# emulated platform its sdsi-emu run starts.
sdsi_pytest_workers || exit 2
run_pytest platform \
	"$python" -m pytest "${pytest_args[@]}" "${sdsi_workers[@]}" --basetemp="$sdsi_tmp/${#sdsi_runs[@]}" tests/integration/platform \
	--junitxml="$results/platform.xml"

run_pytest licensing \
	"$python" -m pytest "${pytest_args[@]}" "${sdsi_workers[@]}" --basetemp="$sdsi_tmp/${#sdsi_runs[@]}" tests/integration/licensing \
	--junitxml="$results/licensing.xml"

# name | sdsi-emu options | environment the conformance suite checks against
matrix=(
	"current-v2-1s|--abi current --guid v2 --sockets 1|SDSI_ABI=current"
	"current-v2-3s|--abi current --guid v2 --sockets 3|SDSI_ABI=current"
	"current-v1-1s|--abi current --guid v1 --sockets 1|SDSI_ABI=current"
	"current-v1-3s|--abi current --guid v1 --sockets 3|SDSI_ABI=current"
	"early-v2-1s|--abi early --guid v2 --sockets 1|SDSI_ABI=early"
	"early-v2-3s|--abi early --guid v2 --sockets 3|SDSI_ABI=early"
	"early-v1-1s|--abi early --guid v1 --sockets 1|SDSI_ABI=early"
	"early-v1-3s|--abi early --guid v1 --sockets 3|SDSI_ABI=early"
	"current-v2-no-features|--abi current --guid v2 --sockets 2 --features none|SDSI_ABI=current SDSI_FEATURES=none"
	"current-v2-no-metering|--abi current --guid v2 --sockets 2 --features on-demand,attestation --akc-threshold 2 --cap-threshold 5 --updates 6|SDSI_ABI=current SDSI_FEATURES=on-demand,attestation SDSI_AKC_THRESHOLD=2 SDSI_CAP_THRESHOLD=5 SDSI_UPDATES=6"
)

for entry in "${matrix[@]}"; do
	IFS='|' read -r name opts envs <<<"$entry"
	# shellcheck disable=SC2086 # opts and envs are word lists
	sockets=$(set -- $opts; while [ $# -gt 0 ]; do [ "$1" = --sockets ] && echo "$2"; shift; done)
	# shellcheck disable=SC2086
	run_pytest "$name" env $envs SDSI_SOCKETS="$sockets" \
		"$emu" run $opts -- \
		"$python" -m pytest "${pytest_args[@]}" --basetemp="$sdsi_tmp/${#sdsi_runs[@]}" tests/integration/conformance \
		--junitxml="$results/$name.xml"
done

# name | socket count | ABI | sdsi-shmem options (the FUSE driver over the
# window that the kernel rig's guest reaches; tests/sdsikit/targets/window.py)
window_matrix=(
	"window-current-v2-3s|3|current|--guid v2"
	"window-current-v1-3s|3|current|--guid v1"
	"window-early-v1-3s|3|early|--guid v1"
	"window-early-v2-3s|3|early|--guid v2"
)

for entry in "${window_matrix[@]}"; do
	IFS='|' read -r name sockets abi shmem_opts <<<"$entry"
	run_pytest "$name" env SDSI_ABI="$abi" \
		scripts/with-window.sh "$build" "$sockets" "$abi" "$shmem_opts" -- \
		"$python" -m pytest "${pytest_args[@]}" --basetemp="$sdsi_tmp/${#sdsi_runs[@]}" tests/integration/conformance \
		--junitxml="$results/$name.xml"
done

sdsi_runs_wait
failed_runs=("${sdsi_runs_failed[@]}")
for name in "${sdsi_runs[@]}"; do
	# pytest exits 5 when it collected nothing: a failed run, above.
	[ -s "$results/$name.xml" ] || failed_runs+=("$name (no JUnit file)")
done

summary=$("$python" scripts/junit-sum.py "$results/*.xml") || summary="0 0 0"
read -r passed failed skipped <<<"$summary"

status=0
for run in "${failed_runs[@]}"; do
	echo "run failed: $run" >&2
	status=1
done
if [ $((passed + failed + skipped)) -eq 0 ]; then
	echo "no test ran" >&2
	status=1
fi
echo "integration: $passed passed, $failed failed, $skipped skipped"
exit $status
