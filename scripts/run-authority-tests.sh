#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the sdsi-authority pytest suite (tests/authority) against BUILD_DIR.
# Debian's python3 is used on purpose: it has pytest and python3-cryptography,
# the independent ECDSA implementation the tests check our files with.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)

ninja -C "$build" tools/sdsi-authority/sdsi-authority >/dev/null
export SDSI_BUILD_DIR="$build"
cd "$here"
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/authority
