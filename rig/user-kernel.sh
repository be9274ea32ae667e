#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The rig's "user" configuration: check what a user hands make check-kernel
# and say what the rig boots.  Reads from the environment:
#   KERNEL_IMAGE   a bzImage (make bzImage's arch/x86/boot/bzImage, or
#                  Debian's /boot/vmlinuz-REL); its release (uname -r) is
#                  read from the image's setup header.
#   KERNEL_MODULES a directory holding lib/modules/REL for that release, as
#                  make modules_install INSTALL_MOD_PATH=DIR or dpkg -x of a
#                  Debian image makes it; needed with KERNEL_IMAGE: the
#                  guest loads 9p, virtio and overlay from it, and the
#                  kernel's own intel_sdsi unless DRIVER_MODULE is given.
#   KERNEL_BUILD   the kernel's build tree (or headers) that the rig's
#                  sdsi_window.ko is built against; default
#                  KERNEL_MODULES/lib/modules/REL/build (an absolute link
#                  is looked for under KERNEL_MODULES if absent on the host).
#   DRIVER_MODULE  an intel_sdsi.ko to test in place of the kernel's; its
#                  vermagic must name the kernel's release.  Alone, it runs
#                  on the rig's Debian kernel of that release.
#   KERNEL_PART    v1 or v2, the part the model plays (default: v2 for a
#                  driver of the current ABI, v1 for an early one).
# Prints shell assignments (user_rel, user_image, user_moddir, user_build,
# user_driver, user_abi, user_part) for rig/rig.sh; on bad input prints
# "check-kernel: VARIABLE=value: reason" and exits 2.
#   rig/user-kernel.sh
set -uo pipefail

KERNEL_IMAGE=${KERNEL_IMAGE-} KERNEL_MODULES=${KERNEL_MODULES-}
KERNEL_BUILD=${KERNEL_BUILD-} DRIVER_MODULE=${DRIVER_MODULE-}
KERNEL_PART=${KERNEL_PART-}

bad() { echo "check-kernel: $*" >&2; exit 2; }

# A file the user named: it must be a readable regular file.
user_file() {
	local var=$1 path=$2
	[ -e "$path" ] || bad "$var=$path: no such file"
	[ -f "$path" ] || bad "$var=$path: not a regular file"
	[ -r "$path" ] || bad "$var=$path: not readable"
}

# The release of a bzImage: the setup header ("HdrS" at 0x202) points at
# the version string (u16 at 0x20e, relative to 0x200), whose first word is
# what uname -r prints.
image_release() {
	local img=$1 magic off
	magic=$(od -An -c -j 0x202 -N4 "$img" 2>/dev/null | tr -d ' ')
	[ "$magic" = HdrS ] || return 1
	off=$(od -An -tu2 -j 0x20e -N2 "$img" | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	dd if="$img" bs=1 skip=$((off + 0x200)) count=256 status=none |
		tr '\0' '\n' | head -1 | awk '{print $1}'
}

# A module's contents, decompressed (Debian's 6.12 ships .ko.xz).
module_bytes() {
	case "$1" in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

# The first module NAME under DIR (any compression), or nothing.
find_module() {
	find "$1" -name "$2.ko" -o -name "$2.ko.*" 2>/dev/null | head -1
}

rel='' image='' moddir='' kbuild='' driver='' abi='' part=''

if [ -n "$KERNEL_IMAGE" ]; then
	user_file KERNEL_IMAGE "$KERNEL_IMAGE"
	image=$(realpath "$KERNEL_IMAGE")
	rel=$(image_release "$image")
	[ -n "$rel" ] ||
		bad "KERNEL_IMAGE=$KERNEL_IMAGE: not an x86 bzImage (no HdrS setup header naming a release)"
	[ -n "$KERNEL_MODULES" ] ||
		bad "KERNEL_IMAGE=$KERNEL_IMAGE: KERNEL_MODULES is needed too: the directory holding lib/modules/$rel (make modules_install INSTALL_MOD_PATH=DIR)"
	[ -d "$KERNEL_MODULES" ] || bad "KERNEL_MODULES=$KERNEL_MODULES: no such directory"
	root=$(realpath "$KERNEL_MODULES")
	moddir="$root/lib/modules/$rel"
	if [ ! -d "$moddir" ]; then
		have=$(ls "$root/lib/modules" 2>/dev/null | paste -sd " " -)
		bad "KERNEL_MODULES=$KERNEL_MODULES: no lib/modules/$rel for the release of $KERNEL_IMAGE (it holds: ${have:-no lib/modules at all})"
	fi
	# What the guest's initramfs loads: a module, or built into the kernel.
	for m in 9p 9pnet_virtio virtio_pci overlay; do
		[ -n "$(find_module "$moddir" "$m")" ] && continue
		grep -q -E "/$m\.ko\$" "$moddir/modules.builtin" 2>/dev/null && continue
		bad "KERNEL_MODULES=$KERNEL_MODULES: lib/modules/$rel has no $m module and modules.builtin does not list it (the guest needs 9p, virtio and overlay)"
	done
	# The build tree: given, or the modules' build link.
	kbuild=$KERNEL_BUILD
	if [ -z "$kbuild" ]; then
		kbuild="$moddir/build"
		link=$(readlink "$kbuild" 2>/dev/null)
		case "$link" in
		/*) [ -e "$link" ] || [ ! -e "$root$link" ] || kbuild="$root$link" ;;
		esac
		[ -e "$kbuild" ] ||
			bad "KERNEL_MODULES=$KERNEL_MODULES: lib/modules/$rel/build${link:+ -> $link} does not exist; give KERNEL_BUILD=the kernel's build tree"
	fi
	[ -f "$kbuild/Makefile" ] || bad "KERNEL_BUILD=$kbuild: no Makefile (not a kernel build tree)"
	uts=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$kbuild/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$uts" ] ||
		bad "KERNEL_BUILD=$kbuild: no include/generated/utsrelease.h (a tree not yet built, or not prepared with make modules_prepare)"
	[ "$uts" = "$rel" ] ||
		bad "KERNEL_BUILD=$kbuild: built for release $uts, but $KERNEL_IMAGE is $rel"
	kbuild=$(realpath "$kbuild")
elif [ -n "$KERNEL_MODULES" ] || [ -n "$KERNEL_BUILD" ]; then
	bad "KERNEL_MODULES/KERNEL_BUILD without KERNEL_IMAGE: give the kernel they belong to"
fi

if [ -n "$DRIVER_MODULE" ]; then
	user_file DRIVER_MODULE "$DRIVER_MODULE"
	driver=$(realpath "$DRIVER_MODULE")
	vermagic=$(modinfo -F vermagic "$driver" 2>/dev/null)
	[ -n "$vermagic" ] ||
		bad "DRIVER_MODULE=$DRIVER_MODULE: not a kernel module (modinfo finds no vermagic)"
	name=$(modinfo -F name "$driver" 2>/dev/null)
	[ "$name" = intel_sdsi ] ||
		bad "DRIVER_MODULE=$DRIVER_MODULE: module '${name:-?}', expected intel_sdsi (the auxiliary driver of intel_vsec.sdsi devices)"
	modrel=${vermagic%% *}
	if [ -n "$rel" ] && [ "$modrel" != "$rel" ]; then
		bad "DRIVER_MODULE=$DRIVER_MODULE: built for release $modrel (vermagic '$vermagic'), but KERNEL_IMAGE=$KERNEL_IMAGE is $rel"
	fi
	rel=$modrel
	abi_of=$driver
elif [ -n "$moddir" ]; then
	abi_of=$(find_module "$moddir" intel_sdsi)
	[ -n "$abi_of" ] ||
		bad "KERNEL_MODULES=$KERNEL_MODULES: lib/modules/$rel has no intel_sdsi module (CONFIG_INTEL_SDSI=m); build it or give DRIVER_MODULE"
else
	bad "nothing to test: give KERNEL_IMAGE and KERNEL_MODULES, DRIVER_MODULE, or both"
fi

# The ABI the driver serves, from the attribute names in its code: the
# current one has meter_current, the early one (Linux 6.1) has not.  (A
# count, not grep -q: an early exit would fail the pipe under pipefail.)
hits=$(module_bytes "$abi_of" | grep -a -c meter_current)
if [ "${hits:-0}" -gt 0 ]; then abi=current; else abi=early; fi
part=$KERNEL_PART
[ -n "$part" ] || { [ "$abi" = current ] && part=v2 || part=v1; }
case "$part" in
v1 | v2) ;;
*) bad "KERNEL_PART=$part: expected v1 or v2" ;;
esac

printf 'user_%s=%q\n' rel "$rel" image "$image" moddir "$moddir" build "$kbuild" \
	driver "$driver" abi "$abi" part "$part"
