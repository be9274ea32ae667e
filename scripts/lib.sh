# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# What the scripts/run-*.sh test runners share, sourced by them (never run):
# their one argument, the build directory; the environment the integration
# suites find sdsi-emu by; and pytest's temporary directory, which must not
# be left behind as /tmp/pytest-of-USER.

# The source tree's top, wherever the script was started from.
# shellcheck disable=SC2034 # read by the scripts that source this file
sdsi_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# sdsi_build_dir USAGE ARG...: the one argument, an existing directory, made
# absolute on stdout; anything else prints "usage: SCRIPT USAGE" and
# returns 2 (the runners' exit status for a usage error).
sdsi_build_dir() {
	local usage=$1
	shift
	if [ $# -ne 1 ] || [ ! -d "$1" ]; then
		echo "usage: $0 $usage" >&2
		return 2
	fi
	(cd "$1" && pwd)
}

# sdsi_emu_build_dir USAGE ARG...: as sdsi_build_dir, but a directory that
# does not exist is named as such, and its sdsi-emu must be built (the
# integration runners start it before any pytest).
sdsi_emu_build_dir() {
	local usage=$1 build
	shift
	if [ $# -ne 1 ]; then
		echo "usage: $0 $usage" >&2
		return 2
	fi
	build=$(cd "$1" 2>/dev/null && pwd) ||
		{ echo "$0: no build directory '$1'" >&2; return 2; }
	[ -x "$build/emu/sdsi-emu" ] ||
		{ echo "$0: $build/emu/sdsi-emu is not built" >&2; return 2; }
	echo "$build"
}

# sdsi_emu_env BUILD: the environment tests/integration reads: BUILD's
# sdsi-emu (also first on PATH) on the FUSE target.
sdsi_emu_env() {
	export PATH="$1/emu:$PATH"
	export SDSI_EMU="$1/emu/sdsi-emu"
	export SDSI_BUILD="$1"
	export SDSI_TARGET=fuse
	export PYTHONDONTWRITEBYTECODE=1
}

# sdsi_pytest_tmp BUILD NAME: sets sdsi_tmp to the directory to give pytest
# as --basetemp (pytest empties it at the start of each run) and removes it
# when the script exits, whatever the outcome.  It is BUILD/pytest-NAME when
# that path is short enough; tests bind AF_UNIX sockets below tmp_path
# (BASETEMP/<test name cut to 30 characters><N>/state/control.sock), and
# such a path has 107 bytes at most, so a longer BUILD gets a fresh
# directory in /tmp instead.  The length is BUILD's with its links resolved,
# as pytest resolves --basetemp.  The runners run pytest-xdist's workers
# (-n), each of which puts its tests below BASETEMP/popen-gwN: 10 bytes
# more, so the bound is 38 and not 48.
sdsi_pytest_tmp() {
	sdsi_tmp="$(cd "$1" && pwd -P)/pytest-$2"
	if [ ${#sdsi_tmp} -gt 38 ]; then
		sdsi_tmp=$(mktemp -d /tmp/sdsi-pt.XXXXXX) || return 1
	else
		# Made here, so that a runner may give each of its runs a
		# directory below it (sdsi_run).
		[ -d "$sdsi_tmp" ] || mkdir -m 0700 "$sdsi_tmp" || return 1
	fi
	trap 'rm -rf "$sdsi_tmp"' EXIT
}

# sdsi_pytest_workers: sets sdsi_workers to pytest-xdist's options for a
# suite whose tests share nothing (each its own tmp_path, no fixed path,
# port or name): SDSI_PYTEST_WORKERS processes (2 by default, the CI
# machine's cores; "auto" is one per core; 0 runs the tests in pytest's
# own process, one after the other), each taking the next test as it
# finishes one, so the slow tests do not queue behind each other.
sdsi_pytest_workers() {
	local n=${SDSI_PYTEST_WORKERS:-2}
	if ! [[ "$n" =~ ^([0-9]|[1-9][0-9]|auto)$ ]]; then
		echo "$0: SDSI_PYTEST_WORKERS=$n: not a count from 0 to 99 or auto" >&2
		return 2
	fi
	# shellcheck disable=SC2034 # read by the scripts that source this file
	sdsi_workers=(-n "$n" --dist load)
}

# Runs that share nothing, SDSI_TEST_JOBS (3 by default) at a time: the
# integration suites spend most of their time waiting on the emulated
# hardware's clocks, not computing (measured on 2 cores: 34 % busy serial,
# 46 % under the sanitizers).  Each run's output goes to DIR/NAME.log and
# is printed whole, in the order the runs were started, once all have
# ended, so that the log reads as a serial one would.
#   sdsi_runs_init DIR          where the logs go; checks SDSI_TEST_JOBS
#   sdsi_run NAME CMD...        starts CMD once fewer than the limit run
#   sdsi_runs_wait              waits for all, prints their logs; sets
#                               sdsi_runs_failed to "NAME (exit N)" of each
#                               run that failed (or "NAME (exit ?)" where
#                               it left no status)
sdsi_runs_init() {
	sdsi_runs_dir=$1
	sdsi_runs=()
	sdsi_runs_failed=()
	sdsi_runs_jobs=${SDSI_TEST_JOBS:-3}
	if ! [[ "$sdsi_runs_jobs" =~ ^[1-9][0-9]?$ ]]; then
		echo "$0: SDSI_TEST_JOBS=$sdsi_runs_jobs: not a count from 1 to 99" >&2
		return 2
	fi
	mkdir -p "$sdsi_runs_dir"
}

sdsi_run() {
	local name=$1
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$sdsi_runs_jobs" ]; do
		wait -n
	done
	sdsi_runs+=("$name")
	rm -f "$sdsi_runs_dir/$name.status"
	(
		"$@" >"$sdsi_runs_dir/$name.log" 2>&1
		echo $? >"$sdsi_runs_dir/$name.status"
	) &
}

sdsi_runs_wait() {
	local name status
	wait
	for name in "${sdsi_runs[@]}"; do
		echo "=== $name"
		cat "$sdsi_runs_dir/$name.log"
		status=$(cat "$sdsi_runs_dir/$name.status" 2>/dev/null) || status='?'
		[ "$status" = 0 ] || sdsi_runs_failed+=("$name (exit $status)")
	done
}
