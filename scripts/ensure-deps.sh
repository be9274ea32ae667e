#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages the build and the tests need, when missing.
# As root this runs apt-get; otherwise it names what is missing and fails.
#
#   ensure-deps.sh [--demo | --kernel | --deb] [--list | --simulate]
#
# --demo: only what building and `make demo` need, no test tool.  With no
# option: that and the tests' packages (make build, make check).  --list
# prints the set, one package a line, and installs nothing; --simulate
# runs the very apt-get install it would, as apt-get -s on the package
# lists apt already has (no update), so nothing is installed, root or not
# (tests/docs/test_first_contact.py runs it in a fresh Debian 12 root).
set -euo pipefail

# The build (meson.build's dependencies, and the C compiler) and the demo:
# libcmocka-dev because the build compiles the unit tests with everything
# else (tests/unit/meson.build requires it, so that no build ever lacks
# them), python3 for demo-inside.sh's reading of the JSON output (meson
# needs it anyway), fuse3 for the FUSE mounts of sdsi-emu.
build_packages=(
	gcc make meson ninja-build pkg-config
	libfuse3-dev fuse3 libsystemd-dev
	libssl-dev libjson-c-dev
	libcmocka-dev
	python3
)
# The tests' own: the fuzzers' clang, pytest and what the suites import,
# kmod, man-db (the man pages' tests), shellcheck (make lint).
test_packages=(
	clang-14 libclang-rt-14-dev
	python3-pytest python3-pytest-xdist python3-cryptography python3-jsonschema
	kmod util-linux man-db shellcheck
	systemd debian-archive-keyring
	ansible-core openssh-client dropbear-bin iproute2
	debootstrap
)
# python3-pytest-xdist: the runners (scripts/run-*.sh) spread a suite's
# tests over both cores with pytest -n; the tests share no state.
# systemd: its systemd-analyze verifies the textfile collector units.
# Not prometheus: installing it would enable and start the Prometheus
# server on a systemd host.  The tests' promtool is unpacked from its .deb
# into the build directory instead (scripts/fetch-promtool.sh), with apt,
# dpkg-deb and tar, which every Debian has, and the archive's keyring.
# ansible-core, openssh-client, dropbear-bin, iproute2: the Ansible
# collection's tests (tests/ansible): ansible-playbook over ssh to test
# hosts in network namespaces.  Their ssh server is Dropbear because
# dropbear-bin is the binaries alone: openssh-server would enable and start
# an sshd on this machine wherever an init system runs.
# debootstrap: the fresh Debian 12 root in which tests/docs checks what
# `make demo` would install.
# --kernel: what the kernel rig runs on the host (QEMU, the initramfs
# tools, the decompressors of modules), and what building a module
# against the unpacked Debian headers calls: the gcc-12 they name, make,
# and the libelf of kbuild's objtool; sparse, which checks our own
# intel_sdsi module (drivers/kernel/build.sh).  Never kernels or headers.
# debootstrap makes the root of Debian unstable in the build directory in
# which modules are built for unstable's kernel (rig/sid-kernel.sh).
kernel_packages=(qemu-system-x86 busybox-static cpio xz-utils zstd
	gcc-12 libelf1 sparse debootstrap)
# --deb: what make deb runs beyond the build's own packages (which
# debian/control's Build-Depends repeat): debhelper with its DKMS add-on,
# dpkg-buildpackage, fakeroot, and lintian, which must find nothing.
deb_packages=(debhelper dh-dkms dpkg-dev fakeroot lintian)

set_name=tests list=false simulate=false
for arg in "$@"; do
	case $arg in
	--demo|--kernel|--deb) set_name=${arg#--} ;;
	--list) list=true ;;
	--simulate) simulate=true ;;
	*) echo "usage: $0 [--demo | --kernel | --deb] [--list | --simulate]" >&2; exit 2 ;;
	esac
done
packages=("${build_packages[@]}")
case $set_name in
tests) packages+=("${test_packages[@]}") ;;
kernel) packages+=("${test_packages[@]}" "${kernel_packages[@]}") ;;
deb) packages+=("${test_packages[@]}" "${deb_packages[@]}") ;;
esac
if $list; then
	printf '%s\n' "${packages[@]}" | awk '!seen[$0]++'
	exit 0
fi

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if $simulate; then
	exec apt-get -s install --no-install-recommends "${missing[@]}"
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "ensure-deps: missing Debian packages: ${missing[*]}" >&2
	echo "ensure-deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "ensure-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
