#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh OUT.cpio.gz KO [FILE:DEST ...] - build the embedded
# kernel's initramfs: busybox-static, scripts/vm/init, the module at
# /lib/modules/allocbench.ko, and each FILE at DEST. Executables bring the
# shared libraries `ldd` names, copied by path, and the dynamic loader.
set -eu

out=$1
ko=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
# a signal ends the script through exit, so the EXIT trap still cleans up
trap 'exit 130' INT
trap 'exit 143' TERM HUP

mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" \
	"$root/lib/modules" "$root/usr/bin" "$root/ab"
cp /bin/busybox "$root/bin/busybox"
cp "$here/init" "$root/init"
chmod 755 "$root/init"
cp "$ko" "$root/lib/modules/allocbench.ko"

copy_libs() {
	ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

for spec in "$@"; do
	src=${spec%%:*}
	dst=${spec#*:}
	mkdir -p "$root$(dirname "$dst")"
	cp "$src" "$root$dst"
	case $(head -c 4 "$src" | tr -d '\000') in
	*ELF) copy_libs "$src" ;;
	esac
done

trap 'rm -rf "$root" "$out.tmp"' EXIT
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -6 > "$out.tmp"
mv "$out.tmp" "$out"
