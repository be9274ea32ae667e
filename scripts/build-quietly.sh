#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make demo's build: meson setup (when BUILD_DIR has no build.ninja yet)
# and ninja, as make build runs them, with their output kept in
# BUILD_DIR/build.log instead of the terminal.  On success one line says
# so; on failure the whole log is printed, then where it is, and the
# status is the failed step's.
#
#   build-quietly.sh BUILD_DIR [PREFIX]
set -uo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 BUILD_DIR [PREFIX]" >&2
	exit 2
fi
build=$1
prefix=${2:-/usr/local}
cd "$(dirname "$0")/.." || exit 1
mkdir -p "$build" || exit 1
log=$build/build.log

status=0
(
	if [ ! -e "$build/build.ninja" ]; then
		meson setup "$build" --prefix="$prefix" || exit
	fi
	ninja -C "$build"
) >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
	cat "$log" >&2
	echo "build-quietly: the build failed (exit status $status); its log: $log" >&2
	exit "$status"
fi
echo "built $build (meson and ninja's output: $log)"
