# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# A private apt, sourced by the scripts that need Debian packages without
# installing them (scripts/fetch-promtool.sh, rig/rig.sh and
# rig/sid-kernel.sh).  Everything lives under one
# directory, $apt_dir: its own sources, package lists, cache and an empty
# dpkg status, so nothing is installed and nothing under /etc or /var/lib
# changes.  Packages are only downloaded, checked against the SHA256 of
# apt's signed lists, and unpacked (dpkg -x) into a private root.  The
# host's /etc/apt is only read: for the mirror it already uses and, through
# apt.conf.d, for settings such as a proxy.
#
#   apt_dir=DIR; setup_private_apt [SUITE]...   config + lists, APT_CONFIG
#   candidate_version NAME                      the version apt would fetch
#   download_deb NAME VERSION                   path of the checked .deb
#   unpacked ROOT STAMP                         true if ROOT is up to date
#   unpack_debs [-m MEMBER]... [-f FIXUP] ROOT STAMP DEB...
#
# Messages go through the sourcing script's log() if it has one.

private_apt_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

private_apt_log() {
	if declare -F log >/dev/null; then
		log "$@"
	else
		echo "private-apt: $*" >&2
	fi
}

# The first http(s) URI of an active entry of the host's sources for suite
# $1 (one-line and deb822 formats), or nothing.
host_mirror() {
	local suite=$1 f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# "deb [options] URI SUITE COMPONENTS...": drop the options.
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk -v s="$suite" '$1 == "deb" && $3 == s && $2 ~ /^https?:\/\// {print $2; exit}'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$suite" '
			function flush() {
				if (deb && on && suites ~ (" " s " ") && uri != "") print uri
				deb = 0; on = 1; suites = " "; uri = ""
			}
			BEGIN { flush() }
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "enabled:" { on = (tolower($2) != "no") }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) suites = suites $i " " }
			tolower($1) == "uris:" { for (i = 2; i <= NF; i++) if (uri == "" && $i ~ /^https?:\/\//) uri = $i }
			END { flush() }' "$f"
	done | head -1
}

# Writes the private apt's configuration under $apt_dir for the suites
# given (default: bookworm, its backports and its security updates, the
# kernel rig's set); APT_CONFIG then points every apt command of the
# script at it.  apt reads the file named by APT_CONFIG first, then the
# host's apt.conf.d, then Dir::Etc::main: naming this same file there
# makes its settings the last word.  The host's update and dpkg hooks are
# cleared (they would refresh host caches), so is its pinning.
private_apt_config() {
	local suite mirror
	[ -n "${apt_dir:-}" ] || { private_apt_log "apt_dir is not set"; return 1; }
	[ $# -gt 0 ] || set -- bookworm bookworm-backports bookworm-security
	[ -r "$private_apt_keyring" ] ||
		{ private_apt_log "$private_apt_keyring is missing (Debian's debian-archive-keyring)"; return 1; }
	mkdir -p "$apt_dir/empty" "$apt_dir/state/lists/partial" \
		"$apt_dir/cache/archives/partial" "$apt_dir/log" "$apt_dir/debs" || return 1
	: >"$apt_dir/status" || return 1
	for suite in "$@"; do
		# The host's mirror for the suite; for bookworm-backports and the
		# like, else the one of bookworm itself (as rig/rig.sh did).
		mirror=$(host_mirror "$suite")
		case "$suite" in
		*-security) [ -n "$mirror" ] || mirror=http://deb.debian.org/debian-security ;;
		*)
			[ -n "$mirror" ] || mirror=$(host_mirror "${suite%%-*}")
			[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
			;;
		esac
		printf 'deb [signed-by=%s] %s %s main\n' "$private_apt_keyring" "$mirror" "$suite"
	done >"$apt_dir/sources.list" || return 1
	cat >"$apt_dir/apt.conf" <<-EOF || return 1
	// Written by scripts/private-apt.sh: a private apt (APT_CONFIG).
	Dir::Etc::main "$apt_dir/apt.conf";
	Dir::Etc::sourcelist "$apt_dir/sources.list";
	Dir::Etc::sourceparts "$apt_dir/empty";
	Dir::Etc::preferences "$apt_dir/empty/preferences";
	Dir::Etc::preferencesparts "$apt_dir/empty";
	Dir::Etc::trusted "$apt_dir/empty/trusted.gpg";
	Dir::Etc::trustedparts "$apt_dir/empty";
	Dir::State "$apt_dir/state";
	Dir::State::status "$apt_dir/status";
	Dir::Cache "$apt_dir/cache";
	Dir::Log "$apt_dir/log";
	#clear APT::Update::Pre-Invoke;
	#clear APT::Update::Post-Invoke;
	#clear APT::Update::Post-Invoke-Success;
	#clear DPkg::Pre-Invoke;
	#clear DPkg::Post-Invoke;
	#clear DPkg::Pre-Install-Pkgs;
	EOF
	export APT_CONFIG="$apt_dir/apt.conf"
	# apt drops to its _apt user to download: let it write the debs.
	if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then
		chown _apt "$apt_dir/debs" || return 1
	fi
}

# Refreshes lists older than a day (security updates move packages on); a
# failed refresh with lists in hand is only a warning.
private_apt_update() {
	local lists="$apt_dir/state/lists"
	[ -n "$(find "$lists" -maxdepth 1 -name '*_InRelease' -mmin -1440)" ] &&
		return 0
	private_apt_log "updating the private apt lists ($lists)"
	# --error-on=any: a list that could not be fetched fails the update.
	apt-get update -q --error-on=any >&2 && return 0
	[ -n "$(find "$lists" -maxdepth 1 -name '*_InRelease')" ] ||
		{ private_apt_log "apt-get update failed and there are no earlier lists in $lists"; return 1; }
	private_apt_log "WARNING: apt-get update failed; using the lists of an earlier run"
}

# The configuration and the lists.
setup_private_apt() {
	private_apt_config "$@" && private_apt_update
}

# The version of package $1 that apt would fetch, or failure.
candidate_version() {
	local version
	version=$(apt-cache policy "$1" | awk '$1 == "Candidate:" {print $2}')
	if [ -z "$version" ] || [ "$version" = "(none)" ]; then
		private_apt_log "apt offers no $1"
		return 1
	fi
	echo "$version"
}

# The downloaded .deb of package $1 version $2 if its SHA256 is the one
# apt's lists give (a download cut short is removed), else nothing.
cached_deb() {
	local deb sum
	deb=$(find "$apt_dir/debs" -maxdepth 1 -name "${1}_${2//:/%3a}_*.deb" | head -1)
	[ -n "$deb" ] || return 0
	sum=$(apt-cache show "$1=$2" | awk '$1 == "SHA256:" {print $2; exit}')
	if [ -n "$sum" ] && [ "$(sha256sum <"$deb" | cut -d' ' -f1)" = "$sum" ]; then
		echo "$deb"
	else
		rm -f "$deb"
	fi
}

# The path of the .deb of package $1 version $2, downloaded if not cached;
# apt checks the download against its lists, and so does cached_deb.
download_deb() {
	local name=$1 version=$2 deb
	deb=$(cached_deb "$name" "$version")
	if [ -z "$deb" ]; then
		private_apt_log "downloading $name $version"
		(cd "$apt_dir/debs" && apt-get download -q "$name=$version" >&2) ||
			{ private_apt_log "apt-get download $name=$version failed"; return 1; }
		deb=$(cached_deb "$name" "$version")
		[ -n "$deb" ] ||
			{ private_apt_log "$name $version: the download does not match apt's SHA256"; return 1; }
	fi
	echo "$deb"
}

# True if ROOT ($1) was unpacked whole from what STAMP ($2) names.
unpacked() {
	[ -d "$1" ] && [ "$(cat "$1/.sdsi-packages" 2>/dev/null)" = "$2" ]
}

# Unpacks DEB... (never installs them) into ROOT, stamped with STAMP (one
# line or more naming what ROOT holds, for unpacked).  With -m, only those
# members ("./usr/bin/x") of each package; with -f, the function FIXUP
# runs as FIXUP PART ROOT on the finished tree before it is renamed.
# Unpacked beside and renamed into place, so that an interrupted run
# leaves no half root that a later run would reuse.
unpack_debs() {
	local opt members=() fixup='' OPTIND=1 root stamp deb
	while getopts m:f: opt; do
		case $opt in
		m) members+=("$OPTARG") ;;
		f) fixup=$OPTARG ;;
		*) return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	root=$1 stamp=$2
	shift 2
	rm -rf "$root" "$root.part" && mkdir -p "$root.part" || return 1
	for deb in "$@"; do
		if [ ${#members[@]} -eq 0 ]; then
			dpkg -x "$deb" "$root.part"
		else
			dpkg-deb --fsys-tarfile "$deb" |
				tar -x --no-same-owner -C "$root.part" -- "${members[@]}"
		fi || { private_apt_log "$deb: cannot unpack it into $root.part"; return 1; }
	done
	if [ -n "$fixup" ]; then
		"$fixup" "$root.part" "$root" || return 1
	fi
	printf '%s\n' "$stamp" >"$root.part/.sdsi-packages" &&
		mv "$root.part" "$root"
}
