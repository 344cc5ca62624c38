#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-aa.sh [RUNS] [KERNEL] - figures, never pass/fail (make bench, on the
# host): the false-positive rate of `allocbench vm` comparing a kernel with
# itself (A/A) at the default rounds. Each of RUNS (default 8) runs boots
# KERNEL (default 6.1) against itself and tests 4 phases (kmalloc and
# get_free_pages, alloc and free, 4 KiB, CPU 0); the verdicts rest on
# Holm's adjusted p over a run's tests, so at most about 5% of the runs
# (reports) should hold any significant verdict (the family-wise rate),
# and fewer of the single tests. Prints both counts with their exact
# (Clopper-Pearson) 95% intervals, the detectable change the boots showed
# (median over all tests), and the time per boot.
cd "$(dirname "$0")/.." || exit 1
runs=${1:-8}
k=${2:-6.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$runs" ]; do
	./allocbench vm -q -k "$k" -k "$k" --json -o "$tmp/aa$i.json" -- \
		run --alloc=kmalloc,get_free_pages --size=4096 --cpu=0 --trials=200 ||
		echo "vm-aa: run $i failed (status $?)" >&2
	i=$((i + 1))
done
python3 - "$tmp" "$k" <<'EOF'
import glob, json, math, statistics, sys

tests = sig = reports = fam = 0
det, secs = [], []
for f in sorted(glob.glob(sys.argv[1] + "/aa*.json")):
    try:
        d = json.load(open(f))
    except ValueError:
        continue
    secs += [b["seconds"] for b in d["boots"] if b["status"] == "ok"]
    t = s = 0
    for r in d["comparisons"][0]["rows"]:
        if r["verdict"] == "cannot conclude":
            continue
        t += 1
        s += r["verdict"] in ("faster", "slower")
        if r["detectable_pct"] is not None:
            det.append(r["detectable_pct"])
    tests += t
    sig += s
    reports += t > 0
    fam += s > 0


def binom_cdf(k, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def bisect(f, lo=0.0, hi=1.0):
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) else (lo, mid)
    return (lo + hi) / 2


if not tests:
    print("vm A/A: no test could be made")
    sys.exit(0)
def cp(x, n):
    """Clopper-Pearson: P(X >= x | lo) = 0.025 and P(X <= x | hi) = 0.025"""
    lo = 0.0 if x == 0 else bisect(lambda p: 1 - binom_cdf(x - 1, n, p) < 0.025)
    hi = 1.0 if x == n else bisect(lambda p: binom_cdf(x, n, p) > 0.025)
    return f"{100 * x / n:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


print(f"vm A/A ({sys.argv[2]} against itself, default rounds, boot as unit): "
      f"{sig} of {tests} phase tests significant at Holm-adjusted p < 0.05: {cp(sig, tests)}")
print(f"vm A/A family-wise: {fam} of {reports} reports with any significant verdict: {cp(fam, reports)}")
print(f"vm A/A: detectable change (power 0.8), median over tests: {statistics.median(det):.1f}%; "
      f"{len(secs)} good boots, {statistics.mean(secs):.1f} s each")
EOF
