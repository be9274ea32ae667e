#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: Intel On Demand licensing on a two-socket emulated platform,
# told the way an operator lives it (docs/interface.md §4.2).  A licence
# authority is created here; the emulated silicon is fused with its root
# key; everything else runs inside `sdsi-emu run` (scripts/demo-inside.sh),
# so nothing on this machine changes.  Every step checks its exit status:
# the demo exits non-zero when the story does not go as told.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
export PATH="$build/emu:$build/tools:$build/tools/sdsi-authority:$PATH"

work=$(mktemp -d /tmp/sdsi-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT
authority="$work/authority"
state="$work/state"
mkdir -m 0700 "$state"

printf '\n### The licence authority creates its keys: a root key, and a licensor key the root will certify\n'
printf '$ sdsi-authority init %s\n' "$authority"
sdsi-authority init "$authority"
printf '(exit status 0)\n'

printf '\n### Starting an emulated 2-socket platform whose silicon trusts that root key (NVRAM in %s)\n' "$state"
printf '$ sdsi-emu run --sockets 2 --authority %s --state %s -- bash scripts/demo-inside.sh ...\n' \
	"$authority" "$state"
sdsi-emu run --sockets 2 --authority "$authority" --state "$state" -- \
	bash scripts/demo-inside.sh "$authority" "$work"

printf '\n### The emulator has exited: nothing is mounted here, the demo went as told\n'
