#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile probes (kcompat.sh, probes/) on both of their answers, on
# header trees that differ in one declaration only: a copy of Debian's
# 6.12 headers (every bin_attribute callback mutable) in which this test
# makes one of them const, then runs the probes and wants exactly that
# answer to turn.  The is_bin_visible edit is the 6.13-6.16 shape (const
# is_bin_visible, mutable read and write), on which the whole module must
# also build clean (build.sh).  The other answers (intel_vsec.h, its
# layout, its parent) change between real kernels, 6.1, 6.12 and 7.x,
# which scripts/check-kernel-build.sh checks on each.  Every shape also
# runs kcompat.sh's own check of each answer against the headers' text
# (kcompat-expected), and a probe broken on purpose must fail it by name.
#   drivers/kernel/test-kcompat.sh HEADERS_DIR OUT_DIR
# HEADERS_DIR is a 6.12 linux-headers-REL-amd64 as unpacked by
# rig/debian-kernels.sh (ROOT/usr/src/...); the copy is a tree of
# symlinks into it under OUT_DIR, the edited file a real one.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 HEADERS_DIR OUT_DIR" >&2; exit 2; }
headers=$(cd "$1" && pwd) || exit 1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
rel=${headers##*/linux-headers-}
root=${headers%/usr/src/*}
common="$root/usr/src/linux-headers-${rel%-amd64}-common"
[ -f "$common/include/linux/sysfs.h" ] || { echo "$0: no $common/include/linux/sysfs.h" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)

# The copy: usr/src and kbuild's programs (which the headers reach by
# relative links), the headers' Makefile pointed at the copy's -common.
copy="$out/root"
mkdir -p "$copy/usr/lib" || exit 1
cp -as "$root/usr/src" "$copy/usr/" && cp -as "$root"/usr/lib/linux-kbuild-* "$copy/usr/lib/" || exit 1
tree="$copy/usr/src/linux-headers-$rel"
rm "$tree/Makefile" &&
	sed "s|^include $root/|include $copy/|" "$headers/Makefile" >"$tree/Makefile" || exit 1
grep -q "^include $copy/" "$tree/Makefile" || { echo "$0: $headers/Makefile includes no -common Makefile" >&2; exit 1; }
sysfs="$copy/usr/src/linux-headers-${rel%-amd64}-common/include/linux/sysfs.h"
rm "$sysfs" || exit 1

failed=0
# SHAPE: a perl substitution on the original sysfs.h (must change it),
# then the probes' "yes" answers must be exactly WANT.
shape() {
	local name=$1 edit=$2 want=$3 got
	perl -0pe "$edit" "$common/include/linux/sysfs.h" >"$sysfs" || return 1
	if [ -n "$edit" ] && cmp -s "$sysfs" "$common/include/linux/sysfs.h"; then
		echo "kcompat-test: $name: the edit changed nothing (has 6.12's sysfs.h moved?)" >&2
		failed=1
		return
	fi
	"$here/kcompat.sh" "$tree" "$out/$name" >"$out/$name.answers" 2>&1 ||
		{ cat "$out/$name.answers" >&2; failed=1; return; }
	got=$(awk '$3 == "yes" {print $2}' "$out/$name.answers" | sort | tr '\n' ' ')
	if [ "${got% }" = "$want" ]; then
		echo "kcompat-test: $name: ok ($want)"
	else
		echo "kcompat-test: $name: the probes said yes to '${got% }', expected '$want'" >&2
		failed=1
	fi
}

vsec=SDSI_HAVE_INTEL_VSEC_H
shape 6.12 '' "$vsec"
shape const-read 's/(\(\*read\)\(struct file \*, struct kobject \*, )(struct bin_attribute \*)/$1const $2/' \
	"SDSI_HAVE_CONST_BIN_READ $vsec"
shape const-write 's/(\(\*write\)\(struct file \*, struct kobject \*, )(struct bin_attribute \*)/$1const $2/' \
	"SDSI_HAVE_CONST_BIN_WRITE $vsec"
shape const-bin-attrs 's/struct bin_attribute(\s+)\*\*bin_attrs;/const struct bin_attribute$1*const *bin_attrs;/' \
	"SDSI_HAVE_CONST_BIN_ATTRS $vsec"
# 6.13 to 6.16: only is_bin_visible's attribute is const.
shape 6.13 's/(\(\*is_bin_visible\)\(struct kobject \*,\s*)(struct bin_attribute \*)/$1const $2/' \
	"SDSI_HAVE_CONST_BIN_IS_VISIBLE $vsec"
# A probe broken on purpose (a member misspelt) where 6.12's headers
# declare what it probes: kcompat.sh must fail and name it, not answer no.
cp "$common/include/linux/sysfs.h" "$sysfs" || exit 1
rm -rf "$out/broken" && mkdir -p "$out/broken" &&
	cp -r "$here/probes" "$here/kcompat-expected" "$out/broken/" || exit 1
sed -i 's/v->resource\[0\]/v->no_such_member[0]/' "$out/broken/probes/have_intel_vsec_h.c"
if cmp -s "$out/broken/probes/have_intel_vsec_h.c" "$here/probes/have_intel_vsec_h.c"; then
	echo "kcompat-test: broken probe: the edit changed nothing" >&2
	failed=1
elif "$here/kcompat.sh" "$tree" "$out/broken/out" "$out/broken/probes" >"$out/broken.log" 2>&1; then
	cat "$out/broken.log" >&2
	echo "kcompat-test: a broken have_intel_vsec_h passed the build" >&2
	failed=1
elif ! grep -q 'probe have_intel_vsec_h fails against' "$out/broken.log"; then
	cat "$out/broken.log" >&2
	echo "kcompat-test: a broken have_intel_vsec_h failed without its name" >&2
	failed=1
else
	echo "kcompat-test: a broken probe fails the build with its name"
fi

if "$here/build.sh" "$tree" "$out/module-6.13" >"$out/module-6.13.log" 2>&1; then
	echo "kcompat-test: intel_sdsi builds clean on the 6.13 shape"
else
	cat "$out/module-6.13.log" >&2
	echo "kcompat-test: intel_sdsi does not build on the 6.13 shape" >&2
	failed=1
fi
exit $failed
