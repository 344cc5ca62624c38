#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# dkms.sh [MATRIX] - the DKMS path for real (TAP lines; CI runs it with
# DKMS=1, as root, on a throw-away machine): install dkms and Debian's
# linux-headers package of the first Debian kernel of the matrix
# system-wide, `make dkms KVER=...`
# (dkms add, build, install), then boot that kernel with the module DKMS
# built (not the one make built) and check it is the one loaded. Removes
# the DKMS module again at the end; the packages stay.
cd "$(dirname "$0")/.." || exit 1
. tests/kernel/lib.sh
# the first Debian kernel of make check's matrix (MATRIX, as run-all.sh)
b=
while read -r name dir; do
	[ -e "$(cat "$dir/kernel-dir")/headers" ] && b=$dir && break
done <"${1:-build/vm/matrix}"
if [ -z "$b" ]; then
	ok "dkms: not tried: no Debian kernel in the matrix # SKIP"
	exit 0
fi
kdir=$(cat "$b/kernel-dir")
rel=$(cat "$kdir/release")
ver=$(tail -n 1 VERSION)
# a developer's own DKMS install is not the test's to replace or remove
if command -v dkms >/dev/null && [ -n "$(dkms status allocbench 2>/dev/null)" ]; then
	ok "dkms: not tried: allocbench is already registered with DKMS here ($(dkms status allocbench | head -n 1)) # SKIP"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; make -s dkms-remove >/dev/null 2>&1' EXIT

if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	dkms "linux-headers-$rel" >"$tmp/apt.log" 2>&1; then
	ok "dkms: dkms and linux-headers-$rel installed"
else
	notok "dkms: apt-get install dkms linux-headers-$rel failed: $(tail -n 3 "$tmp/apt.log")"
	exit 0
fi
expect 0 "" "dkms: make dkms KVER=$rel (dkms add, build, install)" -- \
	make --no-print-directory dkms KVER="$rel"
ko=$(ls "/lib/modules/$rel/updates/dkms/allocbench.ko"* 2>/dev/null | head -n 1)
case $ko in
*.xz) xz -dc "$ko" >"$tmp/allocbench.ko" ;;
*.zst) zstd -qdc "$ko" >"$tmp/allocbench.ko" ;;
?*) cp "$ko" "$tmp/allocbench.ko" ;;
esac
if [ -s "$tmp/allocbench.ko" ]; then
	ok "dkms: the module is installed for $rel ($ko)"
else
	notok "dkms: no allocbench.ko under /lib/modules/$rel/updates/dkms"
	exit 0
fi
src=$(modinfo -F srcversion "$tmp/allocbench.ko")
# The guest boots with DKMS's module in place of the one make built.
sh scripts/vm/mkinitramfs.sh "$tmp/initrd.gz" "$tmp/allocbench.ko" \
	"$kdir/config:/boot/config-$rel" allocbench:/usr/bin/allocbench \
	"$b/ab-out:/bin/ab-out"
expect 0 "^srcversion $src$" "dkms: the DKMS-built module loads and runs in $rel" -- \
	sh scripts/vm/vm-run.sh "$kdir" "$tmp/initrd.gz" \
	'echo "srcversion $(cat /sys/module/allocbench/srcversion)"; allocbench run --alloc=kmalloc --trials=5 -q'
expect 0 "" "dkms: make dkms-remove" -- make --no-print-directory dkms-remove
[ -e "/usr/src/allocbench-$ver" ] && notok "dkms: /usr/src/allocbench-$ver removed" ||
	ok "dkms: /usr/src/allocbench-$ver removed"
