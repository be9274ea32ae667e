# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Debian's bookworm kernels (6.1, and 6.12 from bookworm-backports) through
# the private apt of scripts/private-apt.sh, unpacked (never installed) with
# their headers into one root per release, WORK/img-RELEASE.  Sourced by
# rig/rig.sh, which boots them, and scripts/check-kernel-build.sh, which
# builds our module against them: both use the same roots, so whichever
# runs first fetches for the other.  The sourcing script sets $work and
# $apt_dir, has a log() and has run setup_private_apt.
#   kernel_release 6.1|6.12     the release (uname -r) apt offers
#   fetch_kernel RELEASE        WORK/img-RELEASE, up to date
#   fetch_dkms                  WORK/dkms-root: Debian 12's dkms, unpacked
# shellcheck disable=SC2154 # $work is the sourcing script's

# The release (uname -r) of a kernel generation, from Debian's metapackage.
kernel_release() {
	local version dep pattern
	if [ "$1" = 6.12 ]; then pattern='/bpo12/'; else pattern='$3 ~ /^6\.1\./'; fi
	version=$(apt-cache madison linux-image-amd64 | awk "$pattern {print \$3; exit}")
	[ -n "$version" ] || return 1
	dep=$(apt-cache depends "linux-image-amd64=$version" | awk '/Depends: linux-image-/ {print $2; exit}')
	[ -n "$dep" ] || return 1
	echo "${dep#linux-image-}"
}

# The packages a release's private root is made of, one "name version" a
# line: the image, the headers and what the headers depend on for a
# module build (their -common half and kbuild's programs).
kernel_packages() {
	local rel=$1 p
	{
		echo "linux-image-$rel-unsigned"
		echo "linux-headers-$rel"
		apt-cache depends "linux-headers-$rel" |
			awk '$1 == "Depends:" && ($2 ~ /^linux-headers-.*-common$/ || $2 ~ /^linux-kbuild-/) {print $2}'
	} | while read -r p; do
		echo "$p $(apt-cache policy "$p" | awk '$1 == "Candidate:" {print $2}')"
	done
}

# The image and headers of a release unpacked (never installed) into one
# private root, $work/img-REL (QEMU boots its boot/vmlinuz-REL).
fetch_kernel() {
	local rel=$1 list name version deb debs=()
	local root="$work/img-$rel"
	list=$(kernel_packages "$rel") || return 1
	[ "$(echo "$list" | wc -l)" -eq 4 ] && ! echo "$list" | grep -q -E ' (\(none\))?$' ||
		{ log "$rel: expected an image, headers, -common and kbuild, apt offers: $list"; return 1; }
	unpacked "$root" "$list" && return 0
	while read -r name version; do
		deb=$(download_deb "$name" "$version") || return 1
		debs+=("$deb")
	done <<<"$list"
	unpack_debs -f kernel_fixup "$root" "$list" "${debs[@]}"
}

# The packages expect to live at /: absolute symlinks (lib/modules/REL/
# build and source) and the headers' Makefile, which includes the -common
# half by its absolute path, are pointed into ROOT ($2, $work/img-REL),
# in PART ($1), the tree unpack_debs renames to ROOT.  Relative links
# (headers -> kbuild's scripts) already resolve inside.
kernel_fixup() {
	local part=$1 root=$2 link target rel makefile
	rel=${root##*/img-}
	makefile="$part/usr/src/linux-headers-$rel/Makefile"
	while IFS= read -r -d '' link; do
		target=$(readlink "$link")
		ln -sfn "$root$target" "$link" || return 1
	done < <(find "$part" -type l -lname '/*' -print0)
	grep -q '^include /usr/src/' "$makefile" ||
		{ log "$makefile: no 'include /usr/src/...' line to point into $root"; return 1; }
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$makefile"
}

# Debian's dkms, unpacked (never installed) into $work/dkms-root, for
# drivers/kernel/dkms-build.sh: the program is a shell script that runs from
# there as well as from /usr/sbin.
fetch_dkms() {
	local version deb root="$work/dkms-root"
	version=$(candidate_version dkms) || return 1
	unpacked "$root" "dkms $version" && [ -x "$root/usr/sbin/dkms" ] && return 0
	deb=$(download_deb dkms "$version") || return 1
	unpack_debs "$root" "dkms $version" "$deb"
}
