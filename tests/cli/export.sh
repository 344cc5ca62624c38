#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# export.sh [ALLOCBENCH] - `allocbench export` on the host (TAP lines):
# each format of saved results of the user backend (run, sweep, compare,
# lookup) and of a vm document made here from two of them, read back by
# tests/export/check.py as each engine reads its format (written from the
# engines' documentation); the keys of one command against the golden list
# tests/export/keys-user.golden (the same command, the same keys: the
# keys come from the rows' identity); documents a format cannot carry and
# bad input refused in one line with their status, nothing written; the
# contrib/ adapters' scripts parse (sh -n, and shellcheck where it is
# installed).
ab=${1:-./allocbench}
here=$(cd "$(dirname "$0")/../.." && pwd)
check=$here/tests/export/check.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TAP_PREFIX="export: "
. "$(dirname "$0")/../lib.sh"

q=-q
"$ab" run --backend=user --alloc=malloc,calloc --size=64 --trials=5 --json -o "$tmp/run.json" $q
"$ab" run --backend=user --alloc=malloc,calloc --size=64 --trials=5 --json -o "$tmp/run2.json" $q
"$ab" run --backend=user --alloc=malloc,calloc --size=64 --trials=5 --json -o "$tmp/run3.json" $q
"$ab" sweep --backend=user --alloc=malloc --sizes=64,4K --trials=5 --json -o "$tmp/sweep.json" $q
"$ab" lookup --backend=user --size=64 --trials=5 --json -o "$tmp/lookup.json" $q
"$ab" compare --backend=user --alloc=malloc,calloc --trials=7 --rounds=7 --json -o "$tmp/cmp.json" $q
"$ab" compare "$tmp/run.json" "$tmp/run2.json" --json -o "$tmp/files.json" $q 2>/dev/null
# a vm document of two kernels, two good boots each and one that failed,
# each boot's result one of the runs above
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
runs = [json.load(open(d + "/run.json")), json.load(open(d + "/run2.json"))]
boots, n = [], 0
for rnd in (1, 2):
    for k, name in enumerate(("6.1", "6.12")):
        n += 1
        boots.append({"boot": n, "kernel": name, "kernel_index": k, "round": rnd,
                      "status": "ok", "exit": 0, "seconds": 9.5, "why": None,
                      "result": runs[(n - 1) % 2]})
boots.append({"boot": n + 1, "kernel": "6.12", "kernel_index": 1, "round": 3,
              "status": "kernel problem", "exit": None, "seconds": 3.0,
              "why": "WARN in the log", "result": None})
json.dump({"schema": "allocbench-vm", "schema_version": 1,
           "tool": {"name": "allocbench", "version": "0"}, "command": "vm",
           "accel": "tcg", "nodes": 1, "rounds": 3, "interrupted": False,
           "kernels": [{"name": n, "kernel": n, "append": "", "release": None,
                        "good_boots": 2} for n in ("6.1", "6.12")],
           "boots": boots, "comparisons": []}, open(d + "/vm.json", "w"))
PY

# every format of every document that format carries, read back
for doc in run sweep lookup cmp vm; do
	for f in lkp mmtests kcidb fastpath; do
		k=
		[ $doc = vm ] && [ $f != kcidb ] && k=--kernel=6.12
		case $doc/$f in
		cmp/lkp | vm/lkp) continue ;; # several samples: refused below
		esac
		if ! "$ab" export --format=$f $k "$tmp/$doc.json" -o "$tmp/out" 2>"$tmp/err"; then
			notok "$doc as $f: exit $? ($(head -c 300 "$tmp/err"))"
		elif bad=$(python3 "$check" $f "$tmp/out" 2>&1); then
			ok "$doc as $f reads as $f does"
		else
			notok "$doc as $f: $(printf '%s' "$bad" | head -c 400)"
		fi
	done
done

# the samples: three documents are intervals 1 to 3; a vm document's
# boots of one kernel are its samples (its failed boot none)
"$ab" export --format=mmtests "$tmp/run.json" "$tmp/run2.json" "$tmp/run3.json" >"$tmp/m3"
n=$(grep -c "^median_ns	malloc.64B.nodelocal.cpuany.alloc	_	[123]	" "$tmp/m3")
[ "$n" = 3 ] && ok "three run documents are mmtests intervals 1, 2 and 3" ||
	notok "three run documents: $n intervals of malloc's median"
"$ab" export --format=mmtests --kernel=6.12 "$tmp/vm.json" >"$tmp/mv"
n=$(grep -c "^median_ns	malloc.64B.nodelocal.cpuany.alloc	" "$tmp/mv")
[ "$n" = 2 ] && ok "a vm document: one interval per good boot of the kernel chosen (2)" ||
	notok "a vm document: $n intervals for 6.12's 2 good boots"
# mmtests compares every label of a report one way, lower better (one
# _PreferredVal per report in ExtractShellpack.pm; compare-kernels.sh
# passes no --sub-heading): a success rate of 0.83 (415 of 500 calls) goes
# as failure_rate 0.17, the failed calls over the attempts (not 1 - 0.83,
# 0.17000000000000004), and the shellpack says nothing is higher better
python3 - "$tmp/run.json" "$tmp/fails.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
r["failed"], r["objects"] = 85, 415
r["success"] = {"attempts": 500, "rate": 0.83, "wilson95": [0.795, 0.860]}
json.dump(d, open(sys.argv[2], "w"))
PY
sp=$here/contrib/mmtests/shellpack_src/src/allocbench/shellpack.yaml
"$ab" export --format=mmtests "$tmp/fails.json" >"$tmp/mf" 2>&1
if grep -q "^failure_rate	malloc.64B.nodelocal.cpuany	_	1	0.17	_$" "$tmp/mf" &&
	! grep -q "success_rate" "$tmp/mf" && python3 "$check" mmtests "$tmp/mf" &&
	grep -q "^  - failure_rate$" "$sp" && ! grep -q "^ *preferhigher:" "$sp"; then
	ok "mmtests: a success rate of 0.83 is failure_rate 0.17 (85 of 500 calls), lower better as mmtests compares every metric"
else
	notok "mmtests: a success rate of 0.83: $(grep -E "rate" "$tmp/mf" | head -2 | tr '\n' ' ')"
fi
"$ab" export --format=lkp "$tmp/fails.json" | grep -q "^malloc.64B.nodelocal.cpuany.success_rate: 0.83$" &&
	ok "lkp keeps success_rate 0.83 (its index file says higher is better)" ||
	notok "lkp: success_rate 0.83 not kept"
"$ab" export --format=kcidb "$tmp/vm.json" >"$tmp/kv"
if python3 - "$tmp/kv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
builds = {b["id"]: b["misc"]["kernel"] for b in d["builds"]}
assert len(builds) == 2 and sorted(builds.values()) == ["6.1", "6.12"]
for t in d["tests"]:
    assert builds[t["build_id"]] == t["misc"]["kernel"]
PY
then ok "kcidb: a vm document is one build per kernel, each test on its kernel's build"
else notok "kcidb: a vm document's builds and tests do not match"; fi
# the medians of a compare document are its rounds'
python3 - "$tmp/cmp.json" "$ab" <<'PY' && ok "compare: each round's median is its sample, as saved" || notok "compare: the rounds' medians are not the samples"
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
out = subprocess.run([sys.argv[2], "export", "--format=mmtests", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
got = {}
for l in out.splitlines():
    m, fa, _, i, v, _ = l.split("\t")
    got[(fa, int(i))] = float(v)
# (a net median below zero, noise, is left out: issue 39.3)
def same(key, v):
    assert got[key] == v if v >= 0 else key not in got, (key, v)
for r in d["compare"]["per_round"]:
    same(("malloc.4096B.nodelocal.cpuany.alloc", r["round"]), r["a_alloc_median_ns"])
    same(("calloc.4096B.nodelocal.cpuany.free", r["round"]), r["b_free_median_ns"])
PY

# issue 39.3: a net time below zero is no latency: left out, and said so
python3 - "$tmp/run.json" "$tmp/neg.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["alloc"]["ns"]["median"] = -117.69
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$ab" export --format=lkp "$tmp/neg.json" 2>"$tmp/err")
rc=$?
if [ $rc = 0 ] && ! printf '%s\n' "$out" | grep -q '_\(ns\|cycles\): -' &&
	! printf '%s\n' "$out" | grep -q '^malloc\.64B\.nodelocal\.cpuany\.alloc\.median_ns:' &&
	printf '%s\n' "$out" | grep -q '^malloc\.64B\.nodelocal\.cpuany\.alloc\.p90_ns:' &&
	grep -q "export: note: 1 time below zero left out (the first: malloc.64B.nodelocal.cpuany.alloc.median_ns -117.69)" "$tmp/err"; then
	ok "lkp: a net median below zero is left out, with a note on stderr; the row's other figures stay"
else
	notok "lkp: a negative time exported or not said (exit $rc: $(printf '%s' "$out" | grep -- ': -' | head -c 200); $(head -c 300 "$tmp/err"))"
fi

# every time below zero: nothing left, and it says why
python3 - "$tmp/run.json" "$tmp/allneg.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = d["results"][:1]
for p in ("alloc", "free"):
    for k, v in d["results"][0][p]["ns"].items():
        if k != "n" and isinstance(v, (int, float)):
            d["results"][0][p]["ns"][k] = -3.5
    d["results"][0][p]["cycles"]["median"] = -5
json.dump(d, open(sys.argv[2], "w"))
PY
"$ab" export --format=lkp "$tmp/allneg.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 6 ] && [ ! -s "$tmp/out" ] && grep -q "export: note: 16 times below zero left out" "$tmp/err"; then
	ok "lkp: a document whose every time is below zero: status 6, nothing written, the note says why"
else
	notok "lkp: every time below zero (exit $rc: $(head -c 300 "$tmp/err"))"
fi

# the same command, the same keys: against the golden list
"$ab" export --format=lkp "$tmp/run2.json" >"$tmp/l2"
if bad=$(python3 "$check" lkp "$tmp/l2" "$here/tests/export/keys-user.golden"); then
	ok "the keys of a run are the golden list's (tests/export/keys-user.golden)"
else
	notok "keys: $bad"
fi
# nothing rounded away: each value reads back as saved
python3 - "$tmp/run.json" "$ab" <<'PY' && ok "lkp: every value is the saved number exactly" || notok "lkp: a value differs from the saved one"
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
out = dict(l.split(": ") for l in subprocess.run(
    [sys.argv[2], "export", "--format=lkp", sys.argv[1]],
    capture_output=True, text=True, check=True).stdout.splitlines())
r = d["results"][0]
assert float(out["malloc.64B.nodelocal.cpuany.alloc.median_ns"]) == r["alloc"]["ns"]["median"]
assert float(out["malloc.64B.nodelocal.cpuany.free.p99_ns"]) == r["free"]["ns"]["p99"]
PY

# LKP reads a value without a '.' as an integer: a small one is written in
# fixed notation, never as 5e-05 (which would read as 5)
python3 - "$tmp/run.json" "$tmp/small.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["alloc"]["ns"]["min"] = 5e-05
d["results"][0]["alloc"]["ns"]["max"] = 1e-30
json.dump(d, open(sys.argv[2], "w"))
PY
"$ab" export --format=lkp "$tmp/small.json" >"$tmp/lsmall"
if grep -q "^malloc.64B.nodelocal.cpuany.alloc.min_ns: 0.00005$" "$tmp/lsmall" &&
	python3 -c 'import sys
v = [l.split(": ")[1].strip() for l in open(sys.argv[1]) if l.startswith("malloc.64B.nodelocal.cpuany.alloc.max_ns: ")][0]
sys.exit(not ("." in v and float(v) == 1e-30))' "$tmp/lsmall" &&
	python3 "$check" lkp "$tmp/lsmall"; then
	ok "lkp: small values keep a '.' (5e-05 as 0.00005; 1e-30 reads back), as dump-stat needs for a float"
else
	notok "lkp: small values: $(grep -E 'alloc.(min|max)_ns' "$tmp/lsmall" | head -2 | tr '\n' ' ')"
fi

# counters' keys (docs/export.md): a filtered kprobe by its tag, any other
# event with each run of non-alphanumerics one '_', none first or last;
# the event as counted in KCIDB's misc.statistic. A run's JSON with such
# events added (the user backend counts no kprobe)
python3 - "$tmp/run.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
row = d["results"][0]
base = {"event": "task-clock", "encoding": "perf::PERF_COUNT_SW_TASK_CLOCK",
        "source": "kernel", "per_op": 1.5, "net_per_op": 1.0}
evs = ["task-clock", "kprobe:___slab_alloc(c->freelist==NULL)",
       "kprobe:___slab_alloc", "L1-dcache-load-misses", "cpu/event=0x3c,umask=0x00/"]
row["counters"] = [dict(base, event=e, per_op=i + 1.5) for i, e in enumerate(evs)]
json.dump(d, open(sys.argv[2] + "/events.json", "w"))
x = copy.deepcopy(d)
x["results"][0]["counters"].append(dict(base, event="kprobe:__slab_alloc"))
json.dump(x, open(sys.argv[2] + "/ev_alike.json", "w"))
x = copy.deepcopy(d)
x["results"][0]["counters"].append(dict(base, event="::"))
json.dump(x, open(sys.argv[2] + "/ev_none.json", "w"))
x = copy.deepcopy(d)
x["results"][0]["counters"] = [dict(base, event="kprobe:" + "a" * 200)]
json.dump(x, open(sys.argv[2] + "/ev_long.json", "w"))
PY
# a long event keeps its whole name (a part was cut at 127 characters, and
# its _per_op with it)
if "$ab" export --format=lkp "$tmp/ev_long.json" | grep -q "^malloc.64B.nodelocal.cpuany.kprobe_a\{200\}_per_op: 1.5$"; then
	ok "counters: a 207-character event keys whole, _per_op and all"
else
	notok "counters: a long event's key: $("$ab" export --format=lkp "$tmp/ev_long.json" 2>&1 | grep -v _ns | head -c 300)"
fi
"$ab" export --format=lkp "$tmp/events.json" | grep '_per_op: ' | sed 's/^malloc\.64B\.nodelocal\.cpuany\.//' >"$tmp/evk"
want='task_clock_per_op: 1.5
slab_refill_per_op: 2.5
kprobe_slab_alloc_per_op: 3.5
L1_dcache_load_misses_per_op: 4.5
cpu_event_0x3c_umask_0x00_per_op: 5.5'
if [ "$(cat "$tmp/evk")" = "$want" ] && python3 "$check" lkp "$tmp/evk" &&
	"$ab" export --format=mmtests "$tmp/events.json" | grep -q "^per_op	malloc.64B.nodelocal.cpuany.slab_refill	_	1	2.5	_$" &&
	"$ab" export --format=kcidb "$tmp/events.json" | python3 -c 'import json, sys
t = [t for t in json.load(sys.stdin)["tests"] if t["path"].endswith(".slab_refill_per_op")]
sys.exit(not (len(t) == 1 and t[0]["misc"]["statistic"] == "kprobe:___slab_alloc(c->freelist==NULL)"))'; then
	ok "counters: a filtered kprobe keys by its tag (slab_refill), other events by letters and digits joined by one _ (task_clock, kprobe_slab_alloc); KCIDB keeps the event as counted"
else
	notok "counters' keys: $(tr '\n' ' ' <"$tmp/evk")"
fi

# hand-edited documents (a hostile review): each refused in one line with
# status 4, never a crash; an A/A vm document (one kernel named twice)
python3 - "$tmp" <<'PY'
import copy, json, sys
d = sys.argv[1]
vm = json.load(open(d + "/vm.json"))
cmp = json.load(open(d + "/cmp.json"))
def save(name, doc): json.dump(doc, open("%s/%s.json" % (d, name), "w"))
x = copy.deepcopy(vm); x["boots"] = {"a": 1}; save("boots_obj", x)
x = copy.deepcopy(vm); x["kernels"] = "6.1"; save("kernels_str", x)
x = copy.deepcopy(vm); x["boots"][0]["result"]["results"][0]["alloc"]["ns"]["median"] = "fast"; save("boot_bad", x)
x = copy.deepcopy(vm); del x["boots"][0]["kernel_index"]; save("kidx", x)
x = copy.deepcopy(cmp); x["compare"]["per_round"] = "7"; save("rounds_str", x)
x = copy.deepcopy(vm)
for k in x["kernels"]: k["name"] = "6.1"
for b in x["boots"]: b["kernel"] = "6.1"
save("aa", x)
x = copy.deepcopy(vm); x["kernels"][1]["name"] = "6.1:a=B"; x["kernels"][0]["name"] = "6.1:a=b"; save("case", x)
PY
for doc in boots_obj kernels_str boot_bad kidx rounds_str; do
	out=$("$ab" export --format=mmtests "$tmp/$doc.json" 2>&1 >/dev/null)
	st=$?
	if [ $st = 4 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then
		ok "a hand-edited document ($doc) is refused with status 4: $out"
	else
		notok "a hand-edited document ($doc): exit $st: $out"
	fi
done
if "$ab" export --format=kcidb "$tmp/aa.json" >"$tmp/aa.kc" && python3 "$check" kcidb "$tmp/aa.kc" &&
	"$ab" export --format=mmtests "--kernel=6.1#2" "$tmp/aa.json" | grep -q "^median_ns	"; then
	ok "an A/A vm document (one kernel named twice): its second kernel is 6.1#2, every format carries it"
else
	notok "an A/A vm document"
fi
"$ab" export --format=kcidb "$tmp/case.json" >"$tmp/case.kc" && python3 "$check" kcidb "$tmp/case.kc" &&
	ok "kcidb: kernels whose names differ in case only get builds of their own" ||
	notok "kcidb: kernels differing in case share a build id"
"$ab" export --format=kcidb --origin=ci --build-id=ci:a --checkout-id=ci:c "$tmp/run.json" | python3 -c 'import json, sys
a = {t["id"] for t in json.load(sys.stdin)["tests"]}
import subprocess
b = {t["id"] for t in json.loads(subprocess.run([sys.argv[1], "export", "--format=kcidb", "--origin=ci", "--build-id=ci:b", "--checkout-id=ci:c", sys.argv[2]], capture_output=True, text=True).stdout)["tests"]}
sys.exit(bool(a & b))' "$ab" "$tmp/run2.json" &&
	ok "kcidb: two documents give tests of ids of their own (a hash of their metrics)" ||
	notok "kcidb: two documents share test ids"

# refused: one line, its status, nothing written
expect() {
	want=$1 pat=$2 name=$3
	shift 3
	rm -f "$tmp/never"
	out=$("$ab" export "$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		printf '%s\n' "$out" | grep -q -- "$pat" && [ ! -e "$tmp/never" ]; then
		ok "$name"
	else
		notok "$name (exit $got, wanted $want: $(printf '%s' "$out" | head -c 300))"
	fi
}
expect 6 "holds 7 samples (rounds)" "lkp refuses a compare document's rounds (status 6)" \
	--format=lkp "$tmp/cmp.json" -o "$tmp/never"
expect 6 "choose one with --kernel=6.1" "lkp refuses a vm document of two kernels" \
	--format=lkp "$tmp/vm.json" -o "$tmp/never"
expect 6 "the events 'kprobe:___slab_alloc' and 'kprobe:__slab_alloc' of one row both key as malloc.64B.nodelocal.cpuany.kprobe_slab_alloc_per_op" \
	"two events of one row that key alike are refused, never merged (status 6)" --format=lkp "$tmp/ev_alike.json" -o "$tmp/never"
expect 4 "the event '::' has no letter or digit" "an event with nothing to key it by is refused (status 4)" \
	--format=mmtests "$tmp/ev_none.json" -o "$tmp/never"
expect 6 "holds 2 samples (boots)" "lkp refuses one kernel's two boots" \
	--format=lkp --kernel=6.1 "$tmp/vm.json" -o "$tmp/never"
expect 6 "holds 2 samples (documents)" "lkp refuses two documents" \
	--format=lkp "$tmp/run.json" "$tmp/run2.json" -o "$tmp/never"
expect 6 "ratios of other documents' runs" "a comparison of saved files is refused" \
	--format=mmtests "$tmp/files.json" -o "$tmp/never"
expect 6 "--kernel=7.3: not a kernel of this document (its kernels: 6.1 6.12)" \
	"--kernel naming no kernel of the document" --format=mmtests --kernel=7.3 "$tmp/vm.json" -o "$tmp/never"
expect 6 "only a vm document holds several kernels" "--kernel on a run document" \
	--format=mmtests --kernel=6.1 "$tmp/run.json" -o "$tmp/never"
expect 6 "a sweep document after a run one" "documents of two commands" \
	--format=mmtests "$tmp/run.json" "$tmp/sweep.json" -o "$tmp/never"
expect 2 "--format=csv: allowed lkp, mmtests, kcidb, fastpath" "an unknown format" \
	--format=csv "$tmp/run.json" -o "$tmp/never"
expect 2 "usage: allocbench export --format=" "no format" "$tmp/run.json"
expect 2 "usage: allocbench export --format=" "no file" --format=lkp
expect 2 "--origin=Bad-Origin: KCIDB allows" "a bad KCIDB origin" \
	--format=kcidb --origin=Bad-Origin "$tmp/run.json" -o "$tmp/never"
expect 2 "--build-id=b1: a KCIDB id is ORIGIN:ID" "a KCIDB id without its origin" \
	--format=kcidb --build-id=b1 "$tmp/run.json" -o "$tmp/never"
expect 6 "names one build, and this vm document holds 2 kernels" "kcidb: one --build-id for two kernels refused" \
	--format=kcidb --origin=ci --build-id=ci:b1 --checkout-id=ci:c1 "$tmp/vm.json" -o "$tmp/never"
# KCIDB merges the objects of one id property by property: the submitter's
# build is never put under a made-up checkout (nor a made-up build under
# the submitter's checkout), nor written with another origin than its id's
expect 2 "--build-id=allocbench:b1 without --checkout-id" "kcidb: --build-id without --checkout-id refused (status 2)" \
	--format=kcidb --build-id=allocbench:b1 "$tmp/run.json" -o "$tmp/never"
expect 2 "--checkout-id=allocbench:c1 without --build-id" "kcidb: --checkout-id without --build-id refused (status 2)" \
	--format=kcidb --checkout-id=allocbench:c1 "$tmp/run.json" -o "$tmp/never"
expect 2 "--build-id=ci:b1: its origin ci is not --origin=allocbench" "kcidb: a build id of another origin than --origin refused" \
	--format=kcidb --build-id=ci:b1 --checkout-id=ci:c1 "$tmp/run.json" -o "$tmp/never"
expect 2 "--checkout-id=cj:c1: its origin cj is not --origin=ci" "kcidb: a checkout id of another origin refused" \
	--format=kcidb --origin=ci --build-id=ci:b1 --checkout-id=cj:c1 "$tmp/run.json" -o "$tmp/never"
if "$ab" export --format=kcidb --origin=ci --build-id=ci:b1 --checkout-id=ci:c1 --kernel=6.1 "$tmp/vm.json" >"$tmp/kown" &&
	python3 "$check" kcidb "$tmp/kown" && python3 - "$tmp/kown" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["id"] for c in d["checkouts"]] == ["ci:c1"]
assert [(b["id"], b["checkout_id"], b["origin"]) for b in d["builds"]] == [("ci:b1", "ci:c1", "ci")]
assert "misc" not in d["builds"][0]  # the submitter's build keeps its own
assert all(t["build_id"] == "ci:b1" and t["misc"]["kernel"] == "6.1" for t in d["tests"])
PY
then
	ok "kcidb: the submitter's build and checkout, of its origin, with nothing of allocbench's on the build"
else
	notok "kcidb: the submitter's build and checkout: $(head -c 300 "$tmp/kown")"
fi
expect 2 "a KCIDB id is ORIGIN:ID" "kcidb: --build-id with a bad origin part refused" \
	--format=kcidb "--build-id=Bad Origin:x" "$tmp/run.json" -o "$tmp/never"
expect 2 "- given twice" "- twice refused" --format=lkp - - -o "$tmp/never"
cp "$tmp/vm.json" "$tmp/vm2.json"
expect 6 "a vm document after another document" "a vm document after another refused" \
	--format=mmtests --kernel=6.1 "$tmp/vm.json" "$tmp/vm2.json" -o "$tmp/never"
# one file given twice would be two samples of one run: by name, through
# a hard or symbolic link, or as standard input
ln "$tmp/run.json" "$tmp/hard.json"
ln -s "$tmp/run.json" "$tmp/sym.json"
expect 2 "export: $tmp/run.json and $tmp/run.json are the same file" "one file named twice refused (status 2)" \
	--format=mmtests "$tmp/run.json" "$tmp/run.json" -o "$tmp/never"
expect 2 "export: $tmp/run.json and $tmp/hard.json are the same file" "one file twice through a hard link refused" \
	--format=mmtests "$tmp/run.json" "$tmp/run2.json" "$tmp/hard.json" -o "$tmp/never"
expect 2 "export: $tmp/sym.json and $tmp/run.json are the same file" "one file twice through a symbolic link refused" \
	--format=mmtests "$tmp/sym.json" "$tmp/run.json" -o "$tmp/never"
expect 2 "export: $tmp/run.json and - are the same file" "one file twice, once as standard input, refused" \
	--format=mmtests "$tmp/run.json" - -o "$tmp/never" <"$tmp/run.json"
expect 4 "cannot read" "a missing file (status 4)" --format=lkp "$tmp/nosuch.json" -o "$tmp/never"
printf '{"schema": "allocbench-result", "schema_version": 1, "res' >"$tmp/cut.json"
expect 4 "not JSON" "a truncated file" --format=lkp "$tmp/cut.json" -o "$tmp/never"
expect 2 "that is the input file" "-o naming the input" --format=lkp "$tmp/run.json" -o "$tmp/run.json"
cp "$tmp/run.json" "$tmp/in.json"
if "$ab" export --format=lkp - -o "$tmp/in.json" <"$tmp/in.json" 2>/dev/null; then
	notok "-o naming the file standard input reads: accepted"
else
	cmp -s "$tmp/run.json" "$tmp/in.json" && ok "-o naming the file standard input reads is refused, the file kept" ||
		notok "-o naming standard input's file: the file changed"
fi
cp "$tmp/run.json" "$tmp/keep.json"
cmp -s "$tmp/run.json" "$tmp/keep.json" && ok "the input is never written" || notok "the input changed"
# -o - and - as the input: standard output and standard input
if "$ab" export --format=lkp -o - - <"$tmp/run.json" | grep -q "^calloc.64B.nodelocal.cpuany.free.median_ns: "; then
	ok "- reads standard input, -o - writes standard output"
else
	notok "- and -o -"
fi
# the list of formats comes from the one table
[ "$("$ab" list --values=export-formats | tr '\n' ' ')" = "lkp mmtests kcidb fastpath " ] &&
	ok "list --values=export-formats" || notok "list --values=export-formats"

# the adapters' scripts parse; shellcheck where Debian's is installed
for s in "$here"/contrib/lkp-tests/programs/allocbench/run \
	"$here"/contrib/lkp-tests/programs/allocbench/parse \
	"$here"/contrib/mmtests/shellpack_src/src/allocbench/allocbench-bench \
	"$here"/contrib/mmtests/shellpack_src/src/allocbench/allocbench-install \
	"$here"/contrib/mmtests/shellpack_src/src/allocbench/parse-results \
	"$here"/contrib/mmtests/drivers/driver-allocbench.sh \
	"$here"/contrib/kernelci/submit.sh; do
	name=${s#"$here"/}
	if [ ! -f "$s" ]; then
		notok "$name is missing"
	elif ! bash -n "$s" 2>"$tmp/err"; then
		notok "$name does not parse: $(head -c 200 "$tmp/err")"
	elif command -v shellcheck >/dev/null && ! shellcheck -s bash -S warning "$s" >"$tmp/err" 2>&1; then
		notok "$name: shellcheck: $(head -c 300 "$tmp/err")"
	else
		ok "$name parses$(command -v shellcheck >/dev/null && echo ', shellcheck clean')"
	fi
done
# KernelCI's submit.sh, kcidb-validate and kcidb-submit stubbed (the real
# kcidb-validate writes the document back to stdout): only the verdict is
# printed, and BUILD_ID without CHECKOUT_ID is allocbench's refusal, nothing
# sent
mkdir -p "$tmp/kbin"
ln -sf "$(cd "$(dirname "$ab")" && pwd)/$(basename "$ab")" "$tmp/kbin/allocbench"
printf '#!/bin/sh\ncat\n' >"$tmp/kbin/kcidb-validate"
printf '#!/bin/sh\ncat >"%s"\n' "$tmp/sent" >"$tmp/kbin/kcidb-submit"
chmod +x "$tmp/kbin/kcidb-validate" "$tmp/kbin/kcidb-submit"
sub=$here/contrib/kernelci/submit.sh
if PATH=$tmp/kbin:$PATH bash "$sub" "$tmp/run.json" >"$tmp/sub-out" 2>&1 &&
	[ "$(wc -l <"$tmp/sub-out")" = 1 ] && grep -q "is valid$" "$tmp/sub-out" &&
	python3 "$check" kcidb "$tmp/sent"; then
	ok "kernelci submit.sh prints kcidb-validate's verdict in one line, not the document, and sends it"
else
	notok "kernelci submit.sh: $(wc -l <"$tmp/sub-out") lines: $(head -c 200 "$tmp/sub-out")"
fi
rm -f "$tmp/sent"
PATH=$tmp/kbin:$PATH BUILD_ID=allocbench:b1 bash "$sub" "$tmp/run.json" >"$tmp/sub-out" 2>&1
st=$?
[ $st = 2 ] && [ ! -e "$tmp/sent" ] && grep -q "without --checkout-id" "$tmp/sub-out" &&
	ok "kernelci submit.sh: BUILD_ID without CHECKOUT_ID is refused (status 2), nothing sent" ||
	notok "kernelci submit.sh: BUILD_ID alone: exit $st: $(head -c 200 "$tmp/sub-out")"
# the adapters' parsers on real documents: mmtests' parse-results reads a
# LOGDIR of iterations; LKP's parse keeps the key: value lines of a log
mkdir -p "$tmp/logdir"
for i in 1 2 3 10; do cp "$tmp/run.json" "$tmp/logdir/allocbench-$i.json"; done
if ALLOCBENCH=$ab bash "$here/contrib/mmtests/shellpack_src/src/allocbench/parse-results" "$tmp/logdir" >"$tmp/pr" &&
	python3 "$check" mmtests "$tmp/pr" &&
	[ "$(grep -c "^median_ns	malloc.64B.nodelocal.cpuany.alloc	_	" "$tmp/pr")" = 4 ] &&
	grep -q "^median_ns	malloc.64B.nodelocal.cpuany.alloc	_	4	" "$tmp/pr"; then
	ok "mmtests parse-results: a LOGDIR's iterations 1, 2, 3, 10 in order, as intervals 1 to 4"
else
	notok "mmtests parse-results on a LOGDIR: $(head -c 300 "$tmp/pr")"
fi
# a report on a machine without allocbench: the lines allocbench-bench
# saved (LOGDIR/allocbench.mmtests) are printed as they are; with none and
# no allocbench to convert the JSON, one line naming ALLOCBENCH and status
# 1, nothing on stdout (mmtests never reads a parser's status)
pr=$here/contrib/mmtests/shellpack_src/src/allocbench/parse-results
mkdir -p "$tmp/nologdir" "$tmp/savedlog"
cp "$tmp/run.json" "$tmp/nologdir/allocbench-1.json"
ALLOCBENCH=$tmp/no-allocbench bash "$pr" "$tmp/nologdir" >"$tmp/pr-out" 2>"$tmp/pr-err"
st=$?
if [ $st = 1 ] && [ ! -s "$tmp/pr-out" ] && [ "$(wc -l <"$tmp/pr-err")" = 1 ] &&
	grep -q "has no allocbench.mmtests.*ALLOCBENCH=PATH" "$tmp/pr-err"; then
	ok "mmtests parse-results without allocbench and without saved lines: status 1, one line: $(cat "$tmp/pr-err")"
else
	notok "mmtests parse-results without allocbench: exit $st, stdout $(wc -c <"$tmp/pr-out") bytes: $(head -c 300 "$tmp/pr-err")"
fi
"$ab" export --format=mmtests "$tmp/run.json" "$tmp/run2.json" -o "$tmp/savedlog/allocbench.mmtests"
if ALLOCBENCH=$tmp/no-allocbench bash "$pr" "$tmp/savedlog" >"$tmp/pr-out" 2>"$tmp/pr-err" &&
	cmp -s "$tmp/pr-out" "$tmp/savedlog/allocbench.mmtests" && [ ! -s "$tmp/pr-err" ]; then
	ok "mmtests parse-results without allocbench: the lines allocbench-bench saved"
else
	notok "mmtests parse-results with saved lines and no allocbench: $(head -c 300 "$tmp/pr-err")"
fi
echo '{"schema": "allocbench-result"}' >"$tmp/nologdir/allocbench-2.json"
ALLOCBENCH=$ab bash "$pr" "$tmp/nologdir" >"$tmp/pr-out" 2>"$tmp/pr-err"
st=$?
[ $st = 4 ] && [ ! -s "$tmp/pr-out" ] && [ "$(wc -l <"$tmp/pr-err")" = 1 ] &&
	ok "mmtests parse-results: an iteration allocbench refuses is allocbench's status (4) and line, nothing on stdout" ||
	notok "mmtests parse-results on a bad iteration: exit $st, $(wc -c <"$tmp/pr-out") bytes out: $(head -c 300 "$tmp/pr-err")"
{ echo "2026-12-06 00:00:00 allocbench run --alloc=malloc"; "$ab" export --format=lkp "$tmp/run.json"; echo "note: done"; } |
	sh "$here/contrib/lkp-tests/programs/allocbench/parse" >"$tmp/lp"
if python3 "$check" lkp "$tmp/lp" && [ "$(wc -l <"$tmp/lp")" = "$("$ab" export --format=lkp "$tmp/run.json" | wc -l)" ]; then
	ok "lkp parse: keeps every key: value line of a log and nothing else"
else
	notok "lkp parse: $(head -c 300 "$tmp/lp")"
fi
# LKP's run script builds the module against the build tree LKP installs
# (get_linux_headers_dir of lkp-tests' lib/common.sh, linux-headers*-bpf
# first), else /lib/modules/RELEASE/build; with none, one line saying where
# it looked. lkp-tests' libraries are stubbed: log_cmd prints the command
lkp=$tmp/lkp
mkdir -p "$lkp/src/lib" "$lkp/bin" "$lkp/usr/src/linux-headers-x86_64-rhel-9.4-bpf" "$lkp/usr/src/linux-headers-x86_64-rhel-9.4"
touch "$lkp/usr/src/linux-headers-x86_64-rhel-9.4-bpf/Makefile"
: >"$lkp/src/lib/env.sh"
: >"$lkp/src/lib/run.sh"
echo 'die() { echo "DIE: $*"; exit 1; }' >"$lkp/src/lib/debug.sh"
echo 'log_cmd() { echo "CMD: $*"; [ "$1" != make ]; }' >"$lkp/src/lib/reproduce-log.sh"
# as lkp-tests' get_linux_headers_dir, under $lkp/usr/src
echo 'get_linux_headers_dir() { ls -d '"$lkp"'/usr/src/${1:-linux-headers*} 2>/dev/null | head -1; }' >"$lkp/src/lib/common.sh"
printf '#!/bin/sh\nexit 1\n' >"$lkp/bin/modprobe"
chmod +x "$lkp/bin/modprobe"
lkprun=$here/contrib/lkp-tests/programs/allocbench/run
PATH=$lkp/bin:$PATH LKP_SRC=$lkp/src BENCHMARK_ROOT=$lkp TMP_RESULT_ROOT=$lkp bash "$lkprun" >"$tmp/lkp-out" 2>&1
if grep -q "^CMD: make -C $lkp/allocbench/lib/allocbench/src/kmod KDIR=$lkp/usr/src/linux-headers-x86_64-rhel-9.4-bpf$" "$tmp/lkp-out"; then
	ok "lkp run: the module is built against LKP's /usr/src/linux-headers*-bpf (get_linux_headers_dir)"
else
	notok "lkp run: KDIR: $(grep -m1 "make\|DIE" "$tmp/lkp-out")"
fi
rm "$lkp/usr/src/linux-headers-x86_64-rhel-9.4-bpf/Makefile"
PATH=$lkp/bin:$PATH LKP_SRC=$lkp/src BENCHMARK_ROOT=$lkp TMP_RESULT_ROOT=$lkp bash "$lkprun" >"$tmp/lkp-out" 2>&1
if [ -f "/lib/modules/$(uname -r)/build/Makefile" ]; then
	grep -q "^CMD: make .* KDIR=/lib/modules/$(uname -r)/build$" "$tmp/lkp-out" &&
		ok "lkp run: with no LKP build tree, /lib/modules/$(uname -r)/build" ||
		notok "lkp run: no LKP build tree: $(grep -m1 "make\|DIE" "$tmp/lkp-out")"
else
	[ "$(grep -c "^DIE: allocbench: no build tree of $(uname -r) .*linux-headers\*-bpf.*/lib/modules/$(uname -r)/build$" "$tmp/lkp-out")" = 1 ] &&
		! grep -q "^CMD: make" "$tmp/lkp-out" &&
		ok "lkp run: with no build tree anywhere, one line saying where it looked, nothing built" ||
		notok "lkp run: no build tree: $(head -c 300 "$tmp/lkp-out")"
fi
# LKP's result database files a testcase by etc/linux-perf-test-cases
# ("Unknow testcase" otherwise): the line for the job's testcase is shipped
tc=$(sed -n 's/^testcase: *//p' "$here/contrib/lkp-tests/jobs/allocbench.yaml")
if [ -n "$tc" ] && grep -qx "$tc" "$here/contrib/lkp-tests/etc/linux-perf-test-cases"; then
	ok "lkp: contrib/lkp-tests/etc/linux-perf-test-cases holds the job's testcase ($tc)"
else
	notok "lkp: no line '$tc' in contrib/lkp-tests/etc/linux-perf-test-cases"
fi
# Fastpath's entrypoint is a Python script (exec.py, as its guide names it)
py=$here/contrib/fastpath/containers/allocbench/exec.py
if python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$py" 2>"$tmp/err"; then
	ok "contrib/fastpath/containers/allocbench/exec.py parses"
else
	notok "contrib/fastpath/containers/allocbench/exec.py: $(head -c 200 "$tmp/err")"
fi
# Fastpath's kernel profile ships the image and a modules tarball, no
# build tree: exec.py loads the profile's allocbench.ko (modprobe), builds
# only against a build tree it sees, and else says in one line what the
# profile must provide, status 3, nothing run. modprobe, make and
# allocbench are stubbed; the SUT's root is $ALLOCBENCH_ROOT
if grep -qw allocbench /proc/modules 2>/dev/null; then
	echo "ok - export: fastpath exec.py's module loading # SKIP allocbench.ko is loaded here"
else
	fp=$tmp/fp
	rel=$(uname -r)
	mkdir -p "$fp/bin" "$fp/root/lib/modules/$rel" "$fp/share"
	printf '#!/bin/sh\necho "modprobe $*" >>"%s"\nexit 1\n' "$fp/log" >"$fp/bin/modprobe"
	printf '#!/bin/sh\necho "make $*" >>"%s"\nexit 1\n' "$fp/log" >"$fp/bin/make"
	printf '#!/bin/sh\necho "allocbench $*" >>"%s"\n' "$fp/log" >"$fp/bin/allocbench"
	chmod +x "$fp/bin/modprobe" "$fp/bin/make" "$fp/bin/allocbench"
	fprun() { PATH=$fp/bin:$PATH ALLOCBENCH_ROOT=$fp/root FASTPATH_SHARE=$fp/share python3 "$here/contrib/fastpath/containers/allocbench/exec.py" >"$fp/out" 2>&1; }
	fprun
	st=$?
	if [ $st = 3 ] && [ "$(wc -l <"$fp/out")" = 1 ] &&
		grep -q "modules tarball must hold lib/modules/$rel/updates/allocbench.ko" "$fp/out" &&
		! grep -q "^make\|^allocbench" "$fp/log"; then
		ok "fastpath exec.py: no module and no build tree: status 3, one line saying what the profile must provide"
	else
		notok "fastpath exec.py without a module: exit $st: $(head -c 300 "$fp/out")"
	fi
	mkdir -p "$fp/root/lib/modules/$rel/build"
	touch "$fp/root/lib/modules/$rel/build/Makefile"
	: >"$fp/log"
	fprun
	grep -q "^make -C /usr/local/lib/allocbench/src/kmod KDIR=$fp/root/lib/modules/$rel/build$" "$fp/log" &&
		ok "fastpath exec.py: with the kernel's build tree in sight, the module is built against it" ||
		notok "fastpath exec.py with a build tree: $(head -c 300 "$fp/log")"
	sed -i 's/^exit 1$/exit 0/' "$fp/bin/modprobe"
	: >"$fp/log"
	fprun
	if grep -q "^modprobe -d $fp/root allocbench$" "$fp/log" && ! grep -q "^make" "$fp/log" &&
		grep -q "^allocbench export --format=fastpath" "$fp/log"; then
		ok "fastpath exec.py: the profile's allocbench.ko is loaded by modprobe, nothing built"
	else
		notok "fastpath exec.py with the profile's module: $(head -c 300 "$fp/log")"
	fi
fi
