#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A user's own script in the guest (SDSI_RIG_GUEST_SCRIPT, docs/conformance.md),
# run by rig/guest-run.sh as root after a configuration's suites, with the
# driver under test still bound: any tool against the real driver.
#   rig/guest-script.sh SCRIPT DIR
# SCRIPT runs with DIR (the configuration's results, which the host keeps
# as BUILD_DIR/kernel-rig/results-CONFIG) as its working directory, no
# input, and the environment it is given (guest-run.sh exports the
# configuration: SDSI_AUTHORITY, the part's authority directory, among
# others); its output goes to DIR/script.log.  DIR/script then holds the
# verdict the rig reports: "pass" if SCRIPT exited 0, else "fail".
set -u
[ $# -eq 2 ] || { echo "usage: $0 SCRIPT DIR" >&2; exit 2; }
script=$1 dir=$2
verdict=fail
# A subshell, so that the script's cd, exit or exec ends only itself.
(cd "$dir" && exec "$script") </dev/null >"$dir/script.log" 2>&1
status=$?
[ $status -eq 0 ] && verdict=pass
echo "guest-script: $script exited $status" >>"$dir/script.log"
echo "$verdict" >"$dir/script"
