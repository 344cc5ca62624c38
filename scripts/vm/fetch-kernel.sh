#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-kernel.sh CACHE KERNEL - resolve KERNEL to a kernel the embedded VM
# can boot and build allocbench.ko for, and print a directory holding
#   vmlinuz   the image qemu boots
#   config    the kernel's .config
#   release   its release string (uname -r)
#   headers-common + headers   Debian's split header packages
#                              (make -C headers-common O=headers M=...), or
#   tree      a user's own build tree (make -C tree M=...)
#   9p/       the modules a virtio-9p mount needs that the kernel has as
#             modules (virtio_pci, 9pnet_virtio, 9p and what they depend
#             on, uncompressed), and 9p/order, their load order: the
#             virtual PMU's guest reads its counts through such a mount
#             (scripts/vm/init)
#
# KERNEL is one of
#   6.1, 6.12, 6.1-rt, 6.12-rt (also -cloud)  a Debian series: the newest
#       release apt knows, through the meta-packages linux-image-6.12-amd64,
#       linux-image-6.12-rt-amd64, or for Debian 12's default series
#       linux-image-amd64 / linux-image-rt-amd64;
#   6.1.0-47-amd64, 6.12.117+deb12-rt-amd64   an exact Debian release;
#   a path (containing a /) to a kernel build tree prepared for external
#       modules: arch/x86/boot/bzImage, .config, include/config/kernel.release
#       and Module.symvers (after `make bzImage modules`: modules_prepare
#       alone writes no Module.symvers).
# The header packages a Debian release needs are taken from apt's own
# dependencies of linux-headers-RELEASE (6.1: linux-headers-R-common and
# linux-kbuild-6.1; 6.12: linux-headers-R-common(-rt) and
# linux-kbuild-6.12.117+deb12), never guessed: image and headers come from
# the same release, or insmod fails on "disagrees about version of symbol
# module_layout". `apt-get download` + `dpkg -x` installs nothing
# system-wide; each release is downloaded once into CACHE and reused.
# Exit status: 0, or 2 for a KERNEL that is none of the above (or names a
# Debian kernel apt does not know), 1 when apt cannot be asked or fails.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: fetch-kernel.sh CACHE KERNEL" >&2
	exit 2
fi
cache=$1
kernel=$2
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
# one fetch at a time per cache: two runs naming one release two ways
# (6.1 and 6.1.0-57-amd64) would download into the same directory
exec 8>"$cache/.lock"
flock 8

# die STATUS MESSAGE
die() {
	echo "fetch-kernel: $2" >&2
	exit "$1"
}

# keep_9p ROOT OUT: the 9p mount's modules found under ROOT (a modules tree
# or a build tree) into OUT, dependencies first in OUT/order; one that is
# not found is taken as built in (init says so if the mount then fails)
keep_9p() {
	k9_root=$1
	k9_out=$2
	rm -rf "$k9_out.tmp"
	mkdir -p "$k9_out.tmp"
	: >"$k9_out.tmp/order"
	for k9_m in virtio_pci 9pnet_virtio 9p; do
		add_mod "$k9_m"
	done
	rm -rf "$k9_out"
	mv "$k9_out.tmp" "$k9_out"
}
add_mod() {
	local m f d
	m=$1
	grep -qx "$m" "$k9_out.tmp/order" && return 0
	f=$(find "$k9_root" \( -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" \) 2>/dev/null | head -n 1)
	[ -n "$f" ] || return 0
	for d in $(modinfo -F depends "$f" 2>/dev/null | tr ',' ' '); do
		add_mod "$d"
	done
	case $f in
	*.xz) xz -dc "$f" ;;
	*.zst) zstd -dcq "$f" ;;
	*) cat "$f" ;;
	esac >"$k9_out.tmp/$m.ko" || die 1 "cannot unpack $f"
	echo "$m" >>"$k9_out.tmp/order"
}

# ---- a user's own build tree ----
case $kernel in
*/*)
	[ -e "$kernel" ] || die 2 "KERNEL=$kernel: no such directory"
	[ -d "$kernel" ] || die 2 "KERNEL=$kernel: not a directory (a kernel build tree is one)"
	tree=$(cd "$kernel" && pwd) || die 2 "KERNEL=$kernel: cannot enter it"
	for f in arch/x86/boot/bzImage .config include/config/kernel.release Module.symvers; do
		case $f in
		# modules_prepare writes no Module.symvers: only a modules build does
		Module.symvers) how="\`make modules\` writes it (\`make modules_prepare\` does not)" ;;
		*) how="a build tree needs \`make bzImage modules\` first" ;;
		esac
		[ -e "$tree/$f" ] || die 2 "KERNEL=$kernel: $tree/$f is missing; $how"
	done
	rel=$(cat "$tree/include/config/kernel.release")
	id=$(printf '%s' "$tree" | cksum | cut -d' ' -f1)
	dir="$cache/tree-$rel-$id"
	mkdir -p "$dir"
	ln -sfn "$tree" "$dir/tree"
	ln -sfn "$tree/arch/x86/boot/bzImage" "$dir/vmlinuz"
	ln -sfn "$tree/.config" "$dir/config"
	printf '%s\n' "$rel" > "$dir/release"
	[ -d "$dir/9p" ] && [ ! "$tree/Module.symvers" -nt "$dir/9p" ] ||
		keep_9p "$tree" "$dir/9p"
	echo "$dir"
	exit 0
	;;
esac

# ---- a Debian kernel: series or release -> release ----
depends_of() {
	apt-cache depends "$1" 2>/dev/null | sed -n 's/^ *Depends: //p'
}

resolve() {
	case $kernel in
	*-rt) series=${kernel%-rt} flavour=rt-amd64 ;;
	*-cloud) series=${kernel%-cloud} flavour=cloud-amd64 ;;
	*) series=$kernel flavour=amd64 ;;
	esac
	if printf '%s' "$series" | grep -Eq '^[0-9]+\.[0-9]+$'; then
		for meta in "linux-image-$series-$flavour" "linux-image-$flavour"; do
			r=$(depends_of "$meta" | sed -n 's/^linux-image-//p' | head -n 1)
			case $r in
			"$series".*) echo "$r"; return ;;
			esac
		done
	elif printf '%s' "$kernel" | grep -Eq '^[0-9]+\.[0-9]+[.0-9]*[-+][-+.a-z0-9]*amd64$'; then
		if apt-cache show "linux-image-$kernel" >/dev/null 2>&1 &&
		   apt-cache show "linux-headers-$kernel" >/dev/null 2>&1; then
			echo "$kernel"
		fi
	fi
}

if ! printf '%s' "$kernel" | grep -Eq '^[0-9]+\.[0-9]+(-rt|-cloud)?$' &&
   ! printf '%s' "$kernel" | grep -Eq '^[0-9]+\.[0-9]+[.0-9]*[-+][-+.a-z0-9]*amd64$'; then
	die 2 "KERNEL=$kernel: not a kernel; allowed: a Debian series (6.1, 6.12, 6.1-rt, 6.12-rt), an exact Debian release (6.1.0-57-amd64, 6.12.117+deb12-rt-amd64), or a path to a kernel build tree"
fi

# apt's own chatter ("Reading package lists...", "Get:1 ...") goes to a
# log in the cache, named when apt fails; the user sees our lines alone
aptlog=$cache/apt.log
rel=$(resolve)
if [ -z "$rel" ]; then
	apt-get update -q >"$aptlog" 2>&1 || true
	rel=$(resolve)
fi
if [ -z "$rel" ]; then
	# Offline: the newest release of that series already in the cache.
	for d in $(ls -1 "$cache" 2>/dev/null | sort -V); do
		[ -f "$cache/$d/.complete" ] || continue
		case $kernel:$d in
		"$d:$d") rel=$d ;;
		*-rt:*-rt-amd64 | *-cloud:*-cloud-amd64) ;;
		*:*-rt-amd64 | *:*-cloud-amd64) continue ;;
		esac
		s=${kernel%-rt}
		s=${s%-cloud}
		case $d in "$s".*) rel=$d ;; esac
	done
	# known lists and no such package: the name is wrong (2); no lists
	# at all: apt could not be asked (1)
	if [ -n "$rel" ]; then
		:
	elif apt-cache show linux-image-amd64 >/dev/null 2>&1; then
		die 2 "KERNEL=$kernel: Debian has no such kernel (apt-cache search --names-only '^linux-image-[0-9]' lists them)"
	else
		die 1 "KERNEL=$kernel: apt knows no kernel at all (apt-get update failed? its output: $aptlog) and none is cached"
	fi
	echo "fetch-kernel: offline, using the cached $rel" >&2
fi

dir="$cache/$rel"
if [ -f "$dir/.complete" ]; then
	# a cache from before config and release were kept: add them
	[ -e "$dir/config" ] || ln -s "boot/config-$rel" "$dir/config"
	[ -e "$dir/release" ] || printf '%s\n' "$rel" > "$dir/release"
	# a cache from before the 9p modules were kept: the image once more
	if [ ! -d "$dir/9p" ]; then
		debs="$cache/debs"
		mkdir -p "$debs"
		echo "fetch-kernel: downloading Debian's $rel image once more, for its 9p modules" >&2
		(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$rel" >"$aptlog" 2>&1) ||
			die 1 "apt-get download linux-image-$rel failed: $(tail -n 1 "$aptlog") (all of it: $aptlog)"
		rm -rf "$dir.img"
		dpkg -x "$(ls -1t "$debs/linux-image-${rel}_"*.deb | head -n 1)" "$dir.img"
		keep_9p "$dir.img/lib/modules" "$dir/9p"
		rm -rf "$dir.img"
		rm -f "$debs/linux-image-${rel}_"*.deb
	fi
	echo "$dir"
	exit 0
fi

pkgs="linux-image-$rel linux-headers-$rel $(depends_of "linux-headers-$rel" |
	grep -E '^linux-(headers|kbuild)-' | tr '\n' ' ')"
debs="$cache/debs"
mkdir -p "$debs"
echo "fetch-kernel: downloading Debian's $rel kernel and headers ($pkgs)" >&2
# shellcheck disable=SC2086
(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root $pkgs >"$aptlog" 2>&1) ||
	die 1 "KERNEL=$kernel: apt-get download $pkgs failed: $(tail -n 1 "$aptlog") (all of it: $aptlog)"

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
for p in $pkgs; do
	deb=$(ls -1t "$debs/${p}_"*.deb | head -n 1)
	dpkg -x "$deb" "$dir.tmp"
done
# Only vmlinuz, config and the 9p modules are needed from the image (9 MB
# of 400).
keep_9p "$dir.tmp/lib/modules" "$dir.tmp/9p"
rm -rf "$dir.tmp/lib/modules" "$dir.tmp/usr/lib/linux" \
	"$dir.tmp/usr/share/doc" "$dir.tmp/usr/share/lintian"
rm -f "$debs/linux-image-${rel}_"*.deb
common=$(cd "$dir.tmp/usr/src" && ls -d linux-headers-*-common* | head -n 1)
[ -n "$common" ] || die 1 "linux-headers-$rel brought no -common headers package"
ln -s "usr/src/$common" "$dir.tmp/headers-common"
ln -s "usr/src/linux-headers-$rel" "$dir.tmp/headers"
ln -s "boot/vmlinuz-$rel" "$dir.tmp/vmlinuz"
ln -s "boot/config-$rel" "$dir.tmp/config"
printf '%s\n' "$rel" > "$dir.tmp/release"
touch "$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir"
