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
#   6.1, 6.12, 7.2, 7.3, 6.12-rt, 7.3-rt (also -cloud)  a Debian series:
#       Debian 12's through the system's apt and its meta-packages
#       (linux-image-6.12-amd64, linux-image-6.12-rt-amd64, or for its
#       default series linux-image-amd64 / linux-image-rt-amd64); a newer
#       one, the newest release with headers in Debian's newer suites
#       (below; release candidates, such as experimental's 7.3~rc7, are
#       never chosen);
#   latest (latest-rt, latest-cloud)  the newest release of all those with
#       headers;
#   6.1.0-47-amd64, 6.12.117+deb12-rt-amd64, 7.3.4+deb13-amd64  an exact
#       Debian release;
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
# Debian's newer suites (trixie, trixie-backports, sid, experimental:
# 7.x today) are read through a private apt configuration in CACHE/apt
# (its own sources list, lists and package cache, apt.conf(5) Dir::*):
# the system's sources, lists and dpkg state are never touched. There a
# kernel is a meta-package over linux-binary-R (vmlinuz in
# usr/lib/modules/R), linux-base-R (config) and linux-modules-R, and its
# kbuild programs are built against glibc 2.38 or later (modpost, objtool,
# resolve_btfids), newer than Debian 12's 2.36: those programs are kept
# as Debian built them and each is run by the newer suites' own dynamic
# loader and libc (libc6 and libelf1t64, unpacked into CACHE/glibc) through
# a two-line wrapper in its place (wrap_glibc below). A release Debian
# ships without headers (6.16 to 7.1 today) is refused: no module can be
# built for it from Debian's packages.
# Exit status: 0, or 2 for a KERNEL that is none of the above (or names a
# Debian kernel apt does not know), 1 when apt cannot be asked or fails.
#
# fetch-kernel.sh CACHE --apt apt-get|apt-cache ARGS... - that tool over the
# private apt configuration of Debian's newer suites (below), for the
# scripts that read them too (bench/vm-page-frag.sh); its status.
set -eu

case ${2:-} in
--apt) [ $# -ge 3 ] ;;
*) [ $# -eq 2 ] ;;
esac || {
	echo "usage: fetch-kernel.sh CACHE KERNEL, or fetch-kernel.sh CACHE --apt apt-get|apt-cache ARGS..." >&2
	exit 2
}
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

# glibc_need FILE: the newest GLIBC_ symbol version an ELF file asks for
glibc_need() {
	objdump -T "$1" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' |
		sort -V | tail -n 1
}

# wrap_glibc DIR: every ELF program under DIR/linux-kbuild-* (the
# kbuild programs) that asks for a newer glibc than this machine's is
# renamed NAME.glibc and NAME becomes a wrapper that runs it with the
# newer suites' loader and libc (fetched once into CACHE/glibc): the
# wrapper finds its program by $0, the loader by its path in the cache
wrap_glibc() {
	wg_host=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //')
	for wg_f in $(find "$1"/linux-kbuild-* -type f -perm -u+x 2>/dev/null); do
		head -c 4 "$wg_f" | grep -q 'ELF' || continue
		wg_need=$(glibc_need "$wg_f")
		[ -n "$wg_need" ] && [ -n "$wg_host" ] || continue
		[ "$(printf '%s\n%s\n' "$wg_need" "$wg_host" | sort -V | tail -n 1)" != "$wg_host" ] || continue
		fetch_glibc "$wg_need"
		mv "$wg_f" "$wg_f.glibc"
		printf '#!/bin/sh\n# fetch-kernel.sh: Debian built %s against glibc %s (this machine: %s); glibc %s runs it\nexec "%s" --library-path "%s" "$0.glibc" "$@"\n' \
			"${wg_f##*/}" "$wg_need" "$wg_host" "$glibc_ver" "$glibc_lib/ld-linux-x86-64.so.2" "$glibc_lib" >"$wg_f"
		chmod +x "$wg_f"
	done
}

# fetch_glibc VERSION: the newer suites' libc6 and libelf1t64 (objtool and
# resolve_btfids link libelf) unpacked once into CACHE/glibc; sets
# glibc_lib (their library directory, with the loader) and glibc_ver
fetch_glibc() {
	glibc_lib=$cache/glibc/root/usr/lib/x86_64-linux-gnu
	# the cache's lock again (let go after the release's download): the
	# private apt and CACHE/glibc are every release's
	flock 8
	if [ ! -f "$cache/glibc/.complete" ]; then
		update_new
		rm -rf "$cache/glibc"
		mkdir -p "$cache/glibc/debs"
		(cd "$cache/glibc/debs" && apt_new apt-get download -q libc6 libelf1t64 >>"$aptlog" 2>&1) ||
			die 1 "KERNEL=$kernel: its kbuild programs need glibc $1 and apt-get download libc6 libelf1t64 failed: $(tail -n 1 "$aptlog") (all of it: $aptlog)"
		for fg_d in "$cache/glibc/debs"/*.deb; do
			dpkg -x "$fg_d" "$cache/glibc/root"
		done
		dpkg-deb -f "$cache/glibc/debs"/libc6_*.deb Version >"$cache/glibc/version"
		rm -rf "$cache/glibc/debs"
		[ -x "$glibc_lib/ld-linux-x86-64.so.2" ] ||
			die 1 "KERNEL=$kernel: the newer suites' libc6 holds no $glibc_lib/ld-linux-x86-64.so.2"
		touch "$cache/glibc/.complete"
	fi
	glibc_ver=$(sed 's/-.*//' "$cache/glibc/version")
	[ "$(printf '%s\n%s\n' "$1" "$glibc_ver" | sort -V | tail -n 1)" = "$glibc_ver" ] ||
		die 1 "KERNEL=$kernel: its kbuild programs need glibc $1, and the newer suites' libc6 is $glibc_ver"
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

# ---- Debian's newer suites, through apt lists of our own ----
mirror=${AB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
napt=$cache/apt
# apt_new apt-get|apt-cache ARGS: apt over the private configuration, its
# binary caches kept (bincache)
apt_new() {
	an_tool=$1
	shift
	# shellcheck disable=SC2086
	"$an_tool" -o "Dir::Etc::sourcelist=$napt/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent -o "Dir::State::Lists=$napt/lists" \
		-o "Dir::Cache=$napt/cache" -o Dir::State::status=/dev/null \
		$bincache -o APT::Sandbox::User=root "$@"
}
# update_new: the private lists, fetched when missing or older than six
# hours (a failure leaves the old lists, or none: an offline machine)
update_new() {
	mkdir -p "$napt/lists/partial" "$napt/cache/archives/partial"
	: >"$napt/sources.list.tmp"
	for un_suite in trixie trixie-backports sid experimental; do
		echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $un_suite main" >>"$napt/sources.list.tmp"
	done
	mv "$napt/sources.list.tmp" "$napt/sources.list"
	if [ -z "$(find "$napt/lists" -maxdepth 1 -name '*_InRelease' -mmin -360 2>/dev/null)" ]; then
		apt_new apt-get -q update >>"$aptlog" 2>&1 || true
	fi
}

# ---- a Debian kernel: series or release -> release ----
# apt's binary caches (pkgcache.bin, srcpkgcache.bin), which
# Debian's container images turn off (Dir::Cache::pkgcache ""): without
# them each apt-cache call parses every list again (1.5 s over the newer
# suites', 0.08 s with them). apt checks them against the lists and dpkg's
# status before it uses them.
bincache="-o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin"
# fetch-kernel.sh CACHE --apt apt-get|apt-cache ARGS...: that tool over
# the private configuration (apt_new, its lists made as update_new makes
# them), for others that read Debian's newer suites (bench/vm-page-frag.sh)
if [ "$kernel" = --apt ]; then
	shift 2
	aptlog=$cache/apt.log
	update_new
	apt_new "$@"
	exit
fi
# apt_sys apt-cache ARGS: the system's apt (its sources, lists and status),
# its binary caches kept in CACHE/sysapt
apt_sys() {
	as_tool=$1
	shift
	mkdir -p "$cache/sysapt"
	# shellcheck disable=SC2086
	"$as_tool" -o "Dir::Cache=$cache/sysapt" $bincache "$@"
}
# depends_of PKG: its Depends, from the apt that knows the release (src)
depends_of() {
	if [ "${src:-sys}" = new ]; then
		apt_new apt-cache depends "$1" 2>/dev/null
	else
		apt_sys apt-cache depends "$1" 2>/dev/null
	fi | sed -n 's/^ *Depends: //p'
}

# flavour_of NAME: the package suffix a series or latest name asks for
flavour_of() {
	case $1 in
	*-rt) echo rt-amd64 ;;
	*-cloud) echo cloud-amd64 ;;
	*) echo amd64 ;;
	esac
}

# releases TOOL FLAVOUR [SERIES]: the releases of FLAVOUR (of SERIES, X.Y)
# that TOOL's apt has headers for, oldest first; release candidates
# (7.3-amd64) have no patch level and are left out
releases() {
	rl_tool=$1
	rl_fl=$2
	rl_s='[0-9]+\.[0-9]+'
	[ -z "${3:-}" ] || rl_s=$(printf '%s' "$3" | sed 's/\./\\./g')
	if [ "$rl_tool" = new ]; then
		apt_new apt-cache pkgnames linux-headers- 2>/dev/null
	else
		apt_sys apt-cache pkgnames linux-headers- 2>/dev/null
	fi | sed -n 's/^linux-headers-//p' |
		grep -E "^${rl_s}\.[0-9]+(-[0-9]+|\+deb[0-9]+)-$rl_fl\$" | sort -V
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
		if apt_sys apt-cache show "linux-image-$kernel" >/dev/null 2>&1 &&
		   apt_sys apt-cache show "linux-headers-$kernel" >/dev/null 2>&1; then
			echo "$kernel"
		fi
	fi
}

if ! printf '%s' "$kernel" | grep -Eq '^([0-9]+\.[0-9]+|latest)(-rt|-cloud)?$' &&
   ! printf '%s' "$kernel" | grep -Eq '^[0-9]+\.[0-9]+[.0-9]*[-+][-+.a-z0-9]*amd64$'; then
	die 2 "KERNEL=$kernel: not a kernel; allowed: a Debian series (6.1, 6.12, 7.2, 7.3, each also -rt or -cloud), latest (latest-rt, latest-cloud), an exact Debian release (6.1.0-57-amd64, 6.12.117+deb12-rt-amd64, 7.3.4+deb13-amd64), or a path to a kernel build tree"
fi

# resolve_new: the release KERNEL names in the newer suites; for latest,
# the newest of theirs and the system's
resolve_new() {
	case $kernel in
	latest*)
		{ releases sys "$(flavour_of "$kernel")"; releases new "$(flavour_of "$kernel")"; } |
			sort -V | tail -n 1
		;;
	*[-+]*amd64)
		if apt_new apt-cache show "linux-image-$kernel" >/dev/null 2>&1 &&
		   apt_new apt-cache show "linux-headers-$kernel" >/dev/null 2>&1; then
			echo "$kernel"
		fi
		;;
	*)
		rn_s=${kernel%-rt}
		releases new "$(flavour_of "$kernel")" "${rn_s%-cloud}" | tail -n 1
		;;
	esac
}

# no_headers: refuse a kernel Debian ships as an image alone, naming the
# newest such release and what works instead
no_headers() {
	nh_s=${kernel%-rt}
	nh_s=${nh_s%-cloud}
	case $kernel in
	*[-+]*amd64) nh_pat="^linux-image-$kernel\$" ;;
	*) nh_pat="^linux-image-$(printf '%s' "$nh_s" | sed 's/\./\\./g')\.[0-9]+[-+].*-$(flavour_of "$kernel")\$" ;;
	esac
	nh_img=$(apt_new apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$nh_pat" |
		sed 's/^linux-image-//' | sort -V | tail -n 1)
	[ -n "$nh_img" ] || return 0
	nh_ok=$({ releases sys amd64; releases new amd64; } | sed -E 's/^([0-9]+\.[0-9]+).*/\1/' | sort -uV | tr '\n' ' ')
	die 2 "KERNEL=$kernel: Debian ships $nh_img without headers (no linux-headers-$nh_img, no linux-source), so no module can be built for it from Debian's packages; use a build tree of that kernel (KERNEL=/path/to/linux, after make bzImage modules), or a series with headers: ${nh_ok% }"
}

# apt's own chatter ("Reading package lists...", "Get:1 ...") goes to a
# log in the cache, named when apt fails; the user sees our lines alone
aptlog=$cache/apt.log
: >"$aptlog"
# the system's apt first (Debian 12's kernels: 6.12 there is not trixie's
# 6.12, which gcc-14 built), updated only when it knows no kernel at all;
# then the newer suites (and always both for latest)
src=sys
rel=
case $kernel in latest*) ;; *) rel=$(resolve) ;; esac
if [ -z "$rel" ] && ! apt_sys apt-cache show linux-image-amd64 >/dev/null 2>&1; then
	apt-get update -q >>"$aptlog" 2>&1 || true
	case $kernel in latest*) ;; *) rel=$(resolve) ;; esac
fi
if [ -z "$rel" ]; then
	update_new
	rel=$(resolve_new)
	if [ -n "$rel" ] && ! apt_sys apt-cache show "linux-headers-$rel" >/dev/null 2>&1; then
		src=new
	fi
	[ -n "$rel" ] || no_headers
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
		case $s:$d in latest:*-amd64 | *:"$s".*) rel=$d ;; esac
	done
	# known lists and no such package: the name is wrong (2); no lists
	# at all: apt could not be asked (1)
	if [ -n "$rel" ]; then
		:
	elif apt_sys apt-cache show linux-image-amd64 >/dev/null 2>&1; then
		die 2 "KERNEL=$kernel: Debian has no such kernel (apt-cache search --names-only '^linux-image-[0-9]' lists them)"
	else
		die 1 "KERNEL=$kernel: apt knows no kernel at all (apt-get update failed? its output: $aptlog) and none is cached"
	fi
	echo "fetch-kernel: offline, using the cached $rel" >&2
fi

dir="$cache/$rel"
# one fetch of a release at a time (its own lock, taken under the cache's);
# once apt has downloaded, the cache's lock is let go, so that another
# release downloads and unpacks beside this one's unpacking (make check
# makes its images two at a time)
exec 9>"$cache/.lock-$rel"
flock 9
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

# 7.x: linux-image-R is a meta-package over linux-binary-R, linux-base-R
# and linux-modules-R; download those instead of it
# (compared as strings: a release's + is no regular expression)
img=$(depends_of "linux-image-$rel" | awk -v r="$rel" '$0 == "linux-binary-" r ||
	$0 == "linux-base-" r || $0 == "linux-modules-" r' | tr '\n' ' ')
[ -n "$img" ] || img="linux-image-$rel"
pkgs="$img linux-headers-$rel $(depends_of "linux-headers-$rel" |
	grep -E '^linux-(headers|kbuild)-' | tr '\n' ' ')"
debs="$cache/debs"
mkdir -p "$debs"
echo "fetch-kernel: downloading Debian's $rel kernel and headers ($pkgs)" >&2
# shellcheck disable=SC2086
if [ "$src" = new ]; then
	(cd "$debs" && apt_new apt-get download -q $pkgs >"$aptlog" 2>&1)
else
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root $pkgs >"$aptlog" 2>&1)
fi || die 1 "KERNEL=$kernel: apt-get download $pkgs failed: $(tail -n 1 "$aptlog") (all of it: $aptlog)"
flock -u 8

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
for p in $pkgs; do
	deb=$(ls -1t "$debs/${p}_"*.deb | head -n 1)
	dpkg -x "$deb" "$dir.tmp"
done
# Only vmlinuz, config and the 9p modules are needed from the image (9 MB
# of 400); 7.x keeps vmlinuz and config in usr/lib/modules/R
mods=$dir.tmp/lib/modules
[ -d "$mods/$rel" ] || mods=$dir.tmp/usr/lib/modules
for f in vmlinuz config; do
	if [ -e "$dir.tmp/boot/$f-$rel" ]; then
		ln -s "boot/$f-$rel" "$dir.tmp/$f"
	elif [ -e "$mods/$rel/$f" ]; then
		mv "$mods/$rel/$f" "$dir.tmp/$f"
	else
		die 1 "KERNEL=$kernel: Debian's $rel packages ($img) hold no $f"
	fi
done
keep_9p "$mods" "$dir.tmp/9p"
rm -rf "$dir.tmp/lib/modules" "$dir.tmp/usr/lib/modules" "$dir.tmp/usr/lib/linux" \
	"$dir.tmp/usr/share/doc" "$dir.tmp/usr/share/lintian"
for p in $img; do
	rm -f "$debs/${p}_"*.deb
done
common=$(cd "$dir.tmp/usr/src" && ls -d linux-headers-*-common* | head -n 1)
[ -n "$common" ] || die 1 "linux-headers-$rel brought no -common headers package"
ln -s "usr/src/$common" "$dir.tmp/headers-common"
ln -s "usr/src/linux-headers-$rel" "$dir.tmp/headers"
wrap_glibc "$dir.tmp/usr/lib"
printf '%s\n' "$rel" > "$dir.tmp/release"
touch "$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir"
