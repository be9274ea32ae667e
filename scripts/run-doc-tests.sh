#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command blocks of README.md and docs/*.md, run as written against
# BUILD_DIR's programs (tests/docs; the convention is README's "Docs that
# run").  Debian's python3 is used on purpose: it is the one with pytest.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)

ninja -C "$build" emu/sdsi-emu tools/intel_sdsi tools/sdsi-authority/sdsi-authority \
	shmem/sdsi-shmem >/dev/null
export SDSI_BUILD="$build"
export PYTHONDONTWRITEBYTECODE=1
cd "$here"
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/docs
