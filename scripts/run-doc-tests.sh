#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command blocks of README.md and docs/*.md, run as written against
# BUILD_DIR's programs (tests/docs; the convention is README's "Docs that
# run").  Debian's python3 is used on purpose: it is the one with pytest.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_build_dir BUILD_DIR "$@") || exit 2

ninja -C "$build" emu/sdsi-emu tools/intel_sdsi tools/sdsi-authority/sdsi-authority \
	shmem/sdsi-shmem >/dev/null
export SDSI_BUILD="$build"
export PYTHONDONTWRITEBYTECODE=1
cd "$sdsi_root"
sdsi_pytest_tmp "$build" docs
/usr/bin/python3 -m pytest -q -p no:cacheprovider --basetemp="$sdsi_tmp" tests/docs
