#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-page-frag.sh [ROUNDS] [NR_TEST] - figures, never pass/fail (make
# bench, on the host): allocbench's page_frag strategy beside the kernel's
# own page_frag test module (tools/testing/selftests/mm/page_frag/, 6.13
# and later) in one boot of 7.3 (issue 43).
#
# The test module is Debian's source of the kernel booted, unchanged: the
# linux-source-SERIES package of the same version as the kernel's headers,
# read through fetch-kernel.sh's private apt configuration
# (CACHE/kernel/apt; the system's sources are never touched), its
# page_frag_test.c and Makefile kept in CACHE/kernel/page_frag/VERSION
# with their sha256, built by build-kmod.sh as allocbench.ko is (the same
# compiler adaptations) and appended to a copy of the 7.3 initramfs at
# /ab/page_frag_test.ko. Then one boot (2 vCPUs, 1 node) runs ROUNDS
# (default 5) rounds, each in turn:
#  - the test module with its push thread on CPU 0 and its pop thread on
#    CPU 1 (as test_page_frag.sh runs it on two CPUs), not aligned,
#    NR_TEST fragments (default 100000: the script's 100000000, at about
#    20 us an iteration here and twice each, would take over an hour
#    under TCG) of 75 bytes (the script's length) and of 2048 (the
#    module's default), then of 75 with both threads on CPU 0 (as the
#    script runs it on one CPU). The module prints the wall time (ktime)
#    from waking both threads to the last fragment freed: per iteration,
#    one page_frag_alloc(), a __ptr_ring_produce() into a ring of 512, a
#    __ptr_ring_consume() and a page_frag_free() on the other thread, and
#    every moment one thread waits for the other (the ring full or
#    empty). Its init always fails (-EAGAIN, so that it unloads), and
#    busybox's insmod, when finit_module() fails, loads the file again
#    with init_module(), so each insmod runs the test twice: both times
#    are kept;
#  - allocbench run --alloc=page_frag at the same sizes on CPU 0, batch
#    timing, 100 objects x 1000 trials (as many allocations as NR_TEST's
#    default), net of none: page_frag_alloc() alone, then page_frag_free()
#    alone, on CPU 0, and with --free-cpu=1 the frees on CPU 1 (a work
#    item there; the phase is timed on CPU 1, the hand-over is not).
# Printed per figure: the median over the rounds' runs and the range: the
# selftest's time / NR_TEST in ns per iteration; allocbench's alloc and
# free medians in ns/op, and their sum (the median of each run's sum).
# Under single-threaded TCG the two vCPUs take turns on one host thread,
# so the selftest's two threads never run at once: what its figure covers
# is said above, and nothing here claims the two measure the same thing.
cd "$(dirname "$0")/.." || exit 1

if [ "${1:-}" = --guest ]; then
	rounds=$2
	nr=$3
	col() { # col NAME < csv: that column of the first data row
		awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } NR == 2 { print $c }'
	}
	i=1
	while [ "$i" -le "$rounds" ]; do
		for t in "0 1 75" "0 1 2048" "0 0 75"; do
			# shellcheck disable=SC2086 # three words
			set -- $t
			n0=$(dmesg | grep -c 'testing took: ')
			insmod /ab/page_frag_test.ko test_push_cpu="$1" test_pop_cpu="$2" \
				test_alloc_len="$3" nr_test="$nr" 2>/dev/null
			dmesg | grep 'testing took: ' | tail -n +$((n0 + 1)) |
				sed -n "s/.* \([0-9]*\) of iterations for non-aligned testing took: \([0-9]*\)us\$/selftest $1 $2 $3 \1 \2/p"
		done
		for s in 75 2048; do
			for f in "" --free-cpu=1; do
				# shellcheck disable=SC2086 # f is empty or one option
				allocbench run --alloc=page_frag --size="$s" --cpu=0 $f --csv >/tmp/pf.csv || exit 1
				echo "allocbench $s ${f:-local} $(col alloc_median_ns </tmp/pf.csv) $(col free_median_ns </tmp/pf.csv)"
			done
		done
		i=$((i + 1))
	done
	dmesg | grep 'page_frag_test failed' && exit 1
	exit 0
fi

rounds=${1:-5}
nr=${2:-100000}
for a in "ROUNDS=$rounds:1:100" "NR_TEST=$nr:1:100000000"; do
	v=${a#*=} v=${v%%:*} max=${a##*:}
	case $v in
	'' | *[!0-9]*) ok= ;;
	*) ok=$([ "$v" -ge 1 ] && [ "$v" -le "$max" ] && echo 1) ;;
	esac
	[ -n "$ok" ] || {
		echo "vm-page-frag.sh: ${a%%:*}: a whole number from 1 to $max" >&2
		exit 2
	}
done
k=7.3
cache=$(cd "${CACHE:-.cache}/kernel" && pwd) || exit 1 # apt reads relative Dir:: paths from /
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
make -s vm-image KERNEL=$k >&2 || exit 1
kd=$(cat build/vm/$k/kernel-dir)
rel=$(cat "$kd/release")
series=$(echo "$rel" | cut -d. -f1,2)
# apt over fetch-kernel.sh's private configuration of Debian's newer suites
apt_new() { sh scripts/vm/fetch-kernel.sh "$cache" --apt "$@"; }
ver=$(apt_new apt-cache show "linux-headers-$rel" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || { echo "vm-page-frag: apt knows no linux-headers-$rel (the private lists in $cache/apt)" >&2; exit 1; }
src=$cache/page_frag/$ver
sel=tools/testing/selftests/mm/page_frag
if [ ! -e "$src/sha256" ]; then
	echo "vm-page-frag: linux-source-$series $ver, once, for its $sel" >&2
	(cd "$tmp" && apt_new apt-get download -q "linux-source-$series=$ver") >"$tmp/apt.log" 2>&1 || {
		echo "vm-page-frag: apt-get download linux-source-$series=$ver failed: $(tail -n 1 "$tmp/apt.log")" >&2
		exit 1
	}
	dpkg -x "$tmp"/linux-source-"$series"_*.deb "$tmp/deb"
	tar -xJf "$tmp/deb/usr/src/linux-source-$series.tar.xz" -C "$tmp" \
		"linux-source-$series/$sel/page_frag_test.c" "linux-source-$series/$sel/Makefile" || exit 1
	mkdir -p "$src.tmp"
	cp "$tmp/linux-source-$series/$sel/page_frag_test.c" "$tmp/linux-source-$series/$sel/Makefile" "$src.tmp/"
	(cd "$src.tmp" && sha256sum page_frag_test.c Makefile >sha256)
	rm -rf "$tmp/deb" "$tmp"/*.deb "$src"
	mv "$src.tmp" "$src"
fi
(cd "$src" && sha256sum -c --quiet sha256) || exit 1
mkdir -p "$tmp/mod" "$tmp/root/ab"
cp "$src/page_frag_test.c" "$src/Makefile" "$tmp/mod/"
sh scripts/vm/build-kmod.sh "$kd" "$tmp/mod" "$PWD" >/dev/null || {
	echo "vm-page-frag: page_frag_test.ko did not build for $rel:" >&2
	cat "$tmp/mod/build.log" >&2
	exit 1
}
cp "$tmp/mod/page_frag_test.ko" "$tmp/root/ab/"
(cd "$tmp/root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip) >"$tmp/extra.gz"
cat build/vm/$k/initrd.gz "$tmp/extra.gz" >"$tmp/initrd.gz"

echo "# page_frag on $rel, one boot (TCG single-threaded, 2 vCPUs), $rounds rounds: the kernel's page_frag_test.ko (Debian linux-source-$series $ver, $sel unchanged; sha256 $(cut -c1-12 "$src/sha256" | paste -sd ' ')) beside allocbench page_frag"
VM_TIMEOUT=3600 sh scripts/vm/vm-run.sh "$kd" "$tmp/initrd.gz" "sh /ab/vm-page-frag.sh --guest $rounds $nr" >"$tmp/out" 2>"$tmp/err" ||
	echo "# vm-page-frag: the boot failed (status $?): $(tail -n 1 "$tmp/err")" >&2
python3 - "$tmp/out" <<'PY'
import statistics, sys
sel, ab = {}, {}
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 6 and w[0] == "selftest":
        push, pop, size, nr, us = w[1], w[2], int(w[3]), int(w[4]), int(w[5])
        sel.setdefault((push, pop, size), []).append(1000.0 * us / nr)
    elif len(w) == 5 and w[0] == "allocbench":
        ab.setdefault((int(w[1]), w[2]), []).append((float(w[3]), float(w[4])))
def row(label, v):
    print("#   %-58s %9.1f  [%.1f-%.1f, %d runs]" % (label, statistics.median(v), min(v), max(v), len(v)))
print("#   %-58s %9s" % ("figure", "median"))
for (push, pop, size), v in sorted(sel.items(), key=lambda x: (x[0][2], x[0][0] == x[0][1])):
    row("selftest %d B, push CPU %s, pop CPU %s: ns/iteration" % (size, push, pop), v)
for (size, where), v in sorted(ab.items(), key=lambda x: (x[0][0], x[0][1] != "local")):
    on = "CPU 0" if where == "local" else "CPU 1"
    row("allocbench page_frag %d B, free on %s: alloc ns/op" % (size, on), [a for a, f in v])
    row("allocbench page_frag %d B, free on %s: free ns/op" % (size, on), [f for a, f in v])
    row("allocbench page_frag %d B, free on %s: alloc + free" % (size, on), [a + f for a, f in v])
if not sel and not ab:
    print("#   no figures: the guest printed none")
PY
