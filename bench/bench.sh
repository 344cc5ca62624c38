#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - `make bench`, run inside the embedded kernel: figures about
# allocbench itself, printed, never judged (no pass or fail on time).
#  1. harness overhead: the none baseline's raw median per op as a
#     percentage of the cheapest strategy's raw median (4096-byte objects);
#  2. run-to-run spread: kmalloc's net median alloc ns/op over 10 runs;
#  3. the timed pass's median with --explain beside the one without it
#     (counts come from a separate pass, so they should agree within the
#     spread), and the guest time of `allocbench reproduce 2019-scatterlist`;
#  4. the false-positive rate of compare: A/A compares (a strategy against
#     itself), whose every "significant" verdict is a false positive, with
#     its binomial 95% interval (Clopper and Pearson, Biometrika 26(4),
#     1934: the p at which the observed count sits at the 2.5% tail), per
#     phase test and per report (the family-wise rate, which Holm's
#     correction keeps under 5%): the rounds' signed-rank test, and saved
#     runs compared with the run as unit (3 runs per side, saved in the
#     order A B B A A B). (The per-trial U test of one run per side that
#     compare used to make called 58 of 80 phase tests significant here;
#     compare now refuses a verdict on one run per side.)
#  5. robustness: the ioctl fuzzer's calls, distinct (ioctl, errno) pairs,
#     signals delivered, objects left outstanding (must be 0) and time,
#     and processes killed at each point of a run's life.
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

# --explain counts in a separate pass: the timed pass's median with it
# should sit within the run-to-run spread of the median without it
i=0
: >/tmp/med-plain
: >/tmp/med-explain
while [ $i -lt 6 ]; do
	allocbench run --alloc=kmalloc --size=4096 --csv --cpu=0 | col alloc_median_ns | awk '{ print $2 }' >>/tmp/med-plain
	allocbench run --alloc=kmalloc --size=4096 --csv --cpu=0 --explain 2>/dev/null | col alloc_median_ns | awk '{ print $2 }' >>/tmp/med-explain
	i=$((i + 1))
done
sort -n /tmp/med-plain >/tmp/mp
sort -n /tmp/med-explain >/tmp/me
paste /tmp/mp /tmp/me | awk '{ p[NR] = $1; e[NR] = $2 } END {
	mp = (p[3] + p[4]) / 2; me = (e[3] + e[4]) / 2
	printf "kmalloc 4096 net median alloc ns/op over %d interleaved runs: without --explain %.1f (%.1f-%.1f), with it %.1f (%.1f-%.1f): %+.1f%%\n",
		NR, mp, p[1], p[NR], me, e[1], e[NR], 100 * (me - mp) / mp }'

t0=$(uptime_cs)
allocbench reproduce 2019-scatterlist --cpu=0 >/dev/null || exit 1
t1=$(uptime_cs)
echo "guest time of reproduce 2019-scatterlist: $(( (t1 - t0) / 100 )).$(( (t1 - t0) % 100 / 10 )) s"

# Clopper-Pearson interval of x successes in n: bisection on the binomial
# tails, each P(X <= k) summed from its terms, pmf(i + 1) = pmf(i) (n - i) /
# (i + 1) p / (1 - p)
aa_rate() { # aa_rate WHAT X N [UNIT]
	awk -v what="$1" -v x="$2" -v n="$3" -v unit="${4:-phase tests}" '
	function cdf(k, p,   i, t, s) {
		if (k < 0) return 0
		if (k >= n || p <= 0) return 1
		if (p >= 1) return 0
		# busybox awk has no log or exp: pmf(0) = (1 - p)^n by products
		t = 1
		for (i = 0; i < n; i++) t *= 1 - p
		for (i = 0; i <= k; i++) {
			s += t
			t *= (n - i) / (i + 1) * p / (1 - p)
		}
		return s
	}
	function solve(k, target, rising,   lo, hi, mid, j) {
		lo = 0; hi = 1
		for (j = 0; j < 60; j++) {
			mid = (lo + hi) / 2
			if ((cdf(k, mid) > target) == rising) hi = mid; else lo = mid
		}
		return mid
	}
	BEGIN {
		lo = x ? solve(x - 1, 0.975, 0) : 0   # P(X >= x) = 0.025
		hi = x < n ? solve(x, 0.025, 0) : 1   # P(X <= x) = 0.025
		printf "A/A false positives, %s: %d of %d %s significant at Holm-adjusted p < 0.05 = %.1f%%, 95%% CI %.1f%%-%.1f%% (Clopper-Pearson; a compare'"'"'s alloc and free tests are not independent of each other)\n",
			what, x, n, unit, 100 * x / n, 100 * lo, 100 * hi
	}'
}
AA_N=40
for pair in kmalloc,kmalloc get_free_pages,get_free_pages; do
	sig=0 tests=0 fam=0 reports=0 i=0
	while [ $i -lt $AA_N ]; do
		# the JSON's phases: significant is true, false, or null (not testable)
		allocbench compare --alloc=$pair --size=4096 --trials=300 --rounds=10 --cpu=0 -q --json >/tmp/aa.out || exit 1
		s=$(grep -o '"significant":true' /tmp/aa.out | wc -l)
		t=$(grep -o '"significant":[a-z]*' /tmp/aa.out | wc -l)
		sig=$((sig + s)) tests=$((tests + t))
		[ "$t" -gt 0 ] && reports=$((reports + 1))
		[ "$s" -gt 0 ] && fam=$((fam + 1))
		i=$((i + 1))
	done
	aa_rate "compare --alloc=$pair --size=4096 --trials=300 --rounds=10, signed-rank on the rounds, $AA_N compares" $sig $tests
	aa_rate "the same, family-wise" $fam $reports "reports with any phase"
done
# saved runs, the run as unit: 3 per side, A B B A A B, Welch's t on the
# logs of the runs' medians, Holm over the report's phases
AA_RUNS_N=${AA_RUNS_N:-40}
sig=0 tests=0 fam=0 reports=0 i=0
while [ $i -lt $AA_RUNS_N ]; do
	for f in a1 b1 b2 a2 a3 b3; do
		allocbench run --alloc=kmalloc --size=4096 --trials=300 --cpu=0 --json -q -o /tmp/aa-$f.json || exit 1
	done
	allocbench compare /tmp/aa-a1.json /tmp/aa-a2.json /tmp/aa-a3.json -- /tmp/aa-b1.json /tmp/aa-b2.json /tmp/aa-b3.json >/tmp/aa.out || exit 1
	s=$(grep -cE '^(alloc|free) .*new is (faster|slower)$' /tmp/aa.out)
	t=$(grep -cE '^(alloc|free) .*(new is (faster|slower)|no significant difference)$' /tmp/aa.out)
	sig=$((sig + s)) tests=$((tests + t))
	[ "$t" -gt 0 ] && reports=$((reports + 1))
	[ "$s" -gt 0 ] && fam=$((fam + 1))
	i=$((i + 1))
done
aa_rate "compare A1 A2 A3 -- B1 B2 B3 of saved kmalloc 4096 runs (--trials=300), the run as unit, $AA_RUNS_N compares" $sig $tests
aa_rate "the same, family-wise" $fam $reports "reports with any phase"

# 5. robustness (issue 16, part 6): the ioctl fuzzer's storm in this boot
# (calls, distinct (ioctl, errno) pairs reached, signals delivered, objects
# left outstanding, which must be 0, and the time taken), then SIGKILL at
# each point of a run's life. make check also runs it on 6.12 and
# 6.12-rt and under slub_debug=FZPU page_poison=1 init_on_free=1.
t0=$(uptime_cs)
/ab/fuzz --calls=20000 --rmmod >/tmp/fz.out 2>&1
fz=$?
t1=$(uptime_cs)
/ab/fuzz --kill-phases=16 >/tmp/kp.out 2>&1
grep '^# fuzz:' /tmp/fz.out /tmp/kp.out | sed 's/^[^#]*# //'
grep -h '^not ok' /tmp/fz.out /tmp/kp.out
# the summary: bench/fuzzsum.sh (tests/kernel/benchcmds.sh checks it
# against this boot's fuzz lines)
sh "$(dirname "$0")/fuzzsum.sh" $((t1 - t0)) $fz /tmp/fz.out
