#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-aa.sh [RUNS] [KERNEL] - figures, never pass/fail (make bench, on the
# host): the false-positive rate of `allocbench vm` comparing a kernel with
# itself (A/A) at the default rounds. Each of RUNS (default 8) runs boots
# KERNEL (default 6.1) against itself and tests 4 phases (kmalloc and
# get_free_pages, alloc and free, 4 KiB, CPU 0); a calibrated test at 5%
# calls about 5% of them significant. Prints the count with its exact
# (Clopper-Pearson) 95% interval, the detectable change the boots showed
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

tests = sig = 0
det, secs = [], []
for f in sorted(glob.glob(sys.argv[1] + "/aa*.json")):
    try:
        d = json.load(open(f))
    except ValueError:
        continue
    secs += [b["seconds"] for b in d["boots"] if b["status"] == "ok"]
    for r in d["comparisons"][0]["rows"]:
        if r["verdict"] == "cannot conclude":
            continue
        tests += 1
        sig += r["verdict"] in ("faster", "slower")
        if r["detectable_pct"] is not None:
            det.append(r["detectable_pct"])


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
# Clopper-Pearson: P(X >= k | lo) = 0.025 and P(X <= k | hi) = 0.025
lo = 0.0 if sig == 0 else bisect(lambda p: 1 - binom_cdf(sig - 1, tests, p) < 0.025)
hi = 1.0 if sig == tests else bisect(lambda p: binom_cdf(sig, tests, p) > 0.025)
print(f"vm A/A ({sys.argv[2]} against itself, default rounds, boot as unit): "
      f"{sig} of {tests} phase tests significant at 5%: {100 * sig / tests:.1f}% "
      f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
print(f"vm A/A: detectable change (power 0.8), median over tests: {statistics.median(det):.1f}%; "
      f"{len(secs)} good boots, {statistics.mean(secs):.1f} s each")
EOF
