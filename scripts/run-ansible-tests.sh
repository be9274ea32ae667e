#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the Ansible collection's tests (tests/ansible) against BUILD_DIR: eight
# hosts in network namespaces, each a Dropbear inside its own sdsi-emu, driven
# by Debian's ansible-playbook.  Needs root and /dev/fuse.  pytest's
# temporary files go under BUILD_DIR and are removed afterwards, whatever
# the outcome; the fixtures themselves end every process and namespace.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)

ninja -C "$build" tools/intel_sdsi tools/sdsi-authority/sdsi-authority emu/sdsi-emu >/dev/null
export SDSI_BUILD_DIR="$build"
export PYTHONDONTWRITEBYTECODE=1
tmp="$build/ansible-tests"
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
cd "$here"
timeout --kill-after=10 900 /usr/bin/python3 -m pytest -q -p no:cacheprovider \
	--basetemp="$tmp" tests/ansible
