# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# One boot of the kernel rig (sourced by rig/rig.sh, whose settings it
# uses): a guest boots once for every configuration of its kernel and
# runs them in turn (rig/guest-run.sh), each with a sdsi-shmem of its
# own.  A boot takes some 30 s under TCG, a configuration's tests 40-50 s:
# booting once per kernel rather than once per configuration is most of
# what keeps the rig's time from growing with its columns.
#
# The handshake, through the results export (9p: the host sees the
# guest's files as they are written):
#   host:  start sdsi-shmem for K (its part and sockets), then touch K/go;
#   guest: wait for K/go, install K's modules, run K's tests, unload the
#          driver and the test module, then write K/status;
#   host:  on K/status, stop K's sdsi-shmem (which prints K's protocol
#          violations at exit) and go on with the next configuration.
# The guest only touches the window while the test module is loaded, so
# no store reaches the doorbell while no sdsi-shmem answers it; every
# configuration of a boot has the same sockets, which the doorbell plugin
# and the reserved window were set up for.
# shellcheck disable=SC2154,SC2034 # the settings and state are rig/rig.sh's

# Start sdsi-shmem for one configuration on the boot's RAM file: part
# GUID $2 on $1 sockets, its log and authority in $3, BARID tables naming
# BAR $4 if given (LOCAL if empty); false if it does not come up.
start_shmem() {
	local sockets=$1 guid=$2 results=$3 page magic want disc_opts=()
	"$build/tools/sdsi-authority/sdsi-authority" init "$results/authority" \
		>/dev/null || return 1
	[ -z "$4" ] || disc_opts=(--barid "$4")
	# --exit-with-parent: a rig killed outright leaves no spinning poller.
	nice -n -15 "$build/shmem/sdsi-shmem" "$shmem_mode" --exit-with-parent \
		--window "$ram" --offset "$((phys))" --sockets "$sockets" \
		--guid "$guid" --authority "$results/authority" "${disc_opts[@]}" \
		2>"$results/shmem.log" &
	shmem=$!
	page=$((phys + sockets * $(window_const SDSI_WINDOW_SLOT_SIZE)))
	want=$(printf '%08x' "$(window_const SDSI_CTLPAGE_MAGIC)")
	for _ in $(seq 100); do
		magic=$(od -An -tx4 -j "$page" -N4 "$ram" | tr -d ' ')
		[ "$magic" = "$want" ] && return 0
		kill -0 "$shmem" 2>/dev/null || break
		sleep 0.1
	done
	log "sdsi-shmem did not come up: $(cat "$results/shmem.log")"
	return 1
}

# Stop the configuration's sdsi-shmem; it prints its counts as it exits
# and clears the control page's magic.
stop_shmem() {
	[ -n "$shmem" ] && kill "$shmem" 2>/dev/null && wait "$shmem" 2>/dev/null
	shmem=''
}

# A fresh, sparse file for the guest's RAM, which sdsi-shmem maps too.
make_ram() {
	local avail_mb
	# truncate succeeds anyway; QEMU would die of SIGBUS once the guest
	# touched more than the filesystem holds.
	avail_mb=$(df -Pm "$ram_dir" | awk 'NR == 2 {print $4}')
	if [ "${avail_mb:-0}" -lt "$ram_mb" ]; then
		log "$ram_dir has ${avail_mb:-no} MiB free, the guest's RAM needs $ram_mb MiB (set SDSI_RIG_RAM_DIR)"
		return 1
	fi
	ram=$(mktemp "$ram_dir/sdsi-rig-ram.XXXXXX") || return 1
	truncate -s "${ram_mb}M" "$ram"
}

# Wait until configuration dir $1 has a status, QEMU ($2) is gone, or
# $3 seconds have passed; true if the status came.
await_status() {
	local dir=$1 pid=$2 until=$((SECONDS + $3))
	while [ $SECONDS -lt $until ]; do
		[ -f "$dir/status" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	[ -f "$dir/status" ]
}

# Configuration $1 of the boot in $boot, on $sockets sockets: its own
# sdsi-shmem, then the guest's go.
start_config() {
	start_shmem "$sockets" "${cfg_guid[$1]}" "$boot/$1" "${cfg_barid[$1]}" ||
		die "$1: cannot start sdsi-shmem"
	touch "$boot/$1/go"
}

# Boot image $1 with initramfs $2 once for the configurations $4...,
# which share their sockets ($3), in $work/boot-NAME ($5: NAME).  Each
# configuration's results end in $work/results-CONFIG, with the
# environment its preparation wrote to $work/config-CONFIG.env.
run_boot() {
	local image=$1 initrd=$2 sockets=$3 name=$4 boot dir k i n plugin_opts
	shift 4
	local ks=("$@") t0 boot_t0=$SECONDS
	n=${#ks[@]}
	boot="$work/boot-$name"
	rm -rf "$boot"
	mkdir -p "$boot"
	# Quoted for the guest's shells: the paths may hold spaces.
	printf '%s=%q\n' SDSI_REPO "$repo" SDSI_BUILD "$build" \
		SDSI_PHYS "$phys" SDSI_SOCKETS "$sockets" SDSI_CONFIGS "${ks[*]}" \
		>"$boot/config.env"
	# The user's script goes with the results export: the guest's /tmp is
	# its own, and the script may live in the host's.
	if [ -n "$guest_script" ]; then
		install -m 0755 "$guest_script" "$boot/guest-script" || return 1
		echo "SDSI_GUEST_SCRIPT=/tmp/results/guest-script" >>"$boot/config.env"
	fi
	for k in "${ks[@]}"; do
		rm -rf "$work/results-$k"
		mkdir -p "$boot/$k"
		cp "$work/config-$k.env" "$boot/$k/config.env"
	done
	make_ram || die "$name: cannot make the guest's RAM file"
	start_config "${ks[0]}"
	# A host-stall monitor for the guest's whole life, independent of the
	# component under test: its log says how far the host itself fell
	# behind during a run (diagnostics for whoever reads a failure).
	"$build/rig/sdsi-stallmon" --exit-with-parent --period-us 500 \
		--threshold-us 1000 >"$boot/stallmon.log" 2>&1 &
	stallmon=$!
	plugin_opts=()
	[ "$doorbell" = 0 ] ||
		plugin_opts=(-plugin "$plugin,window=$ram,phys=$((phys)),sockets=$sockets")
	# One vCPU per emulated socket, each its own package, so that the
	# guest's topology (lscpu) matches the devices.  In the background,
	# so that a signal to the rig is handled at once (cleanup stops
	# QEMU); its own limit backs the per-configuration one below.
	timeout --kill-after=10 $((guest_limit * n + 60)) qemu-system-x86_64 \
		-accel "tcg$tcg_opts" -smp "$sockets,sockets=$sockets,cores=1,threads=1" -m "$ram_mb" -nographic -no-reboot -nic none \
		"${plugin_opts[@]}" \
		-object "memory-backend-file,id=ram,size=${ram_mb}M,mem-path=$ram,share=on" \
		-machine pc,memory-backend=ram \
		-kernel "$image" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 memmap=1M\$$phys" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$boot,mount_tag=results,security_model=none" \
		</dev/null >"$boot/console.log" 2>&1 &
	qemu=$!
	t0=$SECONDS
	for ((i = 0; i < n; i++)); do
		k=${ks[i]}
		dir="$boot/$k"
		# The first configuration's time includes the boot.
		await_status "$dir" "$qemu" "$guest_limit" ||
			log "$k: no status within ${guest_limit} s, or QEMU ended"
		stop_shmem
		log "$k: guest ran $((SECONDS - t0)) s, violations=$(protocol_violations "$dir")," \
			"attest=$(attest_of "$dir")${guest_script:+, script=$(script_of "$dir")}"
		[ -f "$dir/status" ] || break
		t0=$SECONDS
		((i + 1 < n)) && start_config "${ks[i + 1]}"
	done
	# A guest that stopped answering is not waited for beyond its limit;
	# one that answered powers off by itself.
	[ -f "$boot/${ks[n - 1]}/status" ] || kill "$qemu" 2>/dev/null
	wait "$qemu"
	qemu_status=$?
	qemu=''
	cleanup
	cat "$boot/guest.log" 2>/dev/null
	tail -1 "$boot/stallmon.log" 2>/dev/null
	log "boot $name: ${ks[*]}: qemu exit $qemu_status"
	log "phase boot:$name took $((SECONDS - boot_t0)) s"
	for k in "${ks[@]}"; do
		cat "$boot/$k/shmem.log" 2>/dev/null
		mv "$boot/$k" "$work/results-$k"
	done
}
