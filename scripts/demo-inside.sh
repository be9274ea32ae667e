#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The body of `make demo`, run inside `sdsi-emu run`.
set -uo pipefail
devs=/sys/bus/auxiliary/devices
step() { printf '\n### %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; printf '(exit status %d)\n' $?; }

step "The devices Linux would show, and their files"
run ls -l "$devs/" "$devs/intel_vsec.sdsi.0/"

step "Inventory: what each socket reports"
run intel_sdsi -l
run intel_sdsi -d 0 -i
run intel_sdsi -d 1 -i --json

step "State certificate of a CPU with no key and no licence yet"
run intel_sdsi -d 0 -s

step "Live meter (meter_current)"
run intel_sdsi -d 0 -C

step "Provisioning a blob the silicon cannot authenticate: refused, and the AKC failure count goes up"
head -c 200 /dev/urandom > /tmp/demo-akc.bin
run intel_sdsi -d 0 -a /tmp/demo-akc.bin
run intel_sdsi -d 0 -i

step "The out-of-band agent (BMC) takes the mailbox: in-band reads get EBUSY"
run sdsi-emu ctl fault 0 oob-owner
run head -c 16 "$devs/intel_vsec.sdsi.0/state_certificate"
run sdsi-emu ctl clear 0

step "A cold power cycle resets the per-boot counters; NVRAM (the PPIN) survives"
run sdsi-emu ctl power-cycle 0
run intel_sdsi -d 0 -i
