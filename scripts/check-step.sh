#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One step of `make check`, timed, so that every run says where its time
# went (docs/testing.md, "Times"):
#   check-step.sh TIMES NAME COMMAND [ARG]...   run COMMAND; append
#       "NAME SECONDS" to the file TIMES; on failure print the steps so
#       far and exit with COMMAND's status
#   check-step.sh TIMES --start NAME COMMAND [ARG]...
#                                               run COMMAND in the
#       background, its output kept in TIMES.d/NAME.log, and return at once
#   check-step.sh TIMES --join NAME             wait for that step, print
#       its output, and end as the step would have in the foreground
#   check-step.sh TIMES --summary               print the steps and the total
# The table's lines read "check: NAME took N s"; the next to last one
# "check: all N steps took N s", and the last "check: wall clock N s"
# (less than the sum when a step ran in the background).
#
# A background step is its own process group.  It ends with make: when
# the make that started it is gone (interrupted, or stopped by another
# step's failure) before it has finished, the group is killed, so that
# nothing of it outlives the run.
set -uo pipefail

usage() {
	echo "usage: $0 TIMES NAME COMMAND [ARG]... | $0 TIMES --start NAME COMMAND [ARG]..." >&2
	echo "       $0 TIMES --join NAME | $0 TIMES --summary" >&2
	exit 2
}

summary() {
	local name secs total=0 steps=0 began
	while read -r name secs; do
		echo "check: $name took $secs s"
		total=$((total + secs))
		steps=$((steps + 1))
	done <"$1"
	echo "check: all $steps steps took $total s"
	if began=$(stat -c %Y "$1.began" 2>/dev/null); then
		echo "check: wall clock $(($(date +%s) - began)) s"
	fi
}

# The make that runs this recipe: our parent is the recipe's shell, or
# make itself when the recipe had nothing for a shell to do.
make_pid() {
	local pid=$PPID comm
	comm=$(cat "/proc/$pid/comm" 2>/dev/null)
	case $comm in
	make | gmake) echo "$pid" ;;
	*) ps -o ppid= -p "$pid" | tr -d ' ' ;;
	esac
}

start_background() {	# NAME COMMAND...
	local name=$1 dir="$times.d" watched
	shift
	mkdir -p "$dir" || exit 2
	rm -f "$dir/$name.status" "$dir/$name.log" "$dir/$name.pid"
	watched=$(make_pid)
	# shellcheck disable=SC2016 # expanded by the inner shell
	setsid bash -c '
		times=$1 name=$2 dir=$3 watched=$4
		shift 4
		echo $$ >"$dir/$name.pid"
		start=$SECONDS
		"$@" >"$dir/$name.log" 2>&1 &
		step=$!
		while kill -0 "$step" 2>/dev/null; do
			if ! kill -0 "$watched" 2>/dev/null; then
				echo "check: $name: make is gone; stopping this step" >>"$dir/$name.log"
				kill -TERM -- "-$$"
			fi
			sleep 1
		done
		wait "$step"
		status=$?
		echo "$name $((SECONDS - start))" >>"$times"
		echo "$status" >"$dir/$name.status"
	' check-step "$times" "$name" "$dir" "$watched" "$@" </dev/null >/dev/null 2>&1 &
	echo "check: $name started in the background (its output: $dir/$name.log)"
}

join_background() {	# NAME
	local name=$1 dir="$times.d" status
	[ -f "$dir/$name.log" ] || { echo "$0: no background step $name" >&2; exit 2; }
	# Until the step's supervisor writes its status; if it is gone
	# without one (killed from outside), the step failed.
	while [ ! -f "$dir/$name.status" ]; do
		if [ -f "$dir/$name.pid" ] && ! kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
			[ -f "$dir/$name.status" ] || echo "ended without a status" >"$dir/$name.status"
			break
		fi
		sleep 1
	done
	cat "$dir/$name.log"
	status=$(cat "$dir/$name.status")
	[[ "$status" =~ ^[0-9]+$ ]] || { echo "check: $name: $status" >&2; status=1; }
	if [ "$status" -ne 0 ]; then
		summary "$times" >&2
		echo "check: step $name FAILED (exit $status)" >&2
	fi
	exit "$status"
}

check_name() {
	case $1 in
	'' | -* | *[!A-Za-z0-9._-]*)
		echo "$0: step name '$1': letters, digits, '.', '_', '-' only" >&2
		exit 2
		;;
	esac
}

[ $# -ge 2 ] || usage
times=$1
case $2 in
--summary)
	[ $# -eq 2 ] || usage
	summary "$times"
	exit 0
	;;
--start)
	[ $# -ge 4 ] || usage
	check_name "$3"
	mkdir -p "$(dirname "$times")" || exit 2
	[ -f "$times.began" ] || touch "$times.began"
	start_background "${@:3}"
	exit 0
	;;
--join)
	[ $# -eq 3 ] || usage
	check_name "$3"
	join_background "$3"
	;;
esac
[ $# -ge 3 ] || usage
name=$2
shift 2
check_name "$name"
mkdir -p "$(dirname "$times")" || exit 2
[ -f "$times.began" ] || touch "$times.began"
start=$SECONDS
"$@"
status=$?
echo "$name $((SECONDS - start))" >>"$times"
if [ "$status" -ne 0 ]; then
	summary "$times" >&2
	echo "check: step $name FAILED (exit $status)" >&2
fi
exit "$status"
