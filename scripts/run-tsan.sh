#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The threaded parts under ThreadSanitizer (make check-tsan; docs/architecture.md,
# "Locks"): the unit tests (the model's thread test, the lock rules), the
# conformance suite on three sockets (16 reader threads against the FUSE
# workers, bind/unbind, faults) once inside `sdsi-emu run` and once on the
# window backend (scripts/with-window.sh), and the platform suite (the
# control socket's poll loop beside the FUSE workers).  One configuration
# each: the others differ in layout and ABI, not in threads.  The three
# suites run at once (scripts/lib.sh, sdsi_run).  The QEMU
# plugin's tests are left out: QEMU is not instrumented, and libtsan cannot
# be loaded into it afterwards.
#
# TSan writes its reports to files, because a race inside sdsi-emu does not
# fail the test that provoked it; any report fails the run.
set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_emu_build_dir TSAN_BUILD_DIR "$@") || exit 2
emu="$build/emu/sdsi-emu"
cd "$sdsi_root" || exit 2

python=/usr/bin/python3
reports="$build/tsan-reports"
rm -rf "$reports"
mkdir -p "$reports"
# handle_sigbus=0: sdsi-emu catches SIGBUS itself, on purpose, when the
# owner of its window truncates it (test_window_guards.py); TSan's own
# handler would take the signal first and report the program's design.
export TSAN_OPTIONS="log_path=$reports/tsan second_deadlock_stack=1 handle_sigbus=0 ${TSAN_OPTIONS:-}"
sdsi_emu_env "$build"
sdsi_pytest_tmp "$build" tsan || exit 2
# The three suites go at once (scripts/lib.sh, sdsi_run), each with its
# own pytest directory; the bound allows for the others.
run_limit=(timeout --kill-after=10 480)
pytest_args=(-q -p no:cacheprovider)
sdsi_runs_init "$build/tsan-runs" || exit 2
failed=()

echo "=== tsan: unit tests"
meson test -C "$build" --print-errorlogs || failed+=(unit)

# conformance: current ABI, GUID v2, 3 sockets
SDSI_ABI=current SDSI_SOCKETS=3 sdsi_run conformance "${run_limit[@]}" \
	"$emu" run --abi current --guid v2 --sockets 3 -- \
	"$python" -m pytest "${pytest_args[@]}" --basetemp="$sdsi_tmp/1" tests/integration/conformance

# conformance on the window backend, current ABI, GUID v2, 3 sockets
SDSI_ABI=current sdsi_run window "${run_limit[@]}" \
	scripts/with-window.sh "$build" 3 current "--guid v2" -- \
	"$python" -m pytest "${pytest_args[@]}" --basetemp="$sdsi_tmp/2" tests/integration/conformance

# platform, without the QEMU plugin
sdsi_run platform "${run_limit[@]}" \
	"$python" -m pytest "${pytest_args[@]}" --basetemp="$sdsi_tmp/3" tests/integration/platform \
	--ignore=tests/integration/platform/test_doorbell_plugin.py

sdsi_runs_wait
failed+=("${sdsi_runs_failed[@]}")

status=0
for f in "$reports"/tsan.*; do
	[ -e "$f" ] || continue
	echo "ThreadSanitizer report $f:" >&2
	grep -E '^(WARNING|SUMMARY): ThreadSanitizer' "$f" >&2
	status=1
done
for run in "${failed[@]}"; do
	echo "tsan run failed: $run" >&2
	status=1
done
if [ $status -eq 0 ]; then
	echo "tsan: no report; unit, conformance (model and window) and platform runs passed"
fi
exit $status
