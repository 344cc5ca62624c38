#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh OUT.cpio.gz KO [FILE:DEST ...] - build the embedded
# kernel's initramfs: busybox-static, scripts/vm/init, the module at
# /lib/modules/allocbench.ko, and each FILE at DEST. Executables bring the
# shared libraries they need and their dynamic loader (copy_libs).
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

# copy_libs ELF: the dynamic loader ELF names and the shared libraries it
# needs, theirs too, each copied by path. Read off the ELF headers
# (readelf) and resolved through the dynamic linker's cache (ldconfig -p),
# keeping the library of ELF's own class and machine (i386 and x32 are
# both ELF32): nothing is run, as ldd would run
# the loader, and a 32-bit loader cannot run on a host kernel without IA32
# emulation (ldd then names nothing, and the i386 ioctl suite could not
# start in the guest). A library not found ends the build (status 1).
elf_class() {
	readelf -h "$1" 2>/dev/null | awk -F: '$1 ~ /^ *(Class|Machine)$/ { sub(/^ */, "", $2); printf "%s;", $2 }'
}
copy_libs() {
	class=$(elf_class "$1")
	todo=$1
	seen=
	interp=$(readelf -l "$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	while [ -n "$todo" ]; do
		set -- $todo
		elf=$1
		shift
		todo=$*
		for need in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case " $seen " in *" $need "*) continue ;; esac
			seen="$seen $need"
			lib=
			for cand in $($ldconfig -p | awk -v n="$need" '$1 == n { print $NF }'); do
				if [ "$(elf_class "$cand")" = "$class" ]; then
					lib=$cand
					break
				fi
			done
			if [ -z "$lib" ]; then
				echo "mkinitramfs.sh: $need, which $elf needs ($class), is in no directory of ldconfig's cache" >&2
				exit 1
			fi
			todo="$todo $lib"
			copy_lib "$lib"
		done
	done
	[ -z "$interp" ] || copy_lib "$interp"
}
# copy_lib PATH: the file PATH names, at PATH in the image
copy_lib() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)

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
