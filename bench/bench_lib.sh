# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# What the shell benchmarks share (sourced, not run): the programs of a
# build, a temporary directory removed at exit with a test authority in it,
# and the median of a column of per-round figures.

# bench_begin BUILD_DIR: sets build (absolute), tool, emu, authority and
# work (a fresh temporary directory, removed at exit), and creates the
# authority "$work/ca".  The caller's directory becomes the repository's.
bench_begin() {
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	build=$(cd "$1" && pwd) || exit 1
	# shellcheck disable=SC2034 # for the benchmark that sources this
	tool=$build/tools/intel_sdsi
	# shellcheck disable=SC2034
	emu=$build/emu/sdsi-emu
	authority=$build/tools/sdsi-authority/sdsi-authority
	work=$(mktemp -d) || exit 1
	# shellcheck disable=SC2064 # $work is fixed now, on purpose
	trap "rm -rf '$work'" EXIT
	"$authority" init "$work/ca" >/dev/null
}

# The median of column $2 of file $1 (one round per line).
bench_median() {
	cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END {
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
