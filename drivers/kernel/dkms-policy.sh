# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# When DKMS may put our intel_sdsi in place of the kernel's own: sourced
# by dkms.conf, which dkms sources as bash (read_conf, once per kernel and
# arch, with $kernelver set) and whose BUILD_EXCLUSIVE_KERNEL it honours
# for `dkms build`, `dkms install` and the package's postinst (exit 77,
# "Skipped.").  The package must never leave a machine without a working
# intel_sdsi, nor hide a complete in-tree one:
#   - Linux 6.10 and later have the current On Demand ABI in tree; ours
#     adds only the SPDM attestation transport, so it installs there only
#     where the user opted in: SDSI_DKMS_ALL_KERNELS=yes in
#     /etc/default/intel-sdsi-dkms (a conffile, read again for every
#     kernel, so the choice holds for the kernels installed later);
#   - with Secure Boot on, a module signed by a key the firmware does not
#     trust is refused at load, and the kernel's own would be shadowed:
#     ours installs only once DKMS's certificate is enrolled.
# Tests point SDSI_DKMS_DEFAULTS at their own defaults file and
# SDSI_DKMS_EFIVARS at a made-up efivars directory, never at the host's.

# Kernels whose in-tree intel_sdsi predates the current ABI: below 6.10.
sdsi_dkms_before_current='^([0-5]\.|6\.[0-9]\.)'
# EFI's global variable GUID: SecureBoot's last byte is 1 when it is on.
sdsi_dkms_secure_boot_var=SecureBoot-8be4df61-93ca-11d2-aa0d-e08c9c8c5dd8

# The user's choice, yes or no; anything else is reported and taken as no.
sdsi_dkms_all_kernels() {
	local file=${SDSI_DKMS_DEFAULTS:-/etc/default/intel-sdsi-dkms} value
	[ -e "$file" ] || { echo no; return; }
	value=$(sed -n 's/^[[:space:]]*SDSI_DKMS_ALL_KERNELS=["'\'']\{0,1\}\([^"'\'' ]*\)["'\'']\{0,1\}[[:space:]]*$/\1/p' \
		"$file" 2>/dev/null | tail -n 1)
	case "$value" in
	yes | no) echo "$value" ;;
	'') echo no ;;
	*)
		echo "intel-sdsi-dkms: $file: SDSI_DKMS_ALL_KERNELS=$value is neither yes nor no; taking no" >&2
		echo no
		;;
	esac
}

# Whether the firmware booted with Secure Boot on.
sdsi_dkms_secure_boot() {
	local var=${SDSI_DKMS_EFIVARS:-/sys/firmware/efi/efivars}/$sdsi_dkms_secure_boot_var last
	[ -r "$var" ] || return 1
	last=$(tail -c 1 "$var" | od -An -tu1 | tr -d ' ')
	[ "$last" = 1 ]
}

# The certificate DKMS signs with: framework.conf's mok_certificate, or
# DKMS's own default.
sdsi_dkms_certificate() {
	if declare -F read_framework_conf >/dev/null; then
		read_framework_conf mok_certificate
	fi
	echo "${mok_certificate:-/var/lib/dkms/mok.pub}"
}

# Whether the firmware trusts CERT: mokutil says "is already enrolled".
# No mokutil or no certificate is no trust.
sdsi_dkms_enrolled() {
	[ -f "$1" ] && command -v mokutil >/dev/null &&
		mokutil --test-key "$1" 2>/dev/null | grep -q 'is already enrolled'
}

# The kernel dkms works for, given read_conf's $kernelver.  In `dkms
# autoinstall` (a kernel being installed: /etc/kernel/postinst.d/dkms),
# dkms 3.0.10 reads dkms.conf for the kernel of each status line (none for
# a module only added, the kernel it is installed on otherwise), not for
# the one it installs for, and counts a BUILD_EXCLUSIVE skip there as a
# failure (exit 11), which fails the kernel package's postinst.  So there
# the kernel is dkms's own -k/--kernelver (uname -r without one), read
# from its command line, and AUTOINSTALL is cleared for a kernel that
# keeps its own driver (dkms.conf).
sdsi_dkms_kernel() {
	local args=() i
	case " ${FUNCNAME[*]} " in
	*" autoinstall "*) ;;
	*) echo "$1"; return ;;
	esac
	[ -r "/proc/$$/cmdline" ] && mapfile -d '' args <"/proc/$$/cmdline"
	for ((i = 0; i < ${#args[@]}; i++)); do
		case "${args[i]}" in
		-k | --kernelver) echo "${args[i + 1]%%/*}"; return ;;
		--kernelver=*) i=${args[i]#--kernelver=}; echo "${i%%/*}"; return ;;
		-k?*) i=${args[i]#-k}; echo "${i%%/*}"; return ;;
		esac
	done
	uname -r
}

# BUILD_EXCLUSIVE_KERNEL for kernel REL on stdout: empty for any kernel,
# "^$" for none; the reason for keeping the kernel's own on stderr, where
# it reaches dkms's output (dkms discards what dkms.conf prints on stdout).
sdsi_dkms_exclusive_kernel() {
	local rel=$1 cert exclusive=''
	if [ "$(sdsi_dkms_all_kernels)" != yes ]; then
		exclusive=$sdsi_dkms_before_current
		if [ -n "$rel" ] && ! [[ $rel =~ $exclusive ]]; then
			echo "intel-sdsi-dkms: kernel $rel keeps its own intel_sdsi, which has the current On Demand ABI (Linux 6.10 and later); ours adds only SPDM attestation: set SDSI_DKMS_ALL_KERNELS=yes in ${SDSI_DKMS_DEFAULTS:-/etc/default/intel-sdsi-dkms} to install it" >&2
			echo "$exclusive"
			return
		fi
	fi
	if sdsi_dkms_secure_boot; then
		cert=$(sdsi_dkms_certificate)
		if ! sdsi_dkms_enrolled "$cert"; then
			[ -z "$rel" ] ||
				echo "intel-sdsi-dkms: kernel $rel keeps the intel_sdsi it has: Secure Boot is on and DKMS's signing certificate $cert is missing or not enrolled (mokutil --test-key), so the kernel would refuse ours; enroll it (mokutil --import $cert, reboot), then run dkms autoinstall" >&2
			echo '^$'
			return
		fi
	fi
	echo "$exclusive"
}
