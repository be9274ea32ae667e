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

# What the output just shown means, in words: each term at its first
# appearance, each line starting "  ^ " (pointing up at it), wrapped at 80.
explain() {
	printf '%s\n' "$*" | fold -s -w 76 | sed 's/^/  ^ /; s/ *$//'
}

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
explain "PPIN: the Protected Processor Inventory Number, unique to each CPU;" \
	"a licence is bound to one.  License Key (AKC): the Authentication Key" \
	"Certificate, the licensor's public key certified by the root key the" \
	"silicon trusts; every licence must be signed by that licensor.  The" \
	"failure counts and thresholds: a socket" \
	"refuses provisioning after 3 rejected AKCs or CAPs until its next power" \
	"cycle.  Updates Available: how many more blobs it accepts before then."
expect 0 intel_sdsi -d 1 -i
expect 0 intel_sdsi -d 0 -s
explain "The state certificate: what the socket holds.  Empty: no licence key" \
	"(AKC) and no licence yet."
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
explain "The AKC is the licensor's public key certified by the root key.  CAP: a Capability" \
	"Activation Payload, a licence signed by the licensor.  CC02 and SG01 are" \
	"four-character feature codes, the bundles a licence unlocks: CC02 is the" \
	"example in Intel's documents, SG01 one made up here, for Intel publishes" \
	"no table of codes and the silicon treats them as opaque.  Metered: the" \
	"socket counts the time each feature is licensed, for billing."
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
explain "License Key Image Content: the SHA-384 digest of the licensor's public" \
	"key from the AKC, 48 bytes, printed as one hex number whose first two" \
	"digits are byte 47 and last two byte 0 (upstream intel_sdsi's order;" \
	"sdsi-authority prints it the same way, so the two compare as text)." \
	"Each licence (blob) shows the PPIN it is bound to and its feature codes."
expect 0 intel_sdsi -d 1 -s
shown=$(intel_sdsi -d 1 -s --json | "$python" -c 'import json, sys
print(json.load(sys.stdin)["key_image"])')
check "socket 1 holds the image sdsi-authority printed" [ "$shown" = "$image" ]

step "Licences take effect at the next power cycle: no licence is metered yet"
expect 0 intel_sdsi -d 0 -C
explain "The live meter (-C).  MMRC: the Master Meter Reference Counter, the" \
	"socket's powered-up time in Count Units (1000 ms), ever incrementing." \
	"Then one counter per metered feature code in effect: none yet."

step "A cold power cycle of both sockets: the licences become active"
expect 0 sdsi-emu ctl power-cycle all
expect 0 intel_sdsi -d 0 -C
mmrc_at_cycle=$(meter_count 0 -C MMRC)
explain "The meters do not reset at a power cycle: MMRC goes on from" \
	"$mmrc_at_cycle, the powered-up seconds since the platform started.  CC02" \
	"and SG01 now count, from 0, the time their licence is in effect.  (A" \
	"power cycle resets the failure counts and Updates Available of -i, never" \
	"the meters.)"

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
latched_cc02=$(meter_count 0 -m CC02)
explain "The meter certificate (-m) is the copy the socket attests, refreshed" \
	"every 8 hours of powered-up time: MMRC $latched is exactly 8 hours.  CC02" \
	"shows $latched_cc02, $((latched - latched_cc02)) less: MMRC counts from the" \
	"platform's start, CC02 only from the power cycle that made its licence" \
	"active, $mmrc_at_cycle s and a fraction later, each rounded down to whole" \
	"units."
check "the attested copy's MMRC holds exactly 8 hours ($latched units)" \
	[ "$latched" -eq $((28800 * 1000 / $(meter_count 0 -m unit_ms))) ]
gap=$((latched - latched_cc02))
check "its CC02 is not ahead of MMRC" [ "$gap" -ge 0 ]
check "its CC02 trails MMRC by the time before the power cycle ($gap units)" \
	[ "$gap" -le "$((mmrc_at_cycle + 1))" ]

step "A CAP for socket 1's PPIN offered to socket 0: intel_sdsi refuses it before the silicon sees it"
before=$(info 0 cap_failures.count)
updates=$(info 0 updates.available)
expect 5 intel_sdsi -d 0 -c "$work/socket1.cap"
explain "Exit status 5: a blob refused before it reached the socket; nothing" \
	"was written, so no attempt was spent."
check "no CAP failure counted (still $before)" [ "$(info 0 cap_failures.count)" -eq "$before" ]
check "no update used (still $updates)" [ "$(info 0 updates.available)" -eq "$updates" ]

step "A new CAP for socket 0 with one byte of its signature changed: the silicon rejects it, and the failure count goes up"
expect 0 sdsi-authority cap "$authority" --ppin "$ppin0" --feature AB01 \
	-o "$work/new.cap"
cp "$work/new.cap" "$work/tampered.cap"
size=$(stat -c %s "$work/tampered.cap")
flip_byte "$work/tampered.cap" $((size - 20))
printf 'byte %d of %d inverted, as cmp -l shows it:\n' $((size - 20)) "$size"
printf '$ cmp -l new.cap tampered.cap\n'
diff_line=$(cmp -l "$work/new.cap" "$work/tampered.cap")
printf '%s\n' "$diff_line"
read -r pos old new <<<"$diff_line"
explain "cmp -l prints one line per differing byte: its position counting" \
	"from 1, then the old and the new byte in octal.  Here byte $((pos - 1))" \
	"(from 0) went from $(printf '0x%02x' "0$old") to $(printf '0x%02x' "0$new"):" \
	"every bit inverted, in the signature."
check "exactly one byte differs" \
	[ "$(cmp -l "$work/new.cap" "$work/tampered.cap" | wc -l)" -eq 1 ]
before=$(info 0 cap_failures.count)
expect 6 intel_sdsi -d 0 -c "$work/tampered.cap"
after=$(info 0 cap_failures.count)
explain "Exit status 6: the socket itself rejected the CAP (its signature" \
	"does not verify), and counted the failure: an attempt is spent."
check "CAP failure count went from $before to $after" [ "$after" -eq $((before + 1)) ]
check "CONTENT_AUTH_ERROR is set" [ "$(info 0 auth_errors.content)" = true ]
expect 0 intel_sdsi -d 0 -i
