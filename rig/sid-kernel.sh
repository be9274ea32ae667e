#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Debian unstable's kernel for the rig's "sid" configuration: the newest
# upstream intel_sdsi.  Its image and modules come through a private apt
# of their own (WORK/apt-sid, scripts/private-apt.sh: the bookworm lists
# of the other kernels stay as they are).  No module can be built against
# it with Debian 12's tools (its headers want gcc 16, its kbuild programs
# glibc 2.38), so modules are built in a root of unstable, WORK/sid-root,
# made by debootstrap with the kernel's headers and compiler installed in
# it, and unstable's dkms (drivers/kernel/dkms-build.sh runs it there, its
# trees under WORK, as the rig runs bookworm's for the other kernels).  Commands run there through chroot in a private mount namespace
# (unshare -m): /proc, /dev, the repository and the build directory are
# bind-mounted at their own paths for the command's life and never on the
# host.  Nothing outside WORK changes.
#   rig/sid-kernel.sh fetch WORK          unpack image, prepare the root;
#                                            prints the release (uname -r)
#   rig/sid-kernel.sh headers WORK SUITE  the headers of SUITE's kernel
#                                            (experimental: 7.3) installed
#                                            in the same root, for builds
#                                            only; prints the release
#   rig/sid-kernel.sh run WORK DIR... -- CMD [ARG]...
#                                            CMD in the root, DIRs mounted
set -uo pipefail

log() { echo "kernel-rig: sid: $*" >&2; }
die() { log "$*"; exit 1; }

[ $# -ge 2 ] || { echo "usage: $0 fetch|headers|run WORK ..." >&2; exit 2; }
cmd=$1 work=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
root="$work/sid-root"
# shellcheck source=scripts/private-apt.sh
. "$repo/scripts/private-apt.sh"
apt_dir="$work/apt-sid"

# The host's Debian mirror (it carries every suite), else Debian's own.
mirror() {
	local m
	m=$(host_mirror unstable)
	[ -n "$m" ] || m=$(host_mirror bookworm)
	echo "${m:-http://deb.debian.org/debian}"
}

# CMD in the root, with /proc, /dev and each DIR mounted at its own path;
# the mounts live in a namespace of their own and end with it.
in_root() {
	local dirs=() d
	while [ $# -gt 0 ] && [ "$1" != -- ]; do dirs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	for d in "${dirs[@]}"; do mkdir -p "$root$d" || return 1; done
	SDSI_ROOT=$root unshare -m --propagation private -- /bin/bash -c '
		set -e
		root=$SDSI_ROOT n=$1
		shift
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		for ((i = 0; i < n; i++)); do
			mount --bind "$1" "$root$1"
			shift
		done
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' in_root "${#dirs[@]}" "${dirs[@]}" "$@"
}

# The root of unstable, bootstrapped once (the stamp names its mirror);
# made beside and renamed into place so that a run cut short is redone.
bootstrap_root() {
	local m
	m=$(mirror)
	[ "$(cat "$root/.sdsi-bootstrap" 2>/dev/null)" = "$m" ] && return 0
	rm -rf "$root" "$root.part"
	log "debootstrap --variant=minbase unstable $root ($m)"
	debootstrap --variant=minbase unstable "$root.part" "$m" >"$work/sid-debootstrap.log" 2>&1 ||
		{ tail -20 "$work/sid-debootstrap.log" >&2; log "debootstrap failed (see $work/sid-debootstrap.log)"; return 1; }
	echo "$m" >"$root.part/.sdsi-bootstrap"
	mv "$root.part" "$root"
}

# The headers of release $1 at version $2, and what builds modules against
# them (the compiler they name comes with them; dkms for the DKMS build),
# installed in the root.  The stamp names them all, so a rerun installs
# nothing and a root made before dkms was wanted gets it once.
root_headers() {
	local rel=$1 version=$2 want
	want="linux-headers-$rel=$version make sparse dkms"
	[ "$(cat "$root/.sdsi-headers" 2>/dev/null)" = "$want" ] && return 0
	log "installing $want in $root"
	# The host's settings for reaching its mirror (a proxy, or a frozen
	# mirror whose Release files are past their Valid-Until) hold in the
	# root too, as they do for the private apt, which reads them.
	env -u APT_CONFIG apt-config dump |
		grep -i -E '^Acquire::(Check-Valid-Until|Check-Date|[a-z]+::Proxy[^ ]*) ' \
		>"$root/etc/apt/apt.conf.d/99sdsi-host" || :
	# shellcheck disable=SC2086 # the list is words
	in_root -- sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $want" >&2 ||
		{ log "cannot install $want in $root"; return 1; }
	in_root -- apt-get clean >&2
	echo "$want" >"$root/.sdsi-headers"
}

# The headers of release $2 at version $3 from suite $1 (experimental, for
# scripts/check-kernel-build.sh) installed beside unstable's: the suite is
# added to the root's sources (apt picks its packages only when named, and
# the headers' own -common and kbuild exist nowhere else), with a stamp of
# its own so that the rig's stamp and headers stay as they are.
suite_headers() {
	local suite=$1 rel=$2 version=$3 want
	want="linux-headers-$rel=$version"
	[ "$(cat "$root/.sdsi-headers-$suite" 2>/dev/null)" = "$want" ] && return 0
	log "installing $want ($suite) in $root"
	echo "deb $(mirror) $suite main" >"$root/etc/apt/sources.list.d/sdsi-$suite.list" || return 1
	in_root -- sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $want make sparse" >&2 ||
		{ log "cannot install $want in $root"; return 1; }
	in_root -- apt-get clean >&2
	echo "$want" >"$root/.sdsi-headers-$suite"
}

# The release of unstable's linux-image-amd64 and its version.
release() {
	local version dep
	version=$(candidate_version linux-image-amd64) || return 1
	dep=$(apt-cache depends "linux-image-amd64=$version" |
		awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	[ -n "$dep" ] || { log "linux-image-amd64 $version depends on no linux-image-REL"; return 1; }
	echo "${dep#linux-image-}"
}

# The kernel, its modules and their lists (linux-image-REL is now an empty
# package over linux-binary-REL, linux-modules-REL and linux-base-REL;
# before, one -unsigned package held them) unpacked into WORK/img-REL.
fetch_image() {
	local rel=$1 p version list='' debs=() deb
	for p in "linux-binary-$rel" "linux-modules-$rel" "linux-base-$rel"; do
		version=$(candidate_version "$p") || return 1
		list+="$p $version"$'\n'
	done
	unpacked "$work/img-$rel" "$list" && return 0
	while read -r p version; do
		[ -n "$p" ] || continue
		deb=$(download_deb "$p" "$version") || return 1
		debs+=("$deb")
	done <<<"$list"
	fix_layout_rel=$rel
	unpack_debs -f fix_layout "$work/img-$rel" "$list" "${debs[@]}"
}

# The packages put everything under usr/lib/modules/REL, the kernel too;
# the rig looks for boot/vmlinuz-REL and lib/modules/REL, as the older
# packages and an installed system (merged /usr) have them.
fix_layout() {
	local part=$1 rel=$fix_layout_rel
	[ -f "$part/usr/lib/modules/$rel/vmlinuz" ] && [ -d "$part/usr/lib/modules/$rel/kernel" ] ||
		{ log "$part: no usr/lib/modules/$rel/vmlinuz or kernel/ in the packages"; return 1; }
	mkdir -p "$part/boot" &&
		ln -s ../usr/lib/modules/"$rel"/vmlinuz "$part/boot/vmlinuz-$rel" &&
		ln -s usr/lib "$part/lib"
}

case "$cmd" in
fetch)
	[ $# -eq 0 ] || { echo "usage: $0 fetch WORK" >&2; exit 2; }
	mkdir -p "$work" || exit 1
	setup_private_apt unstable || die "cannot set up the private apt in $apt_dir"
	rel=$(release) || exit 1
	hversion=$(candidate_version "linux-headers-$rel") || exit 1
	fetch_image "$rel" || die "$rel: cannot fetch the image or modules"
	bootstrap_root || exit 1
	root_headers "$rel" "$hversion" || exit 1
	echo "$rel"
	;;
headers)
	[ $# -eq 1 ] || { echo "usage: $0 headers WORK SUITE" >&2; exit 2; }
	suite=$1
	mkdir -p "$work" || exit 1
	apt_dir="$work/apt-$suite"
	setup_private_apt "$suite" || die "cannot set up the private apt in $apt_dir"
	rel=$(release) || exit 1
	hversion=$(candidate_version "linux-headers-$rel") || exit 1
	bootstrap_root || exit 1
	suite_headers "$suite" "$rel" "$hversion" || exit 1
	echo "$rel"
	;;
run)
	[ -d "$root/usr" ] || die "no root of unstable in $root (run: $0 fetch $work)"
	in_root "$@"
	;;
*)
	echo "usage: $0 fetch|headers|run WORK ..." >&2
	exit 2
	;;
esac
