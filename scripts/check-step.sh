#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One step of `make check`, timed, so that every run says where its time
# went (docs/testing.md, "Times"):
#   check-step.sh TIMES NAME COMMAND [ARG]...   run COMMAND; append
#       "NAME SECONDS" to the file TIMES; on failure print the steps so
#       far and exit with COMMAND's status
#   check-step.sh TIMES --summary               print the steps and the total
# The table's lines read "check: NAME took N s"; the last one
# "check: all N steps took N s".
set -uo pipefail

usage() {
	echo "usage: $0 TIMES NAME COMMAND [ARG]... | $0 TIMES --summary" >&2
	exit 2
}

summary() {
	local name secs total=0 steps=0
	while read -r name secs; do
		echo "check: $name took $secs s"
		total=$((total + secs))
		steps=$((steps + 1))
	done <"$1"
	echo "check: all $steps steps took $total s"
}

[ $# -ge 2 ] || usage
times=$1
if [ "$2" = --summary ]; then
	[ $# -eq 2 ] || usage
	summary "$times"
	exit 0
fi
[ $# -ge 3 ] || usage
name=$2
shift 2
case $name in
*[!A-Za-z0-9._-]*) echo "$0: step name '$name': letters, digits, '.', '_', '-' only" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$times")" || exit 2
start=$SECONDS
"$@"
status=$?
echo "$name $((SECONDS - start))" >>"$times"
if [ "$status" -ne 0 ]; then
	summary "$times" >&2
	echo "check: step $name FAILED (exit $status)" >&2
fi
exit "$status"
