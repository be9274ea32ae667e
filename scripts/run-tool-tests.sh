#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the intel_sdsi pytest suite (tests/tool) against BUILD_DIR and print its
# summary.  Debian's python3 is used on purpose: it is the one with pytest.
# SDSI_PROMTOOL, if set, names the promtool to use instead of fetching one.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_build_dir BUILD_DIR "$@") || exit 2

ninja -C "$build" tools/intel_sdsi tools/sdsi-authority/sdsi-authority emu/sdsi-emu \
	shmem/sdsi-shmem >/dev/null
export SDSI_BUILD_DIR="$build"
# The promtool that checks --format prometheus: Debian's, unpacked into the
# build directory rather than installed (scripts/fetch-promtool.sh), unless
# the caller names one.
if [ -z "${SDSI_PROMTOOL:-}" ]; then
	SDSI_PROMTOOL=$("$sdsi_root/scripts/fetch-promtool.sh" "$build") ||
		{ echo "$0: cannot fetch promtool (see above)" >&2; exit 1; }
fi
export SDSI_PROMTOOL
cd "$sdsi_root"
sdsi_pytest_tmp "$build" tool
# The tests share nothing: on every core (scripts/lib.sh).
sdsi_pytest_workers || exit 2
/usr/bin/python3 -m pytest -q -p no:cacheprovider "${sdsi_workers[@]}" --basetemp="$sdsi_tmp" tests/tool
