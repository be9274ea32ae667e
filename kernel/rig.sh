#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel rig: boot Debian's own kernels under QEMU (TCG) with their
# unmodified intel_sdsi.ko bound to sdsi_window devices, play the hardware
# with sdsi-shmem on the host through the guest's RAM file, run the
# conformance suite and intel_sdsi's tests in the guest, and fail if any
# test failed or a guest did not come back.
#   kernel/rig.sh BUILD_DIR [CONFIG]...   (6.12, 6.1, 6.1-v2; default: all)
# Downloads and unpacked images are kept in BUILD_DIR/kernel-rig; the
# results of each configuration go to BUILD_DIR/kernel-rig/results-CONFIG.
set -uo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [6.12|6.1|6.1-v2]..." >&2
	exit 2
fi
build=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no build directory '$1'" >&2; exit 2; }
shift
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(6.12 6.1 6.1-v2)
repo=$(cd "$(dirname "$0")/.." && pwd)
work="$build/kernel-rig"
mkdir -p "$work/debs"
guest_limit=${SDSI_RIG_TIMEOUT:-600}
# Debian's 6.12 crashed early in boot under QEMU 7.2's multi-threaded TCG
# (an int3 Oops in sched_clock_cpu: code patched on one vCPU while another
# ran it), so both vCPUs share one host thread (SDSI_RIG_TCG_OPTS
# overrides).  That is also why the hardware is played from the host: a
# poller inside the guest waits for the driver's vCPU to yield, and its
# P-384 verification runs emulated, some 50 ms, where Linux 6.1's driver
# waits 2 ms for RDY.  On the host it answers in microseconds and verifies
# natively in about 1 ms.
tcg_opts=${SDSI_RIG_TCG_OPTS-,thread=single}
# The doorbell (shmem/doorbell.h): QEMU's sdsi-doorbell plugin hands each
# driver store in the window to sdsi-shmem and waits for the model's answer,
# so no driver deadline depends on when the host runs a poller.
# SDSI_RIG_DOORBELL=0 goes back to a spinning poller (for comparison).
doorbell=${SDSI_RIG_DOORBELL:-1}
ram_mb=1024
ram_dir=${SDSI_RIG_RAM_DIR:-/dev/shm}
phys=0x10000000
# The 9p modules in an order that satisfies both kernels' dependencies
# (6.12 has virtio_pci built in and its 9pnet needs netfs).
initrd_modules=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
	virtio_pci netfs fscache 9pnet 9pnet_virtio 9p)

log() { echo "kernel-rig: $*" >&2; }
die() { log "$*"; exit 1; }

[ -x "$build/shmem/sdsi-shmem" ] || die "$build/shmem/sdsi-shmem is not built"
plugin="$build/shmem/libsdsi-doorbell.so"
[ "$doorbell" = 0 ] || [ -f "$plugin" ] || die "$plugin is not built"
[ -x "$build/tools/intel_sdsi" ] || die "$build/tools/intel_sdsi is not built"
[ -x "$build/tools/sdsi-authority/sdsi-authority" ] ||
	die "$build/tools/sdsi-authority/sdsi-authority is not built"
"$repo/scripts/ensure-deps.sh" --kernel || die "missing packages"

# bookworm-backports from the mirror bookworm already uses.
ensure_backports() {
	local mirror
	# Active lines only: a commented-out entry enables nothing.
	# (Missing files are normal here, and under pipefail their error
	# status would fail the pipeline whatever the match: hence || true.)
	{ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
		grep -v '^[[:space:]]*#' | grep -q 'bookworm-backports' && return 0
	# The mirror that serves bookworm itself (not a third party's .../debian).
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -v '^[[:space:]]*#' | grep -E '^(deb|URIs:)' |
		grep -o -E 'https?://[^ ]*/debian/?' | grep -v -E '/linux/|download\.' |
		head -1 || true)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
	log "adding bookworm-backports from $mirror"
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" >/etc/apt/sources.list.d/sdsi-bookworm-backports.sources
	apt-get update -q >&2
}

# The release (uname -r) of a kernel generation, from Debian's metapackage.
kernel_release() {
	local version dep pattern try
	if [ "$1" = 6.12 ]; then pattern='/bpo12/'; else pattern='$3 ~ /^6\.1\./'; fi
	# Empty or stale package lists (a fresh container) are refreshed once.
	for try in cached updated; do
		version=$(apt-cache madison linux-image-amd64 | awk "$pattern {print \$3; exit}")
		[ -n "$version" ] && break
		[ "$try" = cached ] && apt-get update -q >&2
	done
	[ -n "$version" ] || return 1
	dep=$(apt-cache depends "linux-image-amd64=$version" | awk '/Depends: linux-image-/ {print $2; exit}')
	[ -n "$dep" ] || return 1
	echo "${dep#linux-image-}"
}

# Image unpacked (not installed) and headers installed for that release.
fetch_kernel() {
	local rel=$1 deb
	if [ ! -d "/lib/modules/$rel/build" ]; then
		log "installing linux-headers-$rel"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			"linux-headers-$rel" >&2 || return 1
	fi
	[ -f "$work/img-$rel/boot/vmlinuz-$rel" ] && return 0
	deb=$(ls "$work/debs/linux-image-$rel-unsigned_"*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		log "downloading linux-image-$rel-unsigned"
		# apt drops to its _apt user to download; let it write here.
		if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then
			chown _apt "$work/debs"
		fi
		(cd "$work/debs" && apt-get download -q "linux-image-$rel-unsigned" >&2) || return 1
		deb=$(ls "$work/debs/linux-image-$rel-unsigned_"*.deb | head -1)
	fi
	# Unpacked beside and renamed into place: an interrupted dpkg -x must
	# not leave a half image that the check above would reuse.
	rm -rf "$work/img-$rel" "$work/img-$rel.part"
	dpkg -x "$deb" "$work/img-$rel.part" || return 1
	mv "$work/img-$rel.part" "$work/img-$rel"
}

# A module of the image, decompressed, copied to DIR; false if absent.
copy_module() {
	local rel=$1 name=$2 dir=$3 path
	path=$(find "$work/img-$rel/lib/modules/$rel/kernel" -name "$name.ko*" | head -1)
	[ -n "$path" ] || return 1
	case "$path" in
	*.xz) xz -dc "$path" >"$dir/$name.ko" ;;
	*.zst) zstd -qdc "$path" >"$dir/$name.ko" ;;
	*) cp "$path" "$dir/$name.ko" ;;
	esac || die "$path: cannot decompress it"
}

build_initrd() {
	local rel=$1 root m
	root="$work/initrd-$rel"
	rm -rf "$root" "$work/mod-$rel"
	mkdir -p "$root"/{bin,proc,sys,dev,modules} "$work/mod-$rel"
	cp "$repo/kernel/sdsi_window.c" "$repo/kernel/sdsi_window_vsec.h" \
		"$repo/kernel/Kbuild" "$work/mod-$rel/"
	make -s -C "/lib/modules/$rel/build" M="$work/mod-$rel" modules >&2 ||
		return 1
	cp "$work/mod-$rel/sdsi_window.ko" "$root/modules/"
	copy_module "$rel" intel_sdsi "$root/modules" || { log "$rel has no intel_sdsi"; return 1; }
	: >"$root/modules/order"
	for m in "${initrd_modules[@]}"; do
		copy_module "$rel" "$m" "$root/modules" && echo "$m" >>"$root/modules/order"
	done
	cp /bin/busybox "$root/bin/busybox"
	for m in sh mount umount insmod mkdir cp cat chroot poweroff sync echo; do
		ln -sf busybox "$root/bin/$m"
	done
	cp "$repo/kernel/guest-init.sh" "$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd-$rel.gz"
}

# name | kernel | ABI | GUID | sockets | the driver's RDY deadline in us,
# read from each module's code (6.1: ktime + 0x1e8480 ns; 6.12:
# 0x1dcd6500 ns).  6.1-v2 is the early driver on a V2 part: it assumes the
# V1 layout for any GUID, which the model says leaves it seeing On Demand
# disabled; the real driver is the judge of that.
configs=(
	"6.12|6.12|current|v2|3|500000"
	"6.1|6.1|early|v1|3|2000"
	"6.1-v2|6.1|early|v2|3|2000"
)

# The guest's RAM is a shared file so that sdsi-shmem on the host sees the
# window (at its physical address) as the guest's driver does.
ram=
shmem=
qemu=''
cleanup() {
	# QEMU first (timeout passes the TERM on), then the poller it used.
	[ -n "$qemu" ] && kill "$qemu" 2>/dev/null && wait "$qemu" 2>/dev/null
	[ -n "$shmem" ] && kill "$shmem" 2>/dev/null && wait "$shmem" 2>/dev/null
	[ -n "$ram" ] && rm -f "$ram"
	qemu='' shmem='' ram=''
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# A rig killed outright (SIGKILL) cannot clean up: sweep RAM files that no
# run has touched for longer than a guest may live.
find "$ram_dir" -maxdepth 1 -name 'sdsi-rig-ram.*' \
	-mmin +$((guest_limit / 60 + 5)) -delete 2>/dev/null

# Start sdsi-shmem on a fresh RAM file; false if it does not come up.
start_shmem() {
	local sockets=$1 guid=$2 results=$3 page magic
	local dir=$ram_dir avail_mb
	# The file is sparse, so truncate succeeds anyway; QEMU would die of
	# SIGBUS once the guest touched more than the filesystem holds.
	avail_mb=$(df -Pm "$dir" | awk 'NR == 2 {print $4}')
	if [ "${avail_mb:-0}" -lt "$ram_mb" ]; then
		log "$dir has ${avail_mb:-no} MiB free, the guest's RAM needs $ram_mb MiB (set SDSI_RIG_RAM_DIR)"
		return 1
	fi
	ram=$(mktemp "$dir/sdsi-rig-ram.XXXXXX") || return 1
	truncate -s "${ram_mb}M" "$ram" || return 1
	"$build/tools/sdsi-authority/sdsi-authority" init "$results/authority" \
		>/dev/null || return 1
	# --exit-with-parent: a rig killed outright leaves no spinning poller.
	nice -n -15 "$build/shmem/sdsi-shmem" "$shmem_mode" --exit-with-parent \
		--window "$ram" --offset "$((phys))" --sockets "$sockets" \
		--guid "$guid" --authority "$results/authority" \
		2>"$results/shmem.log" &
	shmem=$!
	page=$((phys + sockets * 8192))
	for _ in $(seq 100); do
		magic=$(od -An -tx4 -j "$page" -N4 "$ram" | tr -d ' ')
		[ "$magic" = 43534453 ] && return 0
		kill -0 "$shmem" 2>/dev/null || break
		sleep 0.1
	done
	log "sdsi-shmem did not come up: $(cat "$results/shmem.log")"
	return 1
}

# Boot kernel release $1 once with the results export $2; the guest writes
# $2/status.  The configuration comes from the loop's variables.
boot_guest() {
	local rel=$1 results=$2
	rm -rf "$results"
	mkdir -p "$results"
	# Quoted for the guest's shells: the paths may hold spaces.
	printf '%s=%q\n' SDSI_REPO "$repo" SDSI_BUILD "$build" SDSI_ABI "$abi" \
		SDSI_GUID "$guid" SDSI_SOCKETS "$sockets" SDSI_PHYS "$phys" \
		SDSI_AUTHORITY /tmp/results/authority >"$results/config.env"
	start_shmem "$sockets" "$guid" "$results" || die "$k: cannot start sdsi-shmem"
	plugin_opts=()
	[ "$doorbell" = 0 ] ||
		plugin_opts=(-plugin "$plugin,window=$ram,phys=$((phys)),sockets=$sockets")
	# In the background and waited for, so that a signal to the rig is
	# handled at once (cleanup stops QEMU) rather than after the guest.
	timeout --kill-after=10 "$guest_limit" qemu-system-x86_64 \
		-accel "tcg$tcg_opts" -smp 2 -m "$ram_mb" -nographic -no-reboot -nic none \
		"${plugin_opts[@]}" \
		-object "memory-backend-file,id=ram,size=${ram_mb}M,mem-path=$ram,share=on" \
		-machine pc,memory-backend=ram \
		-kernel "$work/img-$rel/boot/vmlinuz-$rel" -initrd "$work/initrd-$rel.gz" \
		-append "console=ttyS0 quiet panic=-1 memmap=1M\$$phys" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$results,mount_tag=results,security_model=none" \
		</dev/null >"$results/console.log" 2>&1 &
	qemu=$!
	wait "$qemu"
	qemu_status=$?
	qemu=''
	cleanup
	cat "$results/guest.log" "$results/shmem.log" 2>/dev/null
	log "$k: guest ran $(( $(date +%s) - start )) s, qemu exit $qemu_status"
}

# True when a failed run of a kernel with a 2 ms deadline is explained by
# the host: every failure is a timeout, and sdsi-shmem saw the host stall it
# past 2 ms with a transaction under way.  This machine is itself a VM whose
# vCPUs stall for up to 7 ms now and then (a bare spinning loop sees it), and
# Linux 6.1 allows the hardware 2 ms.  Such a stall starting in the
# microseconds the poller takes to answer fails about one 6.1 run in four
# here (most of them in the 3-second concurrency test, thousands of
# transactions).  Anything else is never retried, and a kernel is retried at
# most stall_retries times.
stalled_past_deadline() {
	local results=$1 deadline=$2 failures stalls
	[ "$deadline" -le 2000 ] || return 1
	# Stalls after which the poller found a driver store waiting: the only
	# ones a driver can have waited through (sdsi-shmem's last words).
	stalls=$(sed -n 's/^sdsi-shmem: deadline-stalls=\([0-9]*\)$/\1/p' \
		"$results/shmem.log")
	[ "${stalls:-0}" -gt 0 ] || return 1
	# Every failure an ETIMEDOUT from the driver, and a stall of its own to
	# explain each timeout.
	failures=$(/usr/bin/python3 "$repo/scripts/junit-sum.py" --timeouts \
		"$results/*.xml") || return 1
	[ "$failures" -le "$stalls" ]
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
stall_retries=${SDSI_RIG_STALL_RETRIES:-2}
failed=()
retried=()
stalled=()
for k in "${wanted[@]}"; do
	entry=$(printf '%s\n' "${configs[@]}" | grep "^$k|") || die "unknown configuration '$k'"
	IFS='|' read -r _ kernel abi guid sockets deadline <<<"$entry"
	[ "$kernel" = 6.12 ] && ensure_backports
	rel=$(kernel_release "$kernel") || die "no Debian $kernel kernel found by apt"
	start=$(date +%s)
	log "$k: kernel $rel, abi=$abi guid=$guid sockets=$sockets tcg$tcg_opts sdsi-shmem $shmem_mode"
	fetch_kernel "$rel" || die "$rel: cannot fetch the image or headers"
	build_initrd "$rel" || die "$rel: cannot build the module or initramfs"

	results="$work/results-$k"
	rm -rf "$work/stalled-$k".*
	sed -i "/^$k\$/d" "$work/stalled-configs" 2>/dev/null
	boot_guest "$rel" "$results"
	attempt=1
	while [ "$attempt" -le "$stall_retries" ] && [ -f "$results/status" ] &&
		[ "$(cat "$results/status")" != "exit 0" ] &&
		stalled_past_deadline "$results" "$deadline"; do
		log "$k: RETRYING ($attempt of $stall_retries): every failure was a"
		log "$k: timeout, and the host stalled sdsi-shmem past the driver's"
		log "$k: ${deadline} us deadline mid-transaction ($work/stalled-$k.$attempt)"
		mv "$results" "$work/stalled-$k.$attempt"
		[ "$attempt" -eq 1 ] && retried+=("$k")
		attempt=$((attempt + 1))
		start=$(date +%s)
		boot_guest "$rel" "$results"
	done
	if [ ! -f "$results/status" ]; then
		failed+=("$k: the guest did not come back (see $results/console.log)")
		tail -20 "$results/console.log" >&2
	elif doorbell_missed "$results"; then
		failed+=("$k: driver stores in the window bypassed the doorbell (see $results/shmem.log)")
	elif [ "$(cat "$results/status")" != "exit 0" ]; then
		if stalled_past_deadline "$results" "$deadline"; then
			# Still only host stalls after the reruns: evidence about
			# this machine, not about the driver or the model.
			stalled+=("$k")
		else
			failed+=("$k: $(cat "$results/status")")
		fi
	fi
done

for k in "${retried[@]}"; do
	log "NOTE $k was run again after a host stall; see $work/stalled-$k.*"
done
for k in "${stalled[@]}"; do
	log "STALLED $k: after $stall_retries reruns every failure is still an ETIMEDOUT"
	log "STALLED $k: explained by a host stall past the driver's deadline"
	log "STALLED $k: ($work/results-$k/shmem.log); not counted as a failure"
	echo "$k" >>"$work/stalled-configs"
done
for f in "${failed[@]}"; do
	log "FAILED $f"
done
[ ${#failed[@]} -eq 0 ]
