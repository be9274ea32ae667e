#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the rig's initramfs (busybox): load what 9p needs, mount the
# host's root read-only under a tmpfs overlay (the guest writes its own
# /lib/modules and /etc/modprobe.d, as a real machine does, and the host
# sees none of it) and the results export writable, then run
# rig/guest-run.sh, which runs each configuration of the boot, in a
# chroot of that userland.  Powers off in every case; the host reads the
# outcome from the results export.
PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" 2>/dev/null || echo "init: insmod $m failed"
done
mkdir -p /host /hosttmp /lower /rw
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /lower; then
	echo "init: cannot mount the host root"
	poweroff -f
fi
mount -t tmpfs rw /rw
mkdir -p /rw/upper /rw/work
if ! mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work \
	root /host; then
	echo "init: cannot mount the overlay root"
	poweroff -f
fi
# The guest needs a writable /tmp, but the tree under test may itself live
# in the host's /tmp (a CI clone): keep a view of the host's /tmp to bind
# those paths back over the tmpfs.
mount -o bind /lower/tmp /hosttmp
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mount -t tmpfs tmp /host/tmp
mkdir -p /host/tmp/results
mount -t 9p -o trans=virtio,version=9p2000.L results /host/tmp/results
. /host/tmp/results/config.env
for path in "$SDSI_REPO" "$SDSI_BUILD"; do
	case "$path" in
	/tmp/*)
		mkdir -p "/host$path"
		mount -o bind "/hosttmp/${path#/tmp/}" "/host$path" ||
			echo "init: cannot show the host's $path"
		;;
	esac
done
chroot /host /bin/bash "$SDSI_REPO/rig/guest-run.sh" \
	>/host/tmp/results/guest.log 2>&1
status=$?
echo "init: guest-run exited $status"
# guest-run.sh writes each configuration's status; for those it did not
# reach, say so here.
for k in $SDSI_CONFIGS; do
	[ -f "/host/tmp/results/$k/status" ] ||
		echo "fail: rig/guest-run.sh exited $status before writing a status" \
			>"/host/tmp/results/$k/status"
done
sync
umount /host/tmp/results
poweroff -f
