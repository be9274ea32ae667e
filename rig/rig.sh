#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel rig: boot Debian's own kernels under QEMU (TCG) with their
# unmodified intel_sdsi.ko bound to sdsi_window devices, play the hardware
# with sdsi-shmem on the host through the guest's RAM file, run the
# conformance suite and intel_sdsi's tests in the guest, and fail if any
# test of a configuration's run failed or a guest did not come back.  Each
# configuration runs once, and that run is its verdict: nothing is rerun.
#   rig/rig.sh BUILD_DIR [CONFIG]...   (see configs below; default: all)
# CONFIG "user" is the kernel and/or driver a user built, named by
# KERNEL_IMAGE, KERNEL_MODULES, KERNEL_BUILD, DRIVER_MODULE (see
# rig/user-kernel.sh); user-driver and user-kernel test that path with
# our module built as a user would and with a Debian image as a local path.
# Nothing is installed on the host: the kernels are downloaded through a
# private apt (BUILD_DIR/kernel-rig/apt) and unpacked, with their headers,
# into BUILD_DIR/kernel-rig/img-RELEASE; the results of each configuration
# go to BUILD_DIR/kernel-rig/results-CONFIG.
set -uo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [CONFIG]... (see configs in $0)" >&2
	exit 2
fi
build=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no build directory '$1'" >&2; exit 2; }
shift
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] ||
	wanted=(6.12 6.1 6.1-v2 6.12-sdsi 6.1-sdsi-v2 6.1-sdsi 6.12-dkms 6.12-dkms-optin 6.1-dkms
		sid sid-barid sid-sdsi
		user-driver user-kernel)
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/private-apt.sh
. "$repo/scripts/private-apt.sh"
work="$build/kernel-rig"
mkdir -p "$work"
# The download cache of the rig before its private apt.
rm -rf "$work/debs"
guest_limit=${SDSI_RIG_TIMEOUT:-600}
# A user's own script, run as root in each guest after each
# configuration's suites (rig/guest-script.sh); its verdict is the
# configuration's script= word, and a failing script fails it.
guest_script=
if [ -n "${SDSI_RIG_GUEST_SCRIPT-}" ]; then
	[ -f "$SDSI_RIG_GUEST_SCRIPT" ] && [ -r "$SDSI_RIG_GUEST_SCRIPT" ] || {
		echo "kernel-rig: SDSI_RIG_GUEST_SCRIPT=$SDSI_RIG_GUEST_SCRIPT: no readable file" >&2
		exit 2
	}
	guest_script=$(realpath "$SDSI_RIG_GUEST_SCRIPT") || exit 2
fi
# Debian's 6.12 crashed early in boot under QEMU 7.2's multi-threaded TCG
# (an int3 Oops in sched_clock_cpu: code patched on one vCPU while another
# ran it), so both vCPUs share one host thread (SDSI_RIG_TCG_OPTS
# overrides).  That is also why the hardware is played from the host: a
# poller inside the guest waits for the driver's vCPU to yield, and its
# P-384 verification runs emulated, some 50 ms, where Linux 6.1's driver
# waits 2 ms for RDY.  On the host it answers in microseconds and verifies
# natively in about 1 ms.
tcg_opts=${SDSI_RIG_TCG_OPTS-,thread=single}
# The doorbell (window/doorbell.h): QEMU's sdsi-doorbell plugin hands each
# driver store in the window to sdsi-shmem and waits for the model's answer,
# so no driver deadline depends on when the host runs a poller.
# SDSI_RIG_DOORBELL=0 goes back to a spinning poller (for comparison).
doorbell=${SDSI_RIG_DOORBELL:-1}
ram_mb=1024
ram_dir=${SDSI_RIG_RAM_DIR:-/dev/shm}
phys=0x10000000
# The 9p modules in an order that satisfies both kernels' dependencies
# (6.12 has virtio_pci built in and its 9pnet needs netfs); overlay gives
# the guest a writable root over the host's read-only one.
initrd_modules=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
	virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay)

log() { echo "kernel-rig: $*" >&2; }
# Where the rig's time goes: each phase (set-up, and per configuration its
# fetch, build and guest) ends with "kernel-rig: phase NAME took N s".
rig_t0=$SECONDS phase_t0=$SECONDS
phase_begin() { phase_t0=$SECONDS; }
phase_end() { log "phase $1 took $((SECONDS - phase_t0)) s"; }
die() { log "$*"; exit 1; }

# A constant of the shared window, read from the one header that defines it.
window_const() {
	local v
	v=$(sed -n "s/^#define $1[[:space:]]\{1,\}\(0x[0-9a-fA-F]\{1,\}\|[0-9]\{1,\}\)u\{0,1\}\b.*/\1/p" \
		"$repo/include/sdsi/window.h")
	[ -n "$v" ] || die "include/sdsi/window.h does not define $1"
	echo $((v))
}

[ -x "$build/shmem/sdsi-shmem" ] || die "$build/shmem/sdsi-shmem is not built"
plugin="$build/window/libsdsi-doorbell.so"
[ "$doorbell" = 0 ] || [ -f "$plugin" ] || die "$plugin is not built"
[ -x "$build/tools/intel_sdsi" ] || die "$build/tools/intel_sdsi is not built"
[ -x "$build/rig/sdsi-stallmon" ] || die "$build/rig/sdsi-stallmon is not built"
[ -x "$build/tools/sdsi-authority/sdsi-authority" ] ||
	die "$build/tools/sdsi-authority/sdsi-authority is not built"
"$repo/scripts/ensure-deps.sh" --kernel || die "missing packages"

# ---- Kernels through a private apt ----------------------------------------
# Debian's kernels come through an apt of the rig's own, entirely under
# $work/apt: its own sources, package lists, cache and an empty dpkg status,
# so nothing is installed and nothing under /etc or /var/lib changes.  The
# packages are only downloaded and unpacked (dpkg -x) into one private root
# per kernel release, and the test module is built against the headers
# unpacked there.  The host's /etc/apt is only read: for the mirror it
# already uses and, through apt.conf.d, for settings such as a proxy.
apt_dir="$work/apt"
# kernel_release, fetch_kernel, fetch_dkms: shared with
# scripts/check-kernel-build.sh.
# shellcheck source=rig/debian-kernels.sh
. "$repo/rig/debian-kernels.sh"

# A module of a modules tree ($1: lib/modules/REL), decompressed (busybox
# insmod takes plain ELF), copied to DIR; false if absent.
copy_module() {
	local mods=$1 name=$2 dir=$3 path
	path=$(find "$mods/kernel" \( -name "$name.ko" -o -name "$name.ko.*" \) | head -1)
	[ -n "$path" ] || return 1
	case "$path" in
	*.xz) xz -dc "$path" >"$dir/$name.ko" ;;
	*.zst) zstd -qdc "$path" >"$dir/$name.ko" ;;
	*.gz) gzip -dc "$path" >"$dir/$name.ko" ;;
	*) cp "$path" "$dir/$name.ko" ;;
	esac || die "$path: cannot decompress it"
}

# Our intel_sdsi against a Debian release's headers, for the driver=sdsi
# configurations: built with W=1 and sparse, any warning fails; and as
# DKMS builds it (drivers/kernel/dkms.conf), in the rig's tree.  For
# unstable's kernel ($2 = sid) both run in its root, DKMS with the root's
# own dkms (unstable's: bookworm's runs on the host for the others), its
# trees under $work/dkms-REL all the same.
build_ours() {
	local rel=$1
	if [ "${2-}" = sid ]; then
		"$repo/rig/sid-kernel.sh" run "$work" "$repo" "$work" -- \
			"$repo/drivers/kernel/build.sh" "/usr/src/linux-headers-$rel" \
			"$work/sdsi-$rel" || return 1
		"$repo/rig/sid-kernel.sh" run "$work" "$repo" "$work" -- \
			"$repo/drivers/kernel/dkms-build.sh" --all-kernels /usr/sbin/dkms \
			"/usr/src/linux-headers-$rel" "$rel" "$work/dkms-$rel" >&2
		return
	fi
	"$repo/drivers/kernel/build.sh" "$work/img-$rel/usr/src/linux-headers-$rel" \
		"$work/sdsi-$rel" || return 1
	"$repo/drivers/kernel/dkms-build.sh" --all-kernels "$work/dkms-root/usr/sbin/dkms" \
		"$work/img-$rel/usr/src/linux-headers-$rel" "$rel" "$work/dkms-$rel" >&2
}

# The initramfs of KEY (a release, or user-REL): busybox, the modules that
# mount the host's root over 9p with a writable overlay, and /init; and the
# test module sdsi_window.ko built against the kernel's build tree KBUILD
# into $work/mod-KEY (KBUILD "sid": in the root of unstable, whose headers
# need its own compiler and C library, rig/sid-kernel.sh).  MODS is the
# kernel's lib/modules/REL.
build_initrd() {
	local key=$1 mods=$2 kbuild=$3 root m
	root="$work/initrd-$key"
	rm -rf "$root" "$work/mod-$key"
	mkdir -p "$root"/{bin,proc,sys,dev,modules} "$work/mod-$key"
	cp "$repo/rig/sdsi_window.c" "$repo/rig/sdsi_bad_disc.c" "$repo/rig/Kbuild" \
		"$work/mod-$key/"
	mkdir -p "$work/mod-$key/sdsi"
	cp "$repo/include/sdsi/hw.h" "$repo/include/sdsi/window.h" \
		"$repo/include/sdsi/window_vsec.h" "$repo/include/sdsi/vsec_device.h" \
		"$work/mod-$key/sdsi/"
	if [ "$kbuild" = sid ]; then
		"$repo/rig/sid-kernel.sh" run "$work" "$work/mod-$key" -- \
			make -s -C "/usr/src/linux-headers-$key" M="$work/mod-$key" modules >&2 ||
			return 1
	else
		# Without module BTF (for BPF tools, not this test): 6.12's
		# headers would run pahole, which linux-kbuild-6.12 depends on
		# but bookworm does not ship under that name.
		make -s -C "$kbuild" M="$work/mod-$key" \
			CONFIG_DEBUG_INFO_BTF_MODULES= modules >&2 || return 1
	fi
	: >"$root/modules/order"
	for m in "${initrd_modules[@]}"; do
		copy_module "$mods" "$m" "$root/modules" && echo "$m" >>"$root/modules/order"
	done
	cp /bin/busybox "$root/bin/busybox"
	for m in sh mount umount insmod mkdir cp cat chroot poweroff sync echo; do
		ln -sf busybox "$root/bin/$m"
	done
	cp "$repo/rig/guest-init.sh" "$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd-$key.gz"
}

# What the guest installs as its /lib/modules/REL (guest-run.sh copies it
# there and runs depmod), staged in $work/guestmods-CONFIG: the kernel's
# own intel_sdsi where it has one (kernel/...), the test module as an
# out-of-tree module (extra/), and the driver under test, if not the
# kernel's, where DKMS installs an update (updates/dkms/), which depmod
# ranks above the kernel's.  Also the kernel's lists of built-in and
# ordered modules, which modprobe consults.  For driver=dkms this tree is
# DKMS's install tree (install_dkms).
stage_modules() {
	local k=$1 rel=$2 mods=$3 key=$4 driver_ko=$5 dest path f
	dest="$work/guestmods-$k/lib/modules/$rel"
	rm -rf "$work/guestmods-$k"
	mkdir -p "$dest/extra" || return 1
	# Named intel-sdsi.ko in 7.x (the module is still intel_sdsi).
	path=$(find "$mods/kernel" \( -name intel_sdsi.ko -o -name 'intel_sdsi.ko.*' \
		-o -name intel-sdsi.ko -o -name 'intel-sdsi.ko.*' \) | head -1)
	if [ -n "$path" ]; then
		mkdir -p "$dest/$(dirname "${path#"$mods/"}")"
		cp "$path" "$dest/${path#"$mods/"}" || return 1
	fi
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$mods/$f" ] && { cp "$mods/$f" "$dest/" || return 1; }
	done
	cp "$work/mod-$key/sdsi_window.ko" "$work/mod-$key/sdsi_bad_disc.ko" \
		"$dest/extra/" || return 1
	if [ -n "$driver_ko" ]; then
		mkdir -p "$dest/updates/dkms"
		cp "$driver_ko" "$dest/updates/dkms/intel_sdsi.ko${driver_ko##*.ko}" || return 1
	fi
}

# The driver=dkms configurations: intel-sdsi-dkms's /usr/src tree, made as
# debian/rules makes it (drivers/kernel/dkms-source.sh; scripts/check-deb.sh
# holds the built package's tree equal to it), put through `dkms install`
# as the package's postinst does, with Debian 12's dkms and private trees:
# DKMS's own and the sources under $work/dkms-install-CONFIG, the install
# tree the guest's module tree staged in $work/guestmods-CONFIG, which
# holds the kernel's own intel_sdsi, so DKMS decides beside it as on a
# user's machine.  $3 is the configuration's driver: dkms, where DKMS
# must install ours by default; dkms-optin, where the user opted in
# (SDSI_DKMS_ALL_KERNELS=yes, drivers/kernel/dkms-policy.sh) and it must
# too; dkms-kept, where by default it must install nothing, with its
# reason, and the kernel's own stays.  Fails otherwise (DKMS exits 0 when
# it declines to replace a module; dkms-build.sh does not).
install_dkms() {
	local k=$1 rel=$2 out="$work/dkms-install-$1" version policy=()
	case "$3" in
	dkms-optin) policy=(--all-kernels) ;;
	dkms-kept) policy=(--expect-skip) ;;
	esac
	version=$(driver_version) || return 1
	"$repo/drivers/kernel/dkms-source.sh" "$out.pkg/usr/src/intel_sdsi-$version" || return 1
	"$repo/drivers/kernel/dkms-build.sh" --install "$work/guestmods-$k/lib/modules" "${policy[@]}" \
		"$work/dkms-root/usr/sbin/dkms" "$work/img-$rel/usr/src/linux-headers-$rel" \
		"$rel" "$out" "$out.pkg/usr/src/intel_sdsi-$version" >&2
}

# Our driver's MODULE_VERSION: the project's one version, which
# drivers/kernel/Kbuild takes from dkms.conf.
driver_version() {
	local v
	v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$repo/drivers/kernel/dkms.conf")
	[ -n "$v" ] || { log "drivers/kernel/dkms.conf names no PACKAGE_VERSION"; return 1; }
	echo "$v"
}

# name | kernel | ABI | GUID | sockets | the driver's RDY deadline in us,
# read from each module's code (6.1: ktime + 0x1e8480 ns; 6.12:
# 0x1dcd6500 ns) | driver: upstream, the kernel's own intel_sdsi.ko, or
# sdsi, ours (drivers/kernel), which serves the current ABI on any kernel,
# staged by the rig; dkms or dkms-optin, ours installed by DKMS, by
# default or as the user opted in; or dkms-kept, the intel-sdsi-dkms
# package's sources put through DKMS, which by default keeps the kernel's
# own (install_dkms): the upstream driver then runs.
# 6.1-v2 is the early driver on a V2 part: it assumes the V1 layout for
# any GUID, which the model says leaves it seeing On Demand disabled; the
# real driver is the judge of that.  sid is Debian unstable's kernel, the
# newest upstream driver (rig/sid-kernel.sh).  Last, the discovery
# entries' access type: local, or barid, where sdsi_window lends the window
# to BAR $barid_bar of the guest's host bridge and sdsi-shmem writes BARID
# tables naming it (rig/sdsi_window.c), so that the driver, ours or the
# kernel's, maps each region through pci_resource_start() + offset.
configs=(
	"6.12|6.12|current|v2|3|500000|upstream|barid"
	"6.1|6.1|early|v1|3|2000|upstream|local"
	"6.1-v2|6.1|early|v2|3|2000|upstream|local"
	"6.12-sdsi|6.12|current|v2|3|500000|sdsi|barid"
	"6.1-sdsi-v2|6.1|current|v2|3|500000|sdsi|barid"
	"6.1-sdsi|6.1|current|v1|3|500000|sdsi|local"
	"6.12-dkms|6.12|current|v2|3|500000|dkms-kept|local"
	"6.12-dkms-optin|6.12|current|v2|3|500000|dkms-optin|local"
	"6.1-dkms|6.1|current|v1|3|500000|dkms|local"
	"sid|sid|current|v2|3|500000|upstream|local"
	"sid-barid|sid|current|v2|3|500000|upstream|barid"
	"sid-sdsi|sid|current|v2|3|500000|sdsi|barid"
)
# The BAR slot a barid configuration borrows: the host bridge has none.
barid_bar=2

# The guest's RAM is a shared file so that sdsi-shmem on the host sees the
# window (at its physical address) as the guest's driver does.
ram=
shmem=
stallmon=
qemu=''
cleanup() {
	# QEMU first (timeout passes the TERM on), then the poller it used,
	# then the monitor (which prints its summary on TERM).
	[ -n "$qemu" ] && kill "$qemu" 2>/dev/null && wait "$qemu" 2>/dev/null
	[ -n "$shmem" ] && kill "$shmem" 2>/dev/null && wait "$shmem" 2>/dev/null
	[ -n "$stallmon" ] && kill "$stallmon" 2>/dev/null && wait "$stallmon" 2>/dev/null
	[ -n "$ram" ] && rm -f "$ram"
	qemu='' shmem='' stallmon='' ram=''
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# A rig killed outright (SIGKILL) cannot clean up: sweep RAM files that no
# run has touched for longer than a guest may live.
find "$ram_dir" -maxdepth 1 -name 'sdsi-rig-ram.*' \
	-mmin +$((guest_limit / 60 + 5)) -delete 2>/dev/null

# shellcheck source=rig/rig-boot.sh
. "$repo/rig/rig-boot.sh"

# The mailbox protocol violations sdsi-shmem counted over the guest's whole
# run (it prints the total at exit, docs/protocol-rules.md); "?" if it
# printed none.
protocol_violations() {
	local n
	n=$(sed -n 's/^sdsi-shmem: protocol-violations=\([0-9]*\)$/\1/p' "$1/shmem.log" 2>/dev/null)
	echo "${n:-?}"
}

# The configuration's attestation transport as the guest found it
# (rig/guest-run.sh): ok, none or fail; "?" if it wrote nothing.
attest_of() {
	cat "$1/attest" 2>/dev/null || echo '?'
}

# What it must be: ok for ours, none for the upstream drivers; a user's
# driver may be either.
expected_attest() {
	local want
	want=$(. "$1/config.env" && echo "$SDSI_ATTEST_EXPECT")
	if [ "$want" = any ] && [ "$(attest_of "$1")" != fail ]; then
		attest_of "$1"
	else
		echo "$want"
	fi
}

# The user's script's verdict (rig/guest-script.sh): pass or fail; "?"
# if it did not run.
script_of() {
	cat "$1/script" 2>/dev/null || echo '?'
}

# With the doorbell, a driver store that sdsi-shmem found with no ring for
# it was met by polling after all: the run proves nothing about deadlines.
doorbell_missed() {
	local missed
	[ "$doorbell" = 0 ] && return 1
	missed=$(sed -n 's/^sdsi-shmem: unannounced-stores=\([0-9]*\)$/\1/p' \
		"$1/shmem.log")
	[ "${missed:-0}" -gt 0 ]
}

shmem_mode=--spin
[ "$doorbell" = 0 ] || shmem_mode=--doorbell
phase_begin
setup_private_apt || die "cannot set up the private apt in $apt_dir"
fetch_dkms || die "cannot fetch dkms through the private apt"
phase_end apt
failed=()
# The Debian release of a rig kernel generation, fetched and unpacked.
debian_kernel() {
	local rel
	if [ "$1" = sid ]; then
		"$repo/rig/sid-kernel.sh" fetch "$work" || die "cannot fetch Debian unstable's kernel"
		return 0
	fi
	rel=$(kernel_release "$1") || die "no Debian $1 kernel found by apt"
	fetch_kernel "$rel" || die "$rel: cannot fetch the image or headers"
	echo "$rel"
}

# debian_kernel once per run for each generation ($1): its release in
# $gen_rel.
declare -A release_of=()
kernel_of() {
	[ -n "${release_of[$1]-}" ] || release_of[$1]=$(debian_kernel "$1") || exit 1
	gen_rel=${release_of[$1]}
}

# A user configuration: rig/user-kernel.sh checks the variables; a
# driver alone runs on the rig's Debian kernel of its release.
user_config() {
	local out gen r user_rel='' user_image='' user_moddir='' user_build=''
	local user_driver='' user_abi='' user_part=''
	out=$(env KERNEL_IMAGE="$1" KERNEL_MODULES="$2" KERNEL_BUILD="$3" \
		DRIVER_MODULE="$4" KERNEL_PART="$5" "$repo/rig/user-kernel.sh") || exit 2
	eval "$out"
	rel=$user_rel abi=$user_abi guid=$user_part sockets=3 deadline=-
	driver_ko=$user_driver
	if [ -n "$user_image" ]; then
		image=$user_image mods=$user_moddir kbuild=$user_build key="user-$rel"
		kernel_label="$rel ($user_image)"
	else
		local known=()
		for gen in 6.12 6.1; do
			kernel_of "$gen"
			r=$gen_rel
			known+=("$r")
		done
		printf '%s\n' "${known[@]}" | grep -q -x -F "$rel" ||
			{ log "DRIVER_MODULE=$user_driver: built for release $rel, but the rig's Debian kernels are ${known[*]}: give KERNEL_IMAGE and KERNEL_MODULES of $rel"; exit 2; }
		image="$work/img-$rel/boot/vmlinuz-$rel" key=$rel kernel_label=$rel
		mods="$work/img-$rel/lib/modules/$rel"
		kbuild="$work/img-$rel/usr/src/linux-headers-$rel"
	fi
	if [ -n "$driver_ko" ]; then driver=$(basename "$driver_ko"); else driver=user; fi
	# A user's driver is held to the transport it shows.
	attest_expect=any
}

# Our module and the initramfs (with the test module) depend only on the
# kernel: built once per run for all its configurations.
declare -A built_ours=() built_initrd=()
# The boots, in the order of their first configuration: a boot is an
# image, an initramfs and a socket count; its configurations run in turn
# in one guest (rig/rig-boot.sh).  cfg_guid: each one's part; cfg_barid:
# its BAR slot for BARID entries, empty for LOCAL.
declare -A boot_configs=() cfg_guid=() cfg_barid=()
boots=()
add_to_boot() {
	local k=$1 b="$2|$3|$4"
	[ -n "${boot_configs[$b]-}" ] || boots+=("$b")
	boot_configs[$b]="${boot_configs[$b]-} $k"
}
# First every configuration is prepared: its kernel fetched, its modules
# built and staged.
for k in "${wanted[@]}"; do
	driver_ko='' barid=''
	phase_begin
	case "$k" in
	user)
		user_config "${KERNEL_IMAGE-}" "${KERNEL_MODULES-}" "${KERNEL_BUILD-}" \
			"${DRIVER_MODULE-}" "${KERNEL_PART-}"
		;;
	user-driver)
		# Our module built against Debian's 6.12 as a user builds a
		# driver change (drivers/kernel/build.sh), then handed over.
		kernel_of 6.12
		r=$gen_rel
		phase_end "fetch:$k"
		phase_begin
		"$repo/drivers/kernel/build.sh" "$work/img-$r/usr/src/linux-headers-$r" \
			"$work/user-driver" || die "cannot build the user-driver module"
		user_config '' '' '' "$work/user-driver/intel_sdsi.ko" ''
		# It is ours: it has the transport.
		attest_expect=ok
		;;
	user-kernel)
		# Debian's 6.1 given as a local image and unpacked modules.
		kernel_of 6.1
		r=$gen_rel
		phase_end "fetch:$k"
		phase_begin
		user_config "$work/img-$r/boot/vmlinuz-$r" "$work/img-$r" '' '' v1
		;;
	*)
		entry=$(printf '%s\n' "${configs[@]}" | grep "^$k|") || die "unknown configuration '$k'"
		IFS='|' read -r _ kernel abi guid sockets deadline driver disc <<<"$entry"
		[ "$disc" = barid ] && barid=$barid_bar
		kernel_of "$kernel"
		rel=$gen_rel
		phase_end "fetch:$k"
		phase_begin
		image="$work/img-$rel/boot/vmlinuz-$rel" key=$rel kernel_label=$rel
		mods="$work/img-$rel/lib/modules/$rel"
		kbuild="$work/img-$rel/usr/src/linux-headers-$rel"
		[ "$kernel" = sid ] && kbuild=sid
		if [ -z "${built_ours[$rel]-}" ]; then
			build_ours "$rel" "$kernel" || die "$rel: cannot build our intel_sdsi"
			built_ours[$rel]=1
		fi
		[ "$driver" = sdsi ] && driver_ko="$work/sdsi-$rel/intel_sdsi.ko"
		# Ours has the attestation transport; no upstream driver has.
		attest_expect=none
		case "$driver" in upstream | dkms-kept) ;; *) attest_expect=ok ;; esac
		;;
	esac
	log "$k: kernel $kernel_label, driver=$driver abi=$abi guid=$guid sockets=$sockets rdy-deadline=${deadline}us tcg$tcg_opts sdsi-shmem $shmem_mode"
	if [ -z "${built_initrd[$key]-}" ]; then
		build_initrd "$key" "$mods" "$kbuild" ||
			die "$k: cannot build the test module or initramfs"
		built_initrd[$key]=1
	fi
	stage_modules "$k" "$rel" "$mods" "$key" "$driver_ko" ||
		die "$k: cannot stage the guest's modules"
	# Where modinfo -n must find the driver, and the version the loaded
	# one must declare (ours; the kernel's own declares none).
	driver_dir=kernel driver_version=''
	case "$driver" in dkms | dkms-optin) driver_dir=updates/dkms ;; esac
	[ -z "$driver_ko" ] || driver_dir=updates/dkms
	if [ "$driver" = sdsi ] || [ "$driver" = dkms ] || [ "$driver" = dkms-optin ]; then
		driver_version=$(driver_version) || exit 1
	elif [ -n "$driver_ko" ]; then
		# A user's module: the version it declares, if any.
		driver_version=$(modinfo -F version "$driver_ko") ||
			die "$k: modinfo cannot read $driver_ko"
	fi
	case "$driver" in
	dkms*)
		[ "$kernel" != sid ] || die "$k: driver=$driver runs bookworm's dkms, not on unstable's kernel"
		install_dkms "$k" "$rel" "$driver" ||
			die "$k: dkms install of intel-sdsi-dkms's sources did not do what driver=$driver expects"
		;;
	esac
	# What the guest reads for this configuration (quoted for its shells:
	# the paths may hold spaces), and what its boot needs.
	printf '%s=%q\n' SDSI_ABI "$abi" SDSI_GUID "$guid" SDSI_SOCKETS "$sockets" \
		SDSI_AUTHORITY "/tmp/results/$k/authority" SDSI_DRIVER "$driver" \
		SDSI_KERNEL "$rel" SDSI_KERNEL_LABEL "$kernel_label" \
		SDSI_GUESTMODS "$work/guestmods-$k" SDSI_DRIVER_DIR "$driver_dir" \
		SDSI_DRIVER_VERSION "$driver_version" SDSI_ATTEST_EXPECT "$attest_expect" \
		SDSI_BARID "$barid" >"$work/config-$k.env"
	cfg_guid[$k]=$guid cfg_barid[$k]=$barid
	add_to_boot "$k" "$image" "$work/initrd-$key.gz" "$sockets"
	phase_end "build:$k"
done

# Then each kernel boots once for all its configurations, up to
# SDSI_RIG_PARALLEL boots at a time (default: the host's cores).  A guest
# runs its vCPUs on one host thread (tcg_opts), so each boot keeps one core
# busy; the doorbell makes the model's answers independent of when the
# host schedules sdsi-shmem.  Each boot writes its output to a file of its
# own, printed whole when it ends, so that the logs never interleave.
parallel=${SDSI_RIG_PARALLEL:-$(nproc)}
[[ "$parallel" =~ ^[1-9][0-9]*$ ]] || die "SDSI_RIG_PARALLEL=$parallel: not a count of boots"
declare -A boot_pid=()
boot_pids=()
# A boot in the background: its own copy of the boot's state, cleaned up
# by its own trap; the rig's cleanup stops what is still running.
start_boot() {
	local b=$1 image initrd sockets name ks
	IFS='|' read -r image initrd sockets <<<"$b"
	read -r -a ks <<<"${boot_configs[$b]}"
	name=${ks[0]}
	(
		trap cleanup EXIT
		trap 'exit 143' TERM
		run_boot "$image" "$initrd" "$sockets" "$name" "${ks[@]}"
	) >"$work/boot-$name.out" 2>&1 &
	boot_pid[$name]=$!
	boot_pids+=("$!")
}
# The rig's cleanup ends the boots still running before its own state.
stop_boots() {
	local pid
	for pid in "${boot_pids[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	boot_pids=()
	cleanup
}
trap stop_boots EXIT
running=0
for b in "${boots[@]}"; do
	if [ "$running" -ge "$parallel" ]; then
		wait -n
		running=$((running - 1))
	fi
	start_boot "$b"
	running=$((running + 1))
done
for b in "${boots[@]}"; do
	read -r -a ks <<<"${boot_configs[$b]}"
	name=${ks[0]}
	wait "${boot_pid[$name]}"
	boot_status=$?
	cat "$work/boot-$name.out"
	[ "$boot_status" -eq 0 ] || failed+=("$name: its boot ended with status $boot_status (see $work/boot-$name.out)")
	for k in "${ks[@]}"; do
		results="$work/results-$k"
		# The run is the verdict: a failure is a failure.
		if [ ! -f "$results/status" ]; then
			failed+=("$k: the guest did not come back (see $work/boot-$name/console.log)")
			tail -20 "$work/boot-$name/console.log" >&2
		elif doorbell_missed "$results"; then
			failed+=("$k: driver stores in the window bypassed the doorbell (see $results/shmem.log)")
		elif [ "$(protocol_violations "$results")" != 0 ]; then
			failed+=("$k: violations=$(protocol_violations "$results") of the mailbox protocol (see $results/shmem.log)")
		elif [ "$(cat "$results/status")" != "exit 0" ]; then
			failed+=("$k: $(cat "$results/status") (see $results/guest.log)")
		elif [ "$(attest_of "$results")" != "$(expected_attest "$results")" ]; then
			failed+=("$k: attest=$(attest_of "$results"), expected $(expected_attest "$results") (see $results/guest.log)")
		elif [ -n "$guest_script" ] && [ "$(script_of "$results")" != pass ]; then
			failed+=("$k: script=$(script_of "$results"): $guest_script (see $results/script.log)")
		fi
	done
done
boot_pids=()

log "phase all took $((SECONDS - rig_t0)) s"
for f in "${failed[@]}"; do
	log "FAILED $f"
done
[ ${#failed[@]} -eq 0 ]
