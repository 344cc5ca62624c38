#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# pvh-image.sh KERNEL_DIR OUT - the kernel's ELF image, for vm-run.sh's
# VM_IMAGE: qemu boots an ELF kernel through its PVH entry point (the Xen
# ELF note XEN_ELFNOTE_PHYS32_ENTRY, 18; CONFIG_PVH), which skips the
# firmware's real-mode boot and the bzImage's decompressor. Under TCG the
# decompressor is most of a boot: 9.6 s of a 16 s boot of Debian 6.1
# (xz), against 1.0 s from qemu's start to the kernel's first line with
# the ELF image (measured here, qemu 7.2). The PVH entry applies no KASLR:
# every boot has the same layout. make check's in-guest suites use it;
# measurements (allocbench vm, make demo) boot the bzImage as installed
# kernels do, whose layout each boot draws anew.
#
# The payload is found as Documentation/arch/x86/boot.rst gives it: the
# setup sectors' count at 0x1f1 (0 means 4), payload_offset (from the
# start of the protected-mode code) at 0x248 and payload_length at 0x24c,
# boot protocol 2.08 and later; the build appends the decompressed size
# (4 bytes, little-endian) to the compressed stream, which is checked.
# OUT is written only when it is older than the kernel image, and
# replaced whole. Exits 1, writing nothing, when the image is no bzImage
# of xz, zstd or gzip, or the kernel has no PVH entry; 3 when OUT cannot
# be written (a full or read-only disk: the reason on stderr). A signal
# leaves no partial file.
set -u
kdir=$1
out=$2
img=$kdir/vmlinuz
[ -e "$out" ] && [ "$out" -nt "$img" ] && exit 0
u() { od -An -t"$1" -j"$2" -N"$3" "$img" | tr -d ' \n'; }
[ "$(dd if="$img" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || exit 1
sects=$(u u1 497 1)
[ "$sects" = 0 ] && sects=4
off=$(u u4 584 4)
len=$(u u4 588 4)
start=$(((sects + 1) * 512 + off))
magic=$(u x1 "$start" 4)
case $magic in
fd377a58) dec="xz -dc" ;;
28b52ffd) dec="zstd -dcq" ;;
1f8b*) dec="gzip -dc" ;;
*) exit 1 ;;
esac
want=$(u u4 $((start + len - 4)) 4)
tmp=$out.$$.tmp
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# the payload decompressed, then written out by dd, whose error (ENOSPC,
# EROFS) is the one to tell
if ! err=$(tail -c +$((start + 1)) "$img" 2>/dev/null | head -c "$len" 2>/dev/null |
	$dec 2>/dev/null | dd of="$tmp" bs=1M iflag=fullblock status=none 2>&1) &&
	[ -n "$err" ]; then
	echo "pvh-image: cannot write $tmp: $(printf '%s\n' "$err" | sed 's/^dd: //' | head -n 1)" >&2
	exit 3
fi
if [ "$(wc -c <"$tmp")" != "$want" ] ||
	! readelf -n "$tmp" 2>/dev/null | grep -q 'note type: (0x00000012)'; then
	exit 1
fi
mv "$tmp" "$out" || exit 3
