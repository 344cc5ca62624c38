#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# deb.sh [MATRIX] - the Debian packages (docs/packages.md), TAP lines.
# Always: `make deb` builds allocbench and allocbench-dkms (and the source
# package) from the tracked files, and lintian prints no E: or W: line on
# them. With DKMS=1, as root (CI, a throw-away machine), the packages for
# real: dkms and Debian's linux-headers package of the first Debian kernel
# of the matrix installed system-wide (they stay), `apt-get install` of
# both packages (DKMS builds allocbench.ko for that kernel), that module
# booted in that kernel with the installed allocbench, the autopkgtest
# (debian/tests) against the installed packages on this machine
# (autopkgtest's null testbed), `apt-get purge`, and then no file of
# theirs under /usr, /etc or /var/lib/dkms; last, `make dkms` (the same
# files, from the Makefile's install-dkms rule) builds and installs the
# module for that kernel and `make dkms-remove` removes it. This replaces
# the DKMS test that installed from the tree alone (tests/dkms.sh).
#
# The autopkgtest's vm test (allocbench vm from the installed paths) is
# skipped unless DEB_VM=1: vmab.sh boots an allocbench installed by the
# same make install rule, and the test adds about 40 s (37 s measured,
# its module built anew); with DEB_VM=1 it
# takes the kernel from this tree's .cache.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
ver=$(tail -n 1 VERSION)
deb=build/deb
# lap WHAT: a "#" line with the seconds since the last one (make check's
# table has the part's whole time)
lap_t=$(date +%s)
lap() {
	echo "# deb: $1: $(($(date +%s) - lap_t)) s"
	lap_t=$(date +%s)
}

# ---- the packages, built and linted ----
if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh_dkms >/dev/null ||
	! command -v lintian >/dev/null; then
	ok "deb: not built: dpkg-dev, debhelper, dh-dkms or lintian is missing (make deps) # SKIP"
	exit 0
fi
tmp=$(mktemp -d)
# what the EXIT trap undoes: the packages installed, make dkms run
installed='' made=''
# shellcheck disable=SC2317 # the EXIT trap's
cleanup() {
	[ -z "$installed" ] ||
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q allocbench allocbench-dkms >/dev/null 2>&1
	[ -z "$made" ] || make -s dkms-remove >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

if make --no-print-directory deb >"$tmp/build.log" 2>&1 &&
	[ -f "$deb/allocbench_${ver}_$(dpkg --print-architecture).deb" ] &&
	[ -f "$deb/allocbench-dkms_${ver}_all.deb" ] && [ -f "$deb/allocbench_$ver.dsc" ]; then
	ok "deb: make deb (dpkg-buildpackage -us -uc) makes allocbench, allocbench-dkms and the source package"
else
	notok "deb: make deb failed: $(tail -n 5 "$tmp/build.log" | tr '\n' ' ')"
	exit 0
fi
lap "make deb"
for p in allocbench allocbench-dkms; do
	echo "# $p: $(dpkg-deb -f "$deb/${p}_${ver}"_*.deb Installed-Size) KiB installed, $(dpkg-deb -c "$deb/${p}_${ver}"_*.deb | grep -c -v '/$') files"
done
lintian "$deb/allocbench_${ver}_$(dpkg --print-architecture).changes" >"$tmp/lintian.log" 2>&1
bad=$(grep -E '^[EW]: ' "$tmp/lintian.log")
if [ -z "$bad" ] && ! grep -q -i 'error\|traceback' "$tmp/lintian.log"; then
	ok "deb: lintian on the .changes (both packages and the .dsc): no error, no warning"
else
	notok "deb: lintian: $(printf '%s\n' "$bad" | head -n 10 | tr '\n' ';') $(grep -v '^[EWIPN]: ' "$tmp/lintian.log" | grep -v 'root privileges' | head -n 3 | tr '\n' ' ')"
fi
lap "lintian"

# ---- installed, tested, purged (DKMS=1, root) ----
if [ "${DKMS:-0}" != 1 ]; then
	ok "deb: not installed (it installs dkms, linux-headers and the packages system-wide: DKMS=1 make check, as CI does) # SKIP"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	ok "deb: not installed: DKMS=1 needs root (apt-get install) # SKIP"
	exit 0
fi
# the first Debian kernel of make check's matrix (MATRIX, as run-all.sh)
b=
while read -r _ dir; do
	[ -e "$(cat "$dir/kernel-dir")/headers" ] && b=$dir && break
done <"${1:-build/vm/matrix}"
if [ -z "$b" ]; then
	ok "deb: not installed: no Debian kernel in the matrix # SKIP"
	exit 0
fi
kdir=$(cat "$b/kernel-dir")
rel=$(cat "$kdir/release")
# a developer's own install is not the test's to replace or remove
if dpkg-query -W -f='${Status}\n' allocbench allocbench-dkms 2>/dev/null | grep -q ' installed$' ||
	{ command -v dkms >/dev/null && [ -n "$(dkms status allocbench 2>/dev/null)" ]; }; then
	ok "deb: not installed: allocbench is installed here already (dpkg or DKMS) # SKIP"
	exit 0
fi

if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	dkms "linux-headers-$rel" >"$tmp/apt.log" 2>&1; then
	ok "deb: dkms and linux-headers-$rel installed"
else
	notok "deb: apt-get install dkms linux-headers-$rel failed: $(tail -n 3 "$tmp/apt.log")"
	exit 0
fi
lap "dkms and linux-headers-$rel"
installed=1
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$PWD/$deb/allocbench_${ver}"_*.deb \
	"$PWD/$deb/allocbench-dkms_${ver}_all.deb" >"$tmp/install.log" 2>&1; then
	ok "deb: apt-get install ./allocbench_*.deb ./allocbench-dkms_*.deb"
else
	notok "deb: apt-get install of the packages failed: $(tail -n 5 "$tmp/install.log" | tr '\n' ' ')"
	exit 0
fi
dpkg-query -L allocbench allocbench-dkms >"$tmp/files"
lap "apt-get install (DKMS builds the module)"

# the module DKMS built at the install, booted with the installed allocbench
ko=$(find "/lib/modules/$rel/updates/dkms" -name 'allocbench.ko*' 2>/dev/null | head -n 1)
case $ko in
*.xz) xz -dc "$ko" >"$tmp/allocbench.ko" ;;
*.zst) zstd -qdc "$ko" >"$tmp/allocbench.ko" ;;
?*) cp "$ko" "$tmp/allocbench.ko" ;;
esac
if [ -s "$tmp/allocbench.ko" ] && [ "$(modinfo -F version "$tmp/allocbench.ko")" = "$ver" ]; then
	ok "deb: installing allocbench-dkms built allocbench.ko $ver for $rel ($ko)"
	src=$(modinfo -F srcversion "$tmp/allocbench.ko")
	sh scripts/vm/mkinitramfs.sh "$tmp/initrd.gz" "$tmp/allocbench.ko" \
		"$kdir/config:/boot/config-$rel" /usr/bin/allocbench:/usr/bin/allocbench \
		"$b/ab-out:/bin/ab-out"
	# shellcheck disable=SC2016 # the guest's shell expands it
	expect 0 "^srcversion $src$" "deb: the packaged module loads and runs in $rel, with the packaged allocbench" -- \
		env VM_IMAGE="$([ -e "$b/vmlinux.pvh" ] && echo "$b/vmlinux.pvh")" \
		sh scripts/vm/vm-run.sh "$kdir" "$tmp/initrd.gz" \
		'echo "srcversion $(cat /sys/module/allocbench/srcversion)"; allocbench run --alloc=kmalloc --trials=5 -q'
else
	notok "deb: no allocbench.ko $ver under /lib/modules/$rel/updates/dkms after the install: $(grep -i -A3 'error\|skipped' "$tmp/install.log" | head -n 5 | tr '\n' ' ')"
fi

lap "the packaged module's boot"

# the autopkgtest, on this machine (null), from the source package
set --
if [ "${DEB_VM:-0}" = 1 ]; then
	mkdir -p "$tmp/cache"
	ln -s "$PWD/.cache/kernel" "$tmp/cache/kernel"
	set -- --env "ALLOCBENCH_CACHE=$tmp/cache"
else
	set -- --skip-test vm
fi
# the module test needs the running kernel's headers (DKMS built nothing
# for it else): not asked for here when they are missing, which saves its
# apt round
if [ ! -e "/lib/modules/$(uname -r)/build/include" ]; then
	set -- "$@" --skip-test module
	ok "deb: autopkgtest module: not run: the running kernel $(uname -r) has no headers here # SKIP"
fi
autopkgtest -B --summary-file "$tmp/summary" -o "$tmp/autopkgtest" "$@" \
	"$deb/allocbench_$ver.dsc" -- null >"$tmp/autopkgtest.log" 2>&1
[ -s "$tmp/summary" ] || notok "deb: autopkgtest ran no test: $(tail -n 5 "$tmp/autopkgtest.log" | tr '\n' ' ')"
while read -r test result reason; do
	case $result in
	PASS) ok "deb: autopkgtest $test (installed packages)" ;;
	SKIP) ok "deb: autopkgtest $test: $reason # SKIP" ;;
	*) notok "deb: autopkgtest $test: $result $reason: $(tail -n 5 "$tmp/autopkgtest/$test-stderr" "$tmp/autopkgtest/$test-stdout" 2>/dev/null | tr '\n' ' ' | head -c 600)" ;;
	esac
done <"$tmp/summary"
[ "${DEB_VM:-0}" = 1 ] ||
	ok "deb: autopkgtest vm: not run (vmab.sh boots allocbench vm installed by the same make install rule; DEB_VM=1 runs it) # SKIP"

lap "autopkgtest"

# purged: nothing of theirs left
if DEBIAN_FRONTEND=noninteractive apt-get purge -y -q allocbench allocbench-dkms >"$tmp/purge.log" 2>&1; then
	installed=
	ok "deb: apt-get purge allocbench allocbench-dkms"
else
	notok "deb: apt-get purge failed: $(tail -n 3 "$tmp/purge.log" | tr '\n' ' ')"
fi
left=$(while read -r f; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done <"$tmp/files")
left="$left$(find /usr /etc /var/lib/dkms /lib/modules -path "$PWD" -prune -o -name '*allocbench*' -print 2>/dev/null)"
if [ -z "$left" ] && ! dpkg-query -W -f='${Status}\n' allocbench allocbench-dkms 2>/dev/null | grep -q 'installed\|config-files'; then
	ok "deb: the purge leaves no file under /usr, /etc or /var/lib/dkms, and dpkg knows neither package"
else
	notok "deb: the purge left $(printf '%s\n' "$left" | head -n 10 | tr '\n' ' ')$(dpkg-query -W allocbench allocbench-dkms 2>/dev/null | tr '\n' ' ')"
fi

lap "apt-get purge"

# make dkms: the same files (install-dkms), through dkms add, build, install
made=1
expect 0 "" "deb: make dkms KVER=$rel (dkms add, build, install from the tree)" -- \
	make --no-print-directory dkms KVER="$rel"
if [ -n "$(find "/lib/modules/$rel/updates/dkms" -name 'allocbench.ko*' 2>/dev/null)" ]; then
	ok "deb: make dkms installed the module for $rel"
else
	notok "deb: make dkms: no allocbench.ko under /lib/modules/$rel/updates/dkms"
fi
expect 0 "" "deb: make dkms-remove" -- make --no-print-directory dkms-remove
made=
left=$(find /usr /var/lib/dkms /lib/modules -path "$PWD" -prune -o -name '*allocbench*' -print 2>/dev/null)
if [ -z "$left" ]; then
	ok "deb: make dkms-remove leaves nothing under /usr or /var/lib/dkms"
else
	notok "deb: make dkms-remove left $(printf '%s\n' "$left" | head -n 5 | tr '\n' ' ')"
fi
lap "make dkms, make dkms-remove"
