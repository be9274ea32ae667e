#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make deb: the Debian packages of debian/ built from a copy of the tree
# under OUT_DIR/src, so that dpkg-buildpackage's products (written to the
# source's parent directory) land in OUT_DIR and nothing outside it is
# touched; then lintian on them, which must report no error and no warning
# (each override in debian/*.lintian-overrides says why, and one lintian
# no longer uses fails too); and the documents of debian/*.docs, which the
# man pages and --help cite by path, in their packages, uncompressed; and
# the trust anchor directory in intel-sdsi-tools, empty, with no
# certificate in any package.
#   scripts/build-deb.sh [OUT_DIR]        (default build/deb)
# The last line printed is
#   deb: N packages in OUT_DIR, lintian clean
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)

dpkg-checkbuilddeps "$repo/debian/control" ||
	{ echo "$0: run scripts/ensure-deps.sh --deb (as root) first" >&2; exit 1; }

# The tree as committed or edited, without build products (the copy's own
# build runs in it) and without git's metadata.
rm -rf "$out/src" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out/lintian.log"
mkdir -p "$out/src"
tar -C "$repo" -c --exclude='./build*' --exclude=./.git --exclude='__pycache__' \
	--exclude=.pytest_cache . | tar -C "$out/src" -x

# -b: binary packages only, so no orig tarball is needed; unsigned.
(cd "$out/src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -n 60 "$out/build.log" >&2; echo "$0: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }

mapfile -t debs < <(find "$out" -maxdepth 1 -name '*.deb' | sort)
[ ${#debs[@]} -gt 0 ] || { echo "$0: dpkg-buildpackage made no .deb" >&2; exit 1; }

# Errors and warnings fail; info tags and the overridden ones (O:, each
# with its reason) are printed for the record.  lintian's own --fail-on
# would count the overridden tags it shows, so its output is judged here.
lintian --fail-on none --info --display-info --show-overrides "$out"/*.changes \
	>"$out/lintian.log" 2>&1 ||
	{ cat "$out/lintian.log" >&2; echo "$0: lintian failed to run (log: $out/lintian.log)" >&2; exit 1; }
if grep -q -e '^[EW]:' -e '^I: [^ ]*: unused-override ' "$out/lintian.log"; then
	cat "$out/lintian.log" >&2
	echo "$0: lintian reports errors, warnings or unused overrides (log: $out/lintian.log)" >&2
	exit 1
fi
# Each cited document at the path the pages give (dh_compress -X.md).
for docs in "$repo"/debian/*.docs; do
	pkg=$(basename "$docs" .docs)
	deb=$(find "$out" -maxdepth 1 -name "${pkg}_*.deb" | head -1)
	[ -n "$deb" ] || { echo "$0: no package $pkg for debian/$pkg.docs" >&2; exit 1; }
	contents=$(dpkg-deb -c "$deb")
	while read -r doc; do
		[ -n "$doc" ] || continue
		grep -q " \./usr/share/doc/$pkg/${doc##*/}\$" <<<"$contents" ||
			{ echo "$0: $pkg lacks /usr/share/doc/$pkg/${doc##*/} (debian/$pkg.docs)" >&2; exit 1; }
	done <"$docs"
done
# The attestation roots intel_sdsi trusts by default: the directory, in
# intel-sdsi-tools, empty, for the owner to fill (docs/packages.md); no
# package holds a certificate, so no test root is ever trusted by default.
roots=./etc/sdsi/attestation-roots/
for deb in "${debs[@]}"; do
	dpkg-deb -c "$deb" | awk '{ print $NF }' >"$out/contents.txt"
	case "$(basename "$deb")" in
	intel-sdsi-tools_*)
		grep -qx "$roots" "$out/contents.txt" ||
			{ echo "$0: intel-sdsi-tools lacks the directory ${roots#.}" >&2; exit 1; } ;;
	esac
	if grep -e "^$roots." -e '\.pem$' -e '\.crt$' -e '\.der$' "$out/contents.txt" >"$out/certs.txt"; then
		echo "$0: $(basename "$deb") holds what may be a trusted root: $(xargs <"$out/certs.txt")" >&2
		exit 1
	fi
	mkdir -p "$out/x" && rm -rf "$out/x"/* && dpkg-deb -x "$deb" "$out/x"
	if grep -rlI -e '-----BEGIN CERTIFICATE-----' "$out/x" >"$out/certs.txt"; then
		echo "$0: $(basename "$deb") holds a certificate: $(sed "s|^$out/x||" "$out/certs.txt" | xargs)" >&2
		exit 1
	fi
done
rm -rf "$out/x" "$out/contents.txt" "$out/certs.txt"
grep -E '^[EWIXPO]:' "$out/lintian.log" || true
for deb in "${debs[@]}"; do
	echo "deb: $(basename "$deb")"
done
echo "deb: ${#debs[@]} packages in $out, lintian clean"
