#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-cpu-models.sh [KERNEL] [ROUNDS] - figures, never pass/fail (make bench,
# on the host): what each guest CPU model does to the code the kernel
# runs and to its cost under TCG, to choose `allocbench vm`'s default
# (issue 23). MODELS="qemu64 EPYC ..." runs those alone; "default" is
# the model allocbench vm boots when none is given (qemu64 with
# clearcpuid=rep_good, vm-run.sh), where qemu64 named keeps rep_good. For
# each model,
# on KERNEL (default 6.1):
#  - one boot with the virtual PMU (--vpmu, exact): the features the
#    kernel patches code for (erms, fsrm, rep_good, smap, pcid), the
#    mitigations it chose for spectre_v2, retbleed, SRSO and meltdown
#    (/sys/devices/system/cpu/vulnerabilities), and the instructions per
#    op of kmalloc and get_free_pages, 64 B and 4 KiB, GFP_ATOMIC, IRQs
#    off, single timing, pair frees (one boot a size): the setting in
#    which a count is exact and repeats;
#  - an A/A of ROUNDS (default 3) rounds without the plugin (`allocbench
#    vm -k KERNEL -k KERNEL`): the alloc median ns/op of kmalloc and
#    get_free_pages 4 KiB (batch timing, IRQs on, as `allocbench vm` times
#    by default), their median over the boots and range, the change the A/A could detect
#    (lib/vmab.c) and the seconds per boot.
# A model's features change what is measured: these rows rank the models
# for closeness and speed; they compare no kernels.
cd "$(dirname "$0")/.." || exit 1
k=${1:-6.1}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cnt="run --alloc=kmalloc,get_free_pages --gfp=atomic --timing=single --context=irq-off --free=pair --batch=16 --trials=50 --events=instructions --cpu=0"
ns="run --alloc=kmalloc,get_free_pages --size=4096 --trials=200 --cpu=0"
echo "# guest CPU models on $k: features and mitigations the kernel patched in, instructions per op (one --vpmu boot a size; $cnt --size=64 and 4096), alloc median ns/op (an A/A of $rounds rounds: $((2 * rounds)) boots; $ns)"
for m in ${MODELS:-default qemu64 EPYC EPYC-Rome Skylake-Client Icelake-Server max}; do
	f=$tmp/$m
	cm=--cpu-model=$m vc=$m
	[ "$m" = default ] && cm= vc=
	for s in 64 4096; do
		# shellcheck disable=SC2086 # cnt is a list of options
		./allocbench vm -q --vpmu $cm -k "$k" --json -o "$f.vpmu$s.json" -- $cnt --size=$s >/dev/null 2>"$f.err" ||
			echo "# cpu models: $m: the --vpmu boot of $s B failed: $(grep -v 'TCG doesn' "$f.err" | tail -n 1)" >&2
	done
	make -s vm-run KERNEL="$k" VM_CPU="$vc" CMD='grep -m1 "^flags" /proc/cpuinfo; cd /sys/devices/system/cpu/vulnerabilities && grep . meltdown spectre_v2 retbleed spec_rstack_overflow' >"$f.env" 2>/dev/null
	# shellcheck disable=SC2086 # ns is a list of options
	./allocbench vm -q $cm -k "$k" -k "$k" --rounds="$rounds" --json -o "$f.ns.json" -- $ns >/dev/null 2>"$f.err" ||
		echo "# cpu models: $m: the A/A failed: $(grep -v 'TCG doesn' "$f.err" | tail -n 1)" >&2
	python3 - "$m" "$f" <<'PY'
import json, statistics, sys
m, f = sys.argv[1], sys.argv[2]
def boots(path):
    try:
        return [b for b in json.load(open(path))["boots"] if b["status"] == "ok" and b.get("result")]
    except (OSError, ValueError, KeyError):
        return []
flags, mit = [], []
try:
    for line in open(f + ".env"):
        if line.startswith("flags"):
            have = line.split(":", 1)[1].split()
            flags = [("+" if x in have else "-") + x for x in ("erms", "fsrm", "rep_good", "smap", "pcid")]
        elif ":" in line and line.split(":", 1)[0] in ("meltdown", "spectre_v2", "retbleed", "spec_rstack_overflow"):
            k, v = line.strip().split(":", 1)
            mit.append("%s: %s" % (k, v.split(";")[0]))
except OSError:
    pass
print("# %s  %s" % (m, " ".join(flags) or "(no flags read)"))
for x in mit:
    print("#     %s" % x)
ins, crng = [], set()
for size in (64, 4096):
    for b in boots("%s.vpmu%d.json" % (f, size))[:1]:
        crng.add(b["result"].get("environment", {}).get("crng_ready"))
        for r in b["result"].get("results", []):
            v = [c.get("per_op") for c in r.get("counters", []) if c.get("event") == "instructions"]
            ins.append("%s %dB %s" % (r.get("strategy"), size, "%.2f" % v[0] if v and v[0] is not None else "n/a"))
print("#     instructions per op: %s (crng seeded: %s)" % (", ".join(ins) or "no --vpmu boot",
      "/".join(sorted(str(x) for x in crng)) or "?"))
det = {}
try:
    for c in json.load(open(f + ".ns.json"))["comparisons"]:
        for r in c["rows"]:
            if r["phase"] == "alloc":
                det[r["label"]] = r.get("detectable_pct")
except (OSError, ValueError, KeyError):
    pass
ns, secs = {}, []
for b in boots(f + ".ns.json"):
    secs.append(b.get("seconds", 0))
    for r in b["result"].get("results", []):
        try:
            ns.setdefault("%s %d B" % (r["strategy"], r["object_bytes"]), []).append(r["alloc"]["ns"]["median"])
        except (KeyError, TypeError):
            pass
for l, v in ns.items():
    print("#     %-20s alloc %7.1f ns/op [%.1f-%.1f over %d boots]%s" % (
        l, statistics.median(v), min(v), max(v), len(v),
        "  A/A detects %.1f%%" % det[l] if det.get(l) is not None else ""))
if secs:
    print("#     %.1f s per boot" % statistics.mean(secs))
PY
done
