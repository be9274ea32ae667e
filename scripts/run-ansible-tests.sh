#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the Ansible collection's tests (tests/ansible) against BUILD_DIR: eight
# hosts in network namespaces, each a Dropbear inside its own sdsi-emu, driven
# by Debian's ansible-playbook.  Needs root and /dev/fuse.  pytest's
# temporary files go under BUILD_DIR (scripts/lib.sh) and are removed
# afterwards, whatever the outcome; the fixtures themselves end every
# process and namespace.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(sdsi_build_dir BUILD_DIR "$@") || exit 2

ninja -C "$build" tools/intel_sdsi tools/sdsi-authority/sdsi-authority emu/sdsi-emu >/dev/null
export SDSI_BUILD_DIR="$build"
export PYTHONDONTWRITEBYTECODE=1
sdsi_pytest_tmp "$build" ansible
cd "$sdsi_root"
timeout --kill-after=10 900 /usr/bin/python3 -m pytest -q -p no:cacheprovider \
	--basetemp="$sdsi_tmp" tests/ansible
