#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-kernel.sh CACHE [FLAVOUR] - put Debian's current kernel image and the
# matching headers under CACHE/<release>/ and print that directory.
#
# FLAVOUR is the image package's suffix after "linux-image-": "amd64" (the
# default: Debian 12's 6.1 kernel). The ABI number (6.1.0-57 on 2026-11-29)
# changes with security updates, so it is resolved from linux-image-amd64's
# dependency at download time; image and headers come from the same number,
# or insmod fails on "disagrees about version of symbol module_layout"
# (seen on 6.1.0-57). `apt-get download` + `dpkg -x` installs nothing
# system-wide. Each release is downloaded once and reused.
set -eu

cache=$1
flavour=${2:-amd64}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

resolve() {
	apt-cache depends "linux-image-$flavour" 2>/dev/null |
		sed -n "s/^ *Depends: linux-image-\(.*\)-$flavour\$/\1/p" | head -n 1
}

abi=$(resolve)
if [ -z "$abi" ]; then
	apt-get update -q >&2 || true
	abi=$(resolve)
fi
if [ -z "$abi" ]; then
	# Offline: fall back to the newest release already in the cache.
	abi=$(ls -1 "$cache" 2>/dev/null | grep -v '^debs$' | sort -V | tail -n 1)
	abi=${abi%-$flavour}
fi
if [ -z "$abi" ]; then
	echo "fetch-kernel: cannot resolve linux-image-$flavour (apt-get update failed?)" >&2
	exit 1
fi

rel="$abi-$flavour"
dir="$cache/$rel"
if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi

series=${abi%%.0-*}
debs="$cache/debs"
mkdir -p "$debs"
echo "fetch-kernel: downloading Debian's $rel kernel and headers" >&2
(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root \
	"linux-image-$rel" "linux-headers-$rel" "linux-headers-$abi-common" \
	"linux-kbuild-$series" >&2)

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
for p in "linux-image-$rel" "linux-headers-$rel" "linux-headers-$abi-common" \
	"linux-kbuild-$series"; do
	deb=$(ls -1t "$debs/${p}_"*.deb | head -n 1)
	dpkg -x "$deb" "$dir.tmp"
done
# Only vmlinuz and config are needed from the image (8 MB of 400).
rm -rf "$dir.tmp/lib/modules" "$dir.tmp/usr/lib/linux" \
	"$dir.tmp/usr/share/doc" "$dir.tmp/usr/share/lintian"
rm -f "$debs/linux-image-${rel}_"*.deb
ln -s "usr/src/linux-headers-$abi-common" "$dir.tmp/headers-common"
ln -s "usr/src/linux-headers-$rel" "$dir.tmp/headers"
ln -s "boot/vmlinuz-$rel" "$dir.tmp/vmlinuz"
touch "$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir"
