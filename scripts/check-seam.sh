#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The FUSE driver reaches its sockets only through the driver core's
# transport seam (struct sdsi_mbox_ops), so that any backend can serve
# them: the in-process model, sdsi-shmem's window, a real MMIO region.
# Fails, naming the line, if drivers/fuse/ depends on the model in its build
# or names the model in its code.  Run by `meson test` (fusedrv_seam).
#   check-seam.sh [SOURCE_ROOT]
set -u

root=${1:-$(dirname "$0")/..}
dir="$root/drivers/fuse"
[ -f "$dir/meson.build" ] || { echo "check-seam: no $dir/meson.build" >&2; exit 2; }

status=0
# Build: no model library, no include path into model/.
if grep -nE "model_dep|model_lib|'[^']*model'|include_directories\([^)]*model" \
	"$dir/meson.build"; then
	echo "check-seam: drivers/fuse/meson.build depends on the model (above)" >&2
	status=1
fi
# Code: no model header, no model function or type.
if grep -nE '#include *[<"][^>"]*(sdsi_model|model_priv)\.h|sdsi_model_|struct sdsi_model\b' \
	"$dir"/*.c "$dir"/*.h; then
	echo "check-seam: drivers/fuse/ reaches into the model (above); go through struct sdsi_mbox_ops" >&2
	status=1
fi
[ $status -eq 0 ] && echo "check-seam: drivers/fuse/ builds on drivers/core/ only"
exit $status
