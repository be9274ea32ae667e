#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The body of `make demo`, run inside `sdsi-emu run` by scripts/demo.sh.
# Usage: demo-inside.sh AUTHORITY_DIR WORK_DIR
# Each command is echoed with its exit status; `expect` stops the demo with
# status 1 as soon as a command ends otherwise than the story says.
set -uo pipefail
authority=$1
work=$2
python=/usr/bin/python3

step() { printf '\n### %s\n' "$*"; }

expect() {	# STATUS CMD...: run CMD, show it, insist on STATUS
	local want=$1 status
	shift
	printf '$ %s\n' "$*"
	"$@"
	status=$?
	printf '(exit status %d)\n' "$status"
	if [ "$status" -ne "$want" ]; then
		printf '\n*** demo failed: expected exit status %d from: %s\n' \
			"$want" "$*" >&2
		exit 1
	fi
}

check() {	# WHAT TEST...: say what is checked; stop if it does not hold
	local what=$1
	shift
	if "$@"; then
		printf '    ok: %s\n' "$what"
	else
		printf '\n*** demo failed: %s\n' "$what" >&2
		exit 1
	fi
}

info() {	# DEVNO KEY.KEY...: one field of `intel_sdsi -d DEVNO -i --json`
	intel_sdsi -d "$1" -i --json |
		"$python" -c 'import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[k]
print(str(v).lower())' "$2"
}

meter_count() {	# DEVNO -C|-m CODE|MMRC|unit_ms: a counter of the meter, or its unit
	intel_sdsi -d "$1" "$2" --json |
		"$python" -c 'import json, sys
m = json.load(sys.stdin)
if sys.argv[1] == "unit_ms":
    print(m["unit_ms"])
elif sys.argv[1] == "MMRC":
    print(m["mmrc"]["counter"])
else:
    print(sum(c["count"] for c in m["counters"] if c["feature"] == sys.argv[1]))' "$3"
}

flip_byte() {	# FILE OFFSET: invert every bit of one byte in place
	"$python" -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(1)[0]
    f.seek(int(sys.argv[2]))
    f.write(bytes([b ^ 0xff]))' "$1" "$2"
}

step "Inventory: the On Demand devices Linux shows, and what each socket reports"
expect 0 intel_sdsi -l
expect 0 intel_sdsi -d 0 -i
expect 0 intel_sdsi -d 1 -i
expect 0 intel_sdsi -d 0 -s
check "socket 0 holds no licence key yet" [ "$(info 0 akc_provisioned)" = false ]

step "The authority certifies its licensor key (AKC) and issues a CAP per socket, bound to that socket's PPIN"
ppin0=$(info 0 ppin)
ppin1=$(info 1 ppin)
printf 'PPIN of socket 0: %s, of socket 1: %s (from intel_sdsi -d N -i --json)\n' \
	"$ppin0" "$ppin1"
printf '$ sdsi-authority akc %s -o %s\n' "$authority" "$work/oem.akc"
akc_out=$(sdsi-authority akc "$authority" -o "$work/oem.akc")
status=$?
printf '%s\n(exit status %d)\n' "$akc_out" "$status"
check "the AKC was issued" [ "$status" -eq 0 ]
image=$(printf '%s\n' "$akc_out" | sed -n 's/^license key image: //p')
expect 0 sdsi-authority cap "$authority" --ppin "$ppin0" --type metered \
	--feature CC02 --feature SG01 -o "$work/socket0.cap"
expect 0 sdsi-authority cap "$authority" --ppin "$ppin1" --type metered \
	--feature CC02 -o "$work/socket1.cap"
expect 0 sdsi-authority inspect "$work/socket0.cap" --dir "$authority"

step "Provisioning: the AKC, then the CAP, on each socket"
for n in 0 1; do
	expect 0 intel_sdsi -d "$n" -a "$work/oem.akc"
	expect 0 intel_sdsi -d "$n" -c "$work/socket$n.cap"
done
check "socket 0 now holds the licence key" [ "$(info 0 akc_provisioned)" = true ]

step "State certificates: the licensor key's image (as sdsi-authority akc printed it, byte 47 first in both tools) and each licence"
expect 0 intel_sdsi -d 0 -s
expect 0 intel_sdsi -d 1 -s
shown=$(intel_sdsi -d 1 -s --json | "$python" -c 'import json, sys
print(json.load(sys.stdin)["key_image"])')
check "socket 1 holds the image sdsi-authority printed" [ "$shown" = "$image" ]

step "Licences take effect at the next power cycle: no licence is metered yet"
expect 0 intel_sdsi -d 0 -C

step "A cold power cycle of both sockets: counters reset, the licences become active"
expect 0 sdsi-emu ctl power-cycle all
expect 0 intel_sdsi -d 0 -C

step "Ten hours of powered-up time later (model time moved forward, no waiting)"
expect 0 sdsi-emu ctl advance all 36000
printf -- '--- live counters (meter_current): ten hours, counted in the unit shown\n'
expect 0 intel_sdsi -d 0 -C
expect 0 intel_sdsi -d 1 -C
live=$(meter_count 0 -C CC02)
check "socket 0 counted at least 36000 s of CC02 ($live units of $(meter_count 0 -C unit_ms) ms)" \
	[ "$live" -ge $((36000 * 1000 / $(meter_count 0 -C unit_ms))) ]
printf -- '--- attested copy (meter_certificate): latched at the 8-hour boundary\n'
expect 0 intel_sdsi -d 0 -m
latched=$(meter_count 0 -m MMRC)
check "the attested copy's MMRC holds exactly 8 hours ($latched units)" \
	[ "$latched" -eq $((28800 * 1000 / $(meter_count 0 -m unit_ms))) ]

step "A CAP for socket 1's PPIN offered to socket 0: intel_sdsi refuses it before the silicon sees it"
before=$(info 0 cap_failures.count)
updates=$(info 0 updates.available)
expect 5 intel_sdsi -d 0 -c "$work/socket1.cap"
check "no CAP failure counted (still $before)" [ "$(info 0 cap_failures.count)" -eq "$before" ]
check "no update used (still $updates)" [ "$(info 0 updates.available)" -eq "$updates" ]

step "A new CAP for socket 0 with one byte of its signature changed: the silicon rejects it, and the failure count goes up"
expect 0 sdsi-authority cap "$authority" --ppin "$ppin0" --feature AB01 \
	-o "$work/new.cap"
cp "$work/new.cap" "$work/tampered.cap"
size=$(stat -c %s "$work/tampered.cap")
flip_byte "$work/tampered.cap" $((size - 20))
printf 'byte %d of %d inverted (cmp -l: offset from 1, old and new byte in octal):\n' \
	$((size - 20)) "$size"
cmp -l "$work/new.cap" "$work/tampered.cap"
check "exactly one byte differs" \
	[ "$(cmp -l "$work/new.cap" "$work/tampered.cap" | wc -l)" -eq 1 ]
before=$(info 0 cap_failures.count)
expect 6 intel_sdsi -d 0 -c "$work/tampered.cap"
after=$(info 0 cap_failures.count)
check "CAP failure count went from $before to $after" [ "$after" -eq $((before + 1)) ]
check "CONTENT_AUTH_ERROR is set" [ "$(info 0 auth_errors.content)" = true ]
expect 0 intel_sdsi -d 0 -i
