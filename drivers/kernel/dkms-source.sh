#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The source tree DKMS builds intel_sdsi from, and the one list of its
# files: drivers/kernel's dkms.conf with the policy it sources
# (dkms-policy.sh: which kernels get ours), Kbuild, glue and compile probes, the driver core
# (drivers/core/sdsi_mbox.[ch], sdsi_disc.[ch]) and the headers of include/sdsi/ the module
# and the core include: abi.h, bitfield.h, hw.h, le.h (the core's byte
# order), spdm_ioctl.h (the attestation transport's ABI), sysfs_files.h, and
# vsec_device.h (the VSEC device, shared with the rig's test module).
#   drivers/kernel/dkms-source.sh [--link] DEST
# Copies them into DEST (made afresh), as the intel-sdsi-dkms package ships
# them under /usr/src (debian/rules); --link makes symlinks into the
# repository instead, for a build that must write nothing into it
# (drivers/kernel/dkms-build.sh).
set -euo pipefail
mode="copy"
if [ "${1:-}" = "--link" ]; then
	mode="link"
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--link] DEST" >&2; exit 2; }
dest=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)

# repository path -> path in the DKMS tree (Kbuild adds -I$(src)/include).
files=(
	drivers/kernel/dkms.conf:dkms.conf
	drivers/kernel/dkms-policy.sh:dkms-policy.sh
	drivers/kernel/Kbuild:Kbuild
	drivers/kernel/sdsi_aux.c:sdsi_aux.c
	drivers/kernel/kcompat.sh:kcompat.sh
	drivers/kernel/kcompat-expected:kcompat-expected
	drivers/core/sdsi_mbox.c:sdsi_mbox.c
	drivers/core/sdsi_mbox.h:sdsi_mbox.h
	drivers/core/sdsi_disc.c:sdsi_disc.c
	drivers/core/sdsi_disc.h:sdsi_disc.h
	include/sdsi/abi.h:include/sdsi/abi.h
	include/sdsi/bitfield.h:include/sdsi/bitfield.h
	include/sdsi/hw.h:include/sdsi/hw.h
	include/sdsi/le.h:include/sdsi/le.h
	include/sdsi/spdm_ioctl.h:include/sdsi/spdm_ioctl.h
	include/sdsi/sysfs_files.h:include/sdsi/sysfs_files.h
	include/sdsi/vsec_device.h:include/sdsi/vsec_device.h
)
# Each compile probe kcompat.sh runs.
for probe in "$repo"/drivers/kernel/probes/*.c; do
	files+=("drivers/kernel/probes/${probe##*/}:probes/${probe##*/}")
done

rm -rf "$dest"
mkdir -p "$dest/include/sdsi" "$dest/probes"
for entry in "${files[@]}"; do
	from=$repo/${entry%%:*} to=$dest/${entry#*:}
	[ -f "$from" ] || { echo "$0: $from: no such file" >&2; exit 1; }
	if [ $mode = link ]; then
		ln -s "$from" "$to"
	else
		install -m 0644 "$from" "$to"
	fi
done
