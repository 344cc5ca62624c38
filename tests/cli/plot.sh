#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# plot.sh [ALLOCBENCH] - what `allocbench plot` asks gnuplot to draw, one
# test per kind of picture (sweep, run, single-op run, lookup, compare of
# a run and of saved files, vm), on the host: the fixtures are small
# results of the user backend, edited to known values, and a hand-made vm
# document. Each test reads the script (--script=FILE): axes, series,
# bands and ranges; and the SVG gnuplot drew from it: every text inside
# the picture and level. TAP lines.
ab=${1:-./allocbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TAP_PREFIX="plot: "
. "$(dirname "$0")/../lib.sh"

if ! command -v gnuplot >/dev/null; then
	echo "ok - plot: no gnuplot here # SKIP"
	exit 0
fi

q="-q"
"$ab" sweep --backend=user --alloc=malloc,calloc --sizes=8-32K:x4 --trials=5 --warmup=0 --json -o "$tmp/sweep.json" $q
"$ab" run --backend=user --alloc=none,malloc,calloc --trials=10 --json -o "$tmp/run.json" $q
"$ab" run --backend=user --alloc=malloc --timing=single --trials=5 --json -o "$tmp/single.json" $q
"$ab" lookup --backend=user --size=64 --trials=30 --json -o "$tmp/lookup.json" $q
"$ab" compare --backend=user --alloc=malloc,calloc --trials=30 --json -o "$tmp/cmp.json" $q
"$ab" compare "$tmp/run.json" "$tmp/run.json" --json -o "$tmp/files.json" $q

# known values: a sweep from 10 to 12000 ns/op, ratios from 0.09 to 10.5,
# a long label, and the vm document of two kernels against A
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def load(n): return json.load(open("%s/%s.json" % (t, n)))
def save(n, d): json.dump(d, open("%s/%s.json" % (t, n), "w"))
d = load("sweep")
for r in d["results"]:
    k = 1 if r["strategy"] == "malloc" else 3
    # as get_free_pages: what it hands out is a page, whatever the size asked
    if k == 3:
        r["object_bytes"] = max(4096, r["object_bytes"])
    for p, f in (("alloc", 1.0), ("free", 0.5)):
        m = k * f * (10 + r["object_bytes"] * 0.36)
        r[p]["ns"]["median"] = m
        r[p]["ns"]["ci95_median"] = [m * 0.9, m * 1.2]
save("sweep", d)
# two node pairs, as --mem-nodes=0,1 on two nodes: the nodes go to the legend
for r in d["results"]:
    if r["strategy"] == "calloc":
        r["label"] = r["label"].rsplit(" ", 1)[0] + " n0>n1"
save("sweep2", d)
# a sweep of page orders under a condition (sweep --orders --condition):
# malloc's rows as orders 0 to 6, success falling with the order
d = load("sweep")
d["results"] = [r for r in d["results"] if r["strategy"] == "malloc"]
for i, r in enumerate(d["results"]):
    r["order"] = i
    r["label"] = "alloc_pages_node %dK n0>n0" % (4 << i)
    r["success"] = {"attempts": 32, "rate": 1.0 - i / 8.0,
                    "wilson95": [max(0.0, 0.9 - i / 8.0), min(1.0, 1.05 - i / 8.0)]}
d["parameters"]["condition"] = "fragmented"
save("orders", d)
d = load("run")
d["results"][1]["label"] = "malloc with a label of fifty-one characters, whole"
save("run", d)
d = load("cmp")
d["compare"]["phases"][0].update(ratio=10.5, ratio_ci_lo=9.0, ratio_ci_hi=11.0)
d["compare"]["phases"][1].update(ratio=0.09, ratio_ci_lo=0.08, ratio_ci_hi=0.1)
save("cmp", d)
# a ratio past 1000: its tic labels whole ("1000", not 1e+03)
d["compare"]["phases"][0].update(ratio=1500.0, ratio_ci_lo=1200.0, ratio_ci_hi=1800.0)
save("cmpbig", d)
d = load("files")
d["comparisons"][1]["phases"][0]["ratio"] = 0.5
# known medians in the labels: one of 5 digits (printed whole, not
# 1.235e+04), one small; a loaded host's own figures reached 10000 ns
for c in d["comparisons"]:
    for p in c["phases"]:
        p.update(a_median_ns=12345.6, b_median_ns=6.25)
save("files", d)
row = lambda label, phase, ratio: {
    "label": label, "phase": phase, "a_ns": 100.0, "b_ns": 100.0 * ratio,
    "boots_a": [100.0, 101.0], "boots_b": [100.0 * ratio, 101.0 * ratio],
    "ratio": ratio, "ci95": [ratio * 0.9, ratio * 1.1], "p": 0.01, "df": 2.0,
    "verdict": "faster" if ratio < 1 else "slower", "detectable_pct": 5.0,
    "threshold_pct": None, "threshold_detectable": None, "rounds_needed": None,
    "counters": []}
save("vm", {
    "schema": "allocbench-vm", "schema_version": 1,
    "tool": {"name": "allocbench", "version": "0"}, "command": "vm",
    "accel": "tcg", "nodes": 1, "rounds": 2, "interrupted": False,
    "kernels": [{"name": n, "kernel": "6.1", "append": "", "release": None, "good_boots": 2}
                for n in ("6.1", "6.1:init_on_alloc=0", "6.12:a_long_boot_parameter=1")],
    "boots": [],
    "comparisons": [
        {"a": "6.1", "b": "6.1:init_on_alloc=0",
         "rows": [row("kmalloc 4K", "alloc", 0.33), row("kmalloc 4K", "free", 1.02),
                  row("get_free_pages 4K", "alloc", 0.09)]},
        {"a": "6.1", "b": "6.12:a_long_boot_parameter=1",
         "rows": [row("kmalloc 4K", "alloc", 10.5), row("get_free_pages 4K", "free", 0.98),
                  dict(row("vmalloc 4K", "alloc", 0.37), ci95=[0.00686, 19.6])]}]})
PY

# a one-kernel vm --json document (one boot, no comparison) holding a
# sweep: plot draws the boot's sweep, as it draws the sweep saved alone
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
json.dump({"schema": "allocbench-vm", "schema_version": 1,
           "tool": {"name": "allocbench", "version": "0"}, "command": "vm",
           "accel": "tcg", "nodes": 1, "rounds": 1, "interrupted": False,
           "kernels": [{"name": "6.1", "kernel": "6.1", "append": "", "release": None, "good_boots": 1}],
           "boots": [{"boot": 1, "kernel": "6.1", "kernel_index": 0, "round": 1, "status": "ok",
                      "exit": 0, "seconds": 9.5, "why": None,
                      "result": json.load(open(d + "/sweep.json"))}],
           "comparisons": []}, open(d + "/vm1.json", "w"))
PY
if "$ab" plot "$tmp/vm1.json" -o "$tmp/vm1.svg" --script=- >"$tmp/vm1.gp" 2>"$tmp/vm1.err" &&
	"$ab" plot "$tmp/sweep.json" -o "$tmp/sw1.svg" --script=- >"$tmp/sw1.gp" 2>/dev/null &&
	cmp -s "$tmp/vm1.gp" "$tmp/sw1.gp" && [ -s "$tmp/vm1.svg" ]; then
	ok "a one-kernel vm document holding a sweep draws the sweep"
else
	notok "a one-kernel vm document holding a sweep: $(head -c 300 "$tmp/vm1.err")"
fi

# decode FILE: the script with gnuplot's octal escapes turned into bytes
decode() {
	python3 -c 'import re, sys
s = open(sys.argv[1], encoding="latin-1").read()
sys.stdout.write(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), s))' "$1"
}

# inside SVG: every text of the picture lies within it (at 0.6 em a
# character, more than Arial's widest average) and none is slanted: only
# an axis label stands upright
inside() {
	python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
w, h = (float(x) for x in re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', s).groups())
bad = []
for m in re.finditer(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)( rotate\([^)]*\))?"[^>]*font-size="([0-9.]+)"[^>]*text-anchor="(\w+)"[^>]*>\s*<text>([^<]*)</text>', s):
    x, y, rot, fs, anchor, text = m.groups()
    x, y, fs = float(x), float(y), float(fs)
    n = len(text) * 0.6 * fs
    lo, hi = {"start": (x, x + n), "end": (x - n, x), "middle": (x - n / 2, x + n / 2)}[anchor]
    if rot in (" rotate(270)", " rotate(-90)", " rotate(90)") and anchor == "middle":
        # upright: the extent runs along y
        lo, hi, y = x - fs, x, y + n / 2
        if y - n < 0:
            lo = -1
    elif rot:
        lo = -1
    if lo < 0 or hi > w or y - fs < 0 or y > h:
        bad.append("%r at %.0f,%.0f%s" % (text, x, y, rot or ""))
if bad:
    print("; ".join(bad[:4]), "outside %gx%g" % (w, h))
    sys.exit(1)
PY
}

# draw NAME: NAME.svg and the script NAME.gp (decoded); status as plot's
draw() {
	"$ab" plot "$tmp/$1.json" -o "$tmp/$1.svg" --script="$tmp/$1.gp" 2>"$tmp/$1.err" &&
		decode "$tmp/$1.gp" >"$tmp/$1.txt"
}

# has NAME PATTERN...: each grep -E pattern is in NAME's decoded script
has() {
	n=$1
	shift
	for p; do
		grep -Eq -- "$p" "$tmp/$n.txt" || {
			echo "lacks /$p/"
			return 1
		}
	done
}

# symmetric NAME: the x range is [1 / m, m] around 1 and holds [lo, hi]
symmetric() {
	sed -n 's/^set xrange \[\(.*\):\(.*\)\]$/\1 \2/p' "$tmp/$1.txt" |
		awk -v lo="$2" -v hi="$3" '{
		found = 1
		if ($1 * $2 < 0.999 || $1 * $2 > 1.001 || $1 > lo || $2 < hi) { print "xrange [" $1 ":" $2 "]"; exit 1 }
	} END { if (!found) { print "no xrange"; exit 1 } }'
}

# apart NAME: the B / A tics stand a fifth of the half axis apart (in log
# space), so that their labels cannot run together
apart() {
	python3 - "$tmp/$1.txt" <<'PY'
import math, re, sys
s = open(sys.argv[1]).read()
m = float(re.search(r"^set xrange \[[0-9.e+-]+:([0-9.e+-]+)\]", s, re.M).group(1))
t = sorted(float(v) for v in re.findall(r'"[0-9.]+" ([0-9.e+-]+)', re.search(r"^set xtics \((.*)\)", s, re.M).group(1)))
for a, b in zip(t, t[1:]):
    if math.log(b / a) < 0.2 * math.log(m):
        print("tics %g and %g too close on [1/%g, %g]" % (a, b, m, m))
        sys.exit(1)
PY
}

# check NAME DESCRIPTION COMMANDS...: ok when each command holds
check() {
	n=$1 what=$2
	shift 2
	if ! draw "$n"; then
		notok "$what (plot failed: $(head -c 300 "$tmp/$n.err"))"
		return
	fi
	why=$(inside "$tmp/$n.svg") || {
		notok "$what ($why)"
		return
	}
	for c; do
		why=$(eval "$c") || {
			notok "$what ($why)"
			return
		}
	done
	ok "$what"
}

check sweep "sweep: log size and log ns/op axes, a CI band per line, alloc and free panels, CPU and node in the title" \
	'has sweep "^set logscale x 2" "^set logscale y 10" "^set multiplot layout 2,1" "^set title \"alloc\"" "^set title \"free\"" "CPUs? [0-9]+, node [0-9]" "T\\[1\\] = \"malloc\"" "T\\[2\\] = \"calloc\""' \
	'[ "$(grep -o "with filledcurves" "$tmp/sweep.txt" | wc -l)" = 4 ] || echo "not 4 bands"' \
	'[ "$(grep -o "with linespoints" "$tmp/sweep.txt" | wc -l)" = 4 ] || echo "not 4 lines"' \
	'awk "/^\\\$a1 <</ { on = 1; next } on && /^EOD/ { exit } on && !(\$3 <= \$2 && \$2 <= \$4) { bad = 1 } END { exit bad }" "$tmp/sweep.txt" || echo "a band does not hold its median"' \
	'has sweep "^32768 11806.5 10625.8 14167.8"' \
	'[ "$(sed -n "/^\\\$a2 <</,/^EOD/p" "$tmp/sweep.txt" | awk "/^[0-9]/ { print \$1 }" | sort -u | wc -l)" = 7 ] || echo "the calloc line is not at the 7 sizes asked for"'
check orders "sweep of page orders under a condition: latency p50/p99/max and success with its Wilson interval against the order" \
	'has orders "^set xlabel \"page order" "^set multiplot layout 2,1" "with yerrorlines" "condition fragmented" "T\\[1\\] = \"alloc_pages_node n0>n0\"" "T\\[4\\] = \"alloc_pages_node n0>n0 max\""' \
	'[ "$(sed -n "/^\\\$S1 <</,/^EOD/p" "$tmp/orders.txt" | grep -c "^[0-9]")" = 7 ] || echo "not 7 orders with a success rate"' \
	'has orders "^6 25 15 30\$"'
check sweep2 "sweep of two node pairs: each line's nodes in the legend, none in the title" \
	'has sweep2 "T\\[1\\] = \"malloc, node 0\"" "T\\[2\\] = \"calloc, CPU node 0, memory node 1\""' \
	'! grep -q "CPUs\\{0,1\\} [0-9, ]*, node" "$tmp/sweep2.txt" || echo "a node in the title"'
check run "run: medians across, log axis (2 to 2000 ns), the long label whole in the margin" \
	'has run "^set logscale x 10" "xerrorbars" "T\\[3\\] = \"malloc with a label of fifty-one characters, whole alloc\"" "T\\[6\\] = \"calloc free\"" "ytic\\(T\\[7 - int"' \
	'awk "/^set lmargin/ { exit !(\$3 >= 57) }" "$tmp/run.txt" || echo "lmargin below the label"'
check single "single-op run: log2 histogram steps rising from 0, log ns axis with room at both ends" \
	'has single "^set logscale x" "with steps" "T\\[1\\] = \"malloc\""' \
	'has single "^set xrange \\[[0-9.e+]+:[0-9.e+]+\\]"' \
	'sed -n "/^\\\$h1 <</,/^EOD/p" "$tmp/single.txt" | awk "NR == 2 { x = \$1; if (\$2 != 0) exit 1 } NR == 3 { exit !(\$1 == x && \$2 > 0) }" || echo "the first bucket does not rise from 0"'
check lookup "lookup: cycles per method across, with the CI" \
	'has lookup "T\\[[0-9]\\] = \"bsr, constant 64\"" "xerrorbars"'
check cmp "compare: B / A on a log axis centred on 1, a line at 1, bars from 1" \
	'has cmp "^set logscale x 10" "^set arrow 1 from first 1, graph 0 to first 1, graph 1" "\"1\" 1," "boxxyerror" "B = calloc, A = malloc"' \
	'symmetric cmp 0.08 11' 'apart cmp' \
	'has cmp "^2 10.5 9 11 1 10.5" "^1 0.09 0.08 0.1 0.09 1"'
check cmpbig "compare: a ratio of 1500, its B / A tics labelled whole (1000, not 1e+03)" \
	'has cmpbig "\"1000\" 1000," "\"0.001\" 0.001"' \
	'! grep -q "^set xtics.*e[+-]0[^\"]*\" " "$tmp/cmpbig.txt"' 'apart cmpbig'
check files "compare of saved files: B / A per strategy and phase, centred on 1" \
	'has files "^set logscale x 10" "^set arrow 1 from first 1" "T\\[3\\] = \"malloc [0-9]+ B alloc \\(A 12346, B 6.25 ns\\)\"" "T\\[2\\] = \"none [0-9]+ B free"' \
	'symmetric files 0.5 2'
check vm "vm: B / A of 0.09 to 10.5 (an interval to 0.007) on a log axis centred on 1, every label whole" \
	'has vm "^set logscale x 10" "^set arrow 1 from first 1" "A = 6.1" "T\\[5\\] = \"6.12:a_long_boot_parameter=1: get_free_pages 4K free\""' \
	'symmetric vm 0.00686 145.8' 'apart vm' \
	'[ "$(sed -n "/^\\\$bars <</,/^EOD/p" "$tmp/vm.txt" | grep -c "^[0-9]")" = 6 ] || echo "not 6 bars"'

# --script=-: the script alone on standard output, -o still drawn
if "$ab" plot "$tmp/vm.json" -o "$tmp/v2.svg" --script=- >"$tmp/v2.gp" 2>"$tmp/v2.err" &&
	grep -q '^set terminal svg' "$tmp/v2.gp" && cmp -s "$tmp/v2.gp" "$tmp/vm.gp" && [ -s "$tmp/v2.svg" ]; then
	ok "--script=- writes the script to standard output"
else
	notok "--script=- ($(head -c 200 "$tmp/v2.err"))"
fi
# the script draws the same picture again in gnuplot alone
if gnuplot "$tmp/vm.gp" >"$tmp/v3.svg" 2>"$tmp/v3.err" && cmp -s "$tmp/v3.svg" "$tmp/vm.svg"; then
	ok "gnuplot FILE draws the picture again from --script=FILE"
else
	notok "gnuplot FILE ($(head -c 200 "$tmp/v3.err"))"
fi
out=$("$ab" plot "$tmp/vm.json" -o "$tmp/x.svg" --script="$tmp/x.svg" 2>&1)
st=$?
if [ "$st" = 2 ] && printf '%s' "$out" | grep -q "that is the picture" && [ ! -e "$tmp/x.svg" ]; then
	ok "--script naming the picture is refused (status 2)"
else
	notok "--script naming the picture (exit $st: $out)"
fi
cp "$tmp/vm.json" "$tmp/keep.json"
out=$("$ab" plot "$tmp/vm.json" -o "$tmp/y.svg" --script="$tmp/vm.json" 2>&1)
st=$?
if [ "$st" = 2 ] && cmp -s "$tmp/vm.json" "$tmp/keep.json" && printf '%s' "$out" | grep -q "that is the result"; then
	ok "--script naming the result is refused, the result untouched"
else
	notok "--script naming the result (exit $st: $out)"
fi
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/files.json"))
d["comparisons"][0]["phases"][0]["ratio"] = "fast"
json.dump(d, open(t + "/badfiles.json", "w"))
PY
out=$("$ab" plot "$tmp/badfiles.json" -o "$tmp/b.svg" 2>&1)
st=$?
if [ "$st" = 4 ] && printf '%s' "$out" | grep -q "badfiles.json: comparisons\[0\].phases\[0\].ratio: not a finite number"; then
	ok "a compare of saved files with a bad ratio: status 4, the field named"
else
	notok "a compare of saved files with a bad ratio (exit $st: $out)"
fi
# a picture that cannot be written is a failure, on standard output too
# (gnuplot itself exits 0 after a failed write: the picture passes through
# allocbench, which checks each write)
for f in svg png; do
	out=$("$ab" plot "$tmp/vm.json" -o - --format=$f 2>&1 >/dev/full)
	st=$?
	if [ "$st" != 0 ] && printf '%s' "$out" | grep -q "cannot write the picture to standard output: No space left on device"; then
		ok "-o - --format=$f onto a full device fails (status $st), naming the write"
	else
		notok "-o - --format=$f onto a full device (exit $st: $out)"
	fi
done
