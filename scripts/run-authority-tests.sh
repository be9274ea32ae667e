#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the sdsi-authority pytest suite (tests/authority) against BUILD_DIR.
# Debian's python3 is used on purpose: it has pytest and python3-cryptography,
# the independent ECDSA implementation the tests check our files with.
# The tests share nothing (each its own tmp_path), so pytest-xdist runs
# them on the machine's cores (scripts/lib.sh, sdsi_pytest_workers).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_build_dir BUILD_DIR "$@") || exit 2

ninja -C "$build" tools/sdsi-authority/sdsi-authority >/dev/null
export SDSI_BUILD_DIR="$build"
cd "$sdsi_root"
sdsi_pytest_tmp "$build" authority
sdsi_pytest_workers || exit 2
/usr/bin/python3 -m pytest -q -p no:cacheprovider "${sdsi_workers[@]}" --basetemp="$sdsi_tmp" \
	tests/authority
