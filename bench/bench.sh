#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - `make bench`, run inside the embedded kernel: figures about
# allocbench itself, printed, never judged (no pass or fail on time).
#  1. harness overhead: the none baseline's raw median per op as a
#     percentage of the cheapest strategy's raw median (4096-byte objects);
#  2. run-to-run spread: kmalloc's net median alloc ns/op over 10 runs;
#  3. guest time of `allocbench reproduce 2019-scatterlist`.
col() { # col NAME < csv: prints that column of every data row
	awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $1, $c }'
}
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

echo "# allocbench bench: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, under $(cat /sys/class/dmi/id/sys_vendor 2>/dev/null || echo '?')"

allocbench run --alloc=none,get_free_pages,alloc_pages_node,kmalloc,kmalloc_node,kmem_cache,vmalloc_node,kvmalloc_node \
	--size=4096 --raw --csv --cpu=0 >/tmp/o.csv || exit 1
for phase in alloc free; do
	col ${phase}_median_ns </tmp/o.csv | awk -v phase=$phase '
		$1 == "none" { none = $2; next }
		min == "" || $2 < min { min = $2; who = $1 }
		END { printf "harness overhead (%s): none %.1f ns/op = %.1f%% of the cheapest, %s at %.1f ns/op\n", phase, none, 100 * none / min, who, min }'
done

i=0
: >/tmp/med
while [ $i -lt 10 ]; do
	allocbench run --alloc=kmalloc --size=4096 --csv --cpu=0 | col alloc_median_ns | awk '{ print $2 }' >>/tmp/med
	i=$((i + 1))
done
sort -n /tmp/med | awk '{ v[NR] = $1 } END {
	printf "spread of kmalloc 4096 net median alloc ns/op over %d runs: min %.1f, median %.1f, max %.1f, (max - min) / median = %.1f%%\n",
		NR, v[1], (v[5] + v[6]) / 2, v[NR], 100 * (v[NR] - v[1]) / ((v[5] + v[6]) / 2) }'

t0=$(uptime_cs)
allocbench reproduce 2019-scatterlist --cpu=0 >/dev/null || exit 1
t1=$(uptime_cs)
echo "guest time of reproduce 2019-scatterlist: $(( (t1 - t0) / 100 )).$(( (t1 - t0) % 100 / 10 )) s"
