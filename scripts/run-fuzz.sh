#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every libFuzzer harness of BUILD_DIR (a -Dfuzz=true build) for SECONDS
# each, one after the other, and print each one's exec count.  The seed
# corpus in fuzz/corpus/NAME (which holds every crash found so far) is run
# first, then new inputs go to BUILD_DIR/fuzz-corpus/NAME.  Any crash,
# sanitizer report or broken invariant fails the run and names the saved
# input (docs/fuzzing.md says how to make it a regression test).
# usage: run-fuzz.sh BUILD_DIR SECONDS [HARNESS...]
set -euo pipefail

if [ $# -lt 2 ] || [ ! -d "$1" ] || ! [[ "$2" =~ ^[0-9]+$ ]] || [ "$2" -lt 1 ]; then
	echo "usage: $0 BUILD_DIR SECONDS [HARNESS...]" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] ||
	harnesses=(fuzz_libsdsi fuzz_license fuzz_nvram_file fuzz_control fuzz_model_mmio fuzz_spdm
		fuzz_mbox_answer fuzz_attest_answer)

# The largest input each harness reads (docs/fuzzing.md).
max_len() {
	case $1 in
	fuzz_libsdsi) echo 6144 ;;
	fuzz_license) echo 1100 ;;
	fuzz_nvram_file) echo 8192 ;;
	fuzz_mbox_answer) echo 8192 ;;
	fuzz_attest_answer) echo 16384 ;;
	*) echo 2048 ;;
	esac
}

ninja -C "$build" fuzzers >/dev/null
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-logs" "$build/fuzz-artifacts"
failed=()
for name in "${harnesses[@]}"; do
	bin=$build/fuzz/$name
	seeds=$here/fuzz/corpus/${name#fuzz_}
	work=$build/fuzz-corpus/${name#fuzz_}
	log=$build/fuzz-logs/$name.log
	[ -x "$bin" ] || { echo "run-fuzz: no harness $bin" >&2; exit 2; }
	[ -d "$seeds" ] || { echo "run-fuzz: no seed corpus $seeds" >&2; exit 2; }
	mkdir -p "$work"
	args=(-max_total_time="$seconds" -timeout=25 -print_final_stats=1
	      -max_len="$(max_len "$name")"
	      -artifact_prefix="$build/fuzz-artifacts/$name-")
	[ -f "$here/fuzz/${name#fuzz_}.dict" ] && args+=(-dict="$here/fuzz/${name#fuzz_}.dict")
	status=0
	"$bin" "${args[@]}" "$work" "$seeds" >"$log" 2>&1 || status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	nseeds=$(find "$seeds" -type f | wc -l)
	if [ "$status" -ne 0 ]; then
		echo "FAIL $name: exit $status after ${execs:-?} execs (log: $log)"
		grep -E 'ERROR|invariant broken|runtime error|Test unit written' "$log" | head -n 8 || true
		failed+=("$name")
	else
		printf 'ok   %-16s %12s execs in %s s (%s exec/s), %s seeds replayed\n' \
			"$name" "${execs:-?}" "$seconds" "${rate:-?}" "$nseeds"
	fi
done
if [ ${#failed[@]} -ne 0 ]; then
	echo "run-fuzz: ${#failed[@]} harness(es) failed: ${failed[*]}" >&2
	exit 1
fi
