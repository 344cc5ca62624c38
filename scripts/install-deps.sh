#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# install-deps.sh - install what building, testing and the embedded kernel
# need, from Debian 12's packages. Does nothing when all are present; needs
# root (apt-get) otherwise.
set -eu

pkgs="gcc make libc6-dev pkg-config python3 libpopt-dev libnuma-dev libcmocka-dev zlib1g-dev libpfm4-dev libcpuset-dev libbitmask-dev libjson-c-dev libgsl-dev
qemu-system-x86 qemu-user busybox-static cpio gzip xz-utils zstd libelf1 libssl3 kmod man-db
python3-jsonschema gnuplot-nox mandoc bash-completion
libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0
clang-format perl pahole shellcheck zsh fish
debhelper dh-dkms lintian autopkgtest
gcc-multilib libcmocka-dev:i386"

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "allocbench: missing packages:$missing" >&2
	echo "allocbench: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "allocbench: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# the 32-bit ioctl test (-m32) links the i386 libcmocka
case " $(dpkg --print-foreign-architectures | tr '\n' ' ') " in
*" i386 "*) ;;
*) dpkg --add-architecture i386 ;;
esac
# a mirror in mid-sync fails an index now and then ("File has unexpected
# size"): try again, then go on with what was read (the install says
# whether a package is really missing)
for try in 1 2 3; do
	apt-get update -q >&2 && break
	echo "allocbench: apt-get update failed (try $try of 3)" >&2
	sleep $((try * 10))
done
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
