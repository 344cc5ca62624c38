#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-image.sh KERNEL CACHE OUT SRC ALLOCBENCH [FILE:DEST ...] - make the
# embedded kernel's image for KERNEL (as scripts/vm/fetch-kernel.sh names
# kernels) in the directory OUT:
#   OUT/kernel-dir        the directory fetch-kernel.sh prints (CACHE/kernel/..)
#   OUT/kernel-stamp      sizes and times of what the module is built against
#   OUT/kmod/allocbench.ko, OUT/kmod/build.log   the module, from SRC's kmod/
#   OUT/initrd.gz         busybox, init, the module, ALLOCBENCH at
#                         /usr/bin/allocbench, ab-out, the kernel's 9p
#                         modules at /lib/modules/9p/ (loaded only for the
#                         virtual PMU with VPMU_CHANNEL=9p), in a source checkout
#                         OUT/kmod/vpmu-calib at /ab/vpmu-calib (what the
#                         virtual PMU must count in the module's
#                         calibration loop, vpmu/loop-length.sh) and
#                         OUT/kmod/vpmu-known at /ab/vpmu-known (its net
#                         count per op of vpmu_known, vpmu/known-length.sh),
#                         and each
#                         FILE at DEST
# Used by the Makefile (vm-image, with the test programs and scripts as
# FILEs) and by `allocbench vm` (SRC is then the installed copy of the
# module's sources, or the source checkout). Each step runs only when
# something it depends on is newer than what it made, or is missing; the
# kernel is downloaded once into CACHE. Exit status: fetch-kernel.sh's (2:
# not a kernel, and then OUT is not made), 1 when a build step fails (the
# module's build exits 2 itself, as make does: that is 1 here too).
set -eu
if [ $# -lt 5 ]; then
	echo "usage: vm-image.sh KERNEL CACHE OUT SRC ALLOCBENCH [FILE:DEST ...]" >&2
	exit 2
fi
kernel=$1
cache=$2
out=$3
src=$4
ab=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)

# step CMD...: a build step; its failure is status 1 (2 is fetch-kernel's
# "not a kernel" alone: make's own 2 must not read as a usage error), a
# signal's status is kept
step() {
	"$@" || {
		st=$?
		[ "$st" -gt 128 ] && exit "$st"
		exit 1
	}
}

# The kernel first: a name that is no kernel (status 2) leaves no OUT
# behind. fetch-kernel.sh takes its own lock on the cache.
rc=0
k=$(sh "$here/fetch-kernel.sh" "$cache/kernel" "$kernel") || rc=$?
[ "$rc" = 0 ] || exit "$rc"
mkdir -p "$out/kmod"
out=$(cd "$out" && pwd)
# one maker of an image at a time (two `allocbench vm` sharing a cache);
# the boots read initrd.gz, which is only ever replaced whole (mv)
exec 9>"$out/.lock"
flock 9

# stale TARGET FILE...: TARGET is missing or older than one of the FILEs
stale() {
	t=$1
	shift
	[ -e "$t" ] || return 0
	[ -n "$(find "$@" -newer "$t" 2>/dev/null | head -n 1)" ]
}

# replace TARGET by TARGET.tmp only when they differ, so that its time
# says when its content last changed
settle() {
	if cmp -s "$1.tmp" "$1"; then rm -f "$1.tmp"; else mv "$1.tmp" "$1"; fi
}

printf '%s\n' "$k" >"$out/kernel-dir.tmp"
settle "$out/kernel-dir"

# What the module was built against: a user's tree can change under the
# same release (a new .config, Module.symvers); then it is built again.
# shellcheck disable=SC2046
ls -lL --time-style=+%s "$k/vmlinuz" "$k/config" $(test -e "$k/tree" &&
	echo "$k/tree/Module.symvers" "$k/tree/include/generated/autoconf.h") 2>/dev/null |
	awk '{ print $5, $6, $7 }' >"$out/kernel-stamp.tmp"
settle "$out/kernel-stamp"

# The build log is kept: tests/run-all.sh checks it holds no warning.
# A module built from the same sources against the same kernel is shared
# by the images made with one CACHE (make's in build/vm, allocbench vm's
# in CACHE/vm): CACHE/kmod/KEY holds allocbench.ko and its build log, KEY
# a hash of the kernel's directory and stamp and of the sources (names and
# contents); the 16 newest are kept. The module's file names in its
# strings are then the first build's directory.
if stale "$out/kmod/allocbench.ko" "$out/kernel-dir" "$out/kernel-stamp" \
	"$src/kmod" "$src/common" "$src/include/uapi/linux" "$src/VERSION"; then
	key=$({ cat "$out/kernel-dir" "$out/kernel-stamp" &&
		(cd "$src" && sha256sum VERSION kmod/*.c kmod/*.h kmod/Kbuild common/* include/uapi/linux/*); } |
		sha256sum | cut -c1-24)
	shared=$cache/kmod/$key
	if [ -f "$shared/allocbench.ko" ] && [ -f "$shared/build.log" ]; then
		cp "$shared/allocbench.ko" "$shared/build.log" "$out/kmod/"
	else
		cp "$src"/kmod/*.c "$src"/kmod/*.h "$src/kmod/Kbuild" "$out/kmod/"
		step sh "$here/build-kmod.sh" "$k" "$out/kmod" "$(cd "$src" && pwd)"
		mkdir -p "$cache/kmod"
		tmpk=$(mktemp -d "$cache/kmod/.new.XXXXXX")
		cp "$out/kmod/allocbench.ko" "$out/kmod/build.log" "$tmpk/"
		# another image's build of the same KEY may have come first
		mv -T "$tmpk" "$shared" 2>/dev/null || rm -rf "$tmpk"
		# shellcheck disable=SC2012
		ls -1t "$cache/kmod" | tail -n +17 | while read -r old; do
			rm -rf "${cache:?}/kmod/$old"
		done
	fi
fi

# What the virtual PMU must count in the module's calibration loop (the
# lookup pass of the none method), read off objdump of the module just
# built: tests/kernel/vpmu.sh compares. Only in a source checkout.
calib=
if [ -f "$src/vpmu/loop-length.sh" ]; then
	if stale "$out/kmod/vpmu-calib" "$out/kmod/allocbench.ko" "$src/vpmu/loop-length.sh"; then
		step sh "$src/vpmu/loop-length.sh" "$out/kmod/allocbench.ko" ab_vpass_NONE_kmalloc >"$out/kmod/vpmu-calib.tmp"
		mv "$out/kmod/vpmu-calib.tmp" "$out/kmod/vpmu-calib"
	fi
	calib="$out/kmod/vpmu-calib:/ab/vpmu-calib"
fi
# and per op of the vpmu_known strategy, net of none (vpmu/known-length.sh)
if [ -f "$src/vpmu/known-length.sh" ]; then
	if stale "$out/kmod/vpmu-known" "$out/kmod/allocbench.ko" "$src/vpmu/known-length.sh"; then
		step sh "$src/vpmu/known-length.sh" "$out/kmod/allocbench.ko" >"$out/kmod/vpmu-known.tmp"
		mv "$out/kmod/vpmu-known.tmp" "$out/kmod/vpmu-known"
	fi
	calib="$calib $out/kmod/vpmu-known:/ab/vpmu-known"
fi

# ab-out (the guest's writer to qemu's debug console) is built here, with
# the compiler the module needs anyway
if stale "$out/ab-out" "$here/ab-out.c"; then
	step ${CC:-cc} -O2 -o "$out/ab-out" "$here/ab-out.c"
fi

# the list of FILEs is a dependency too: one more or one less remakes it
files=
for spec in "$@"; do
	files="$files ${spec%%:*}"
done
printf '%s\n' "$ab" "$@" >"$out/initrd.files.tmp"
settle "$out/initrd.files"
# the 9p modules fetch-kernel.sh kept, in their load order
nine=
if [ -f "$k/9p/order" ]; then
	nine="$k/9p/order:/lib/modules/9p/order"
	for m in $(cat "$k/9p/order"); do
		nine="$nine $k/9p/$m.ko:/lib/modules/9p/$m.ko"
	done
fi
# shellcheck disable=SC2086
if stale "$out/initrd.gz" "$out/initrd.files" "$out/kmod/allocbench.ko" "$ab" \
	"$out/ab-out" "$here/init" "$here/mkinitramfs.sh" $files ${calib%%:*} \
	$(test -d "$k/9p" && echo "$k/9p"); then
	step sh "$here/mkinitramfs.sh" "$out/initrd.gz" "$out/kmod/allocbench.ko" \
		"$k/config:/boot/config-$(cat "$k/release")" \
		"$ab:/usr/bin/allocbench" "$out/ab-out:/bin/ab-out" $nine $calib "$@"
fi
