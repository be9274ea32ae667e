# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# What the check-*.sh scripts (check-install.sh, check-deb.sh) share, sourced
# by them (never run) with check_name set to the word that starts their
# lines: the configured build directory they are given, and the tally of
# checks, which stops at the first failure, naming it, and ends with
#   NAME: N checks passed

# check_build_dir ARG...: the one argument, a configured meson build
# directory, made absolute in $build; anything else exits 2 (usage).
check_build_dir() {
	if [ $# -ne 1 ]; then
		echo "usage: $0 BUILD_DIR" >&2
		exit 2
	fi
	build=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no build directory '$1'" >&2; exit 2; }
	[ -f "$build/build.ninja" ] || { echo "$0: $build is not a configured meson build" >&2; exit 2; }
}

checks=0
# shellcheck disable=SC2154 # check_name: set by the script that sources this file
fail() {
	echo "$check_name: FAIL: $*" >&2
	exit 1
}
pass() {
	checks=$((checks + 1))
}
checks_passed() {
	echo "$check_name: $checks checks passed"
}
