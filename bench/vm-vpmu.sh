#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-vpmu.sh [KERNEL] - figures about the virtual PMU, never pass/fail (make
# bench, on the host):
#  - the cost per counting mode, per strategy row: the wall time of one
#    boot (PVH entry) that runs the row's command without the plugin, with
#    VPMU=exact and with VPMU=model, each over the first (the goal: exact
#    at most 2x); the A/A table below repeats the exact ratio per row;
#  - two A/As of KERNEL (default 6.1) against itself with `allocbench vm
#    --vpmu --pvh` at the default rounds: the detectable change per row and
#    phase for ns/op, and per row for instructions per op, side by side.
#    The first times 4 KiB batches with IRQs on, whose counts move with
#    the slab and page state each boot left (and with the ticks kept out);
#    the second times single 64 B GFP_ATOMIC pairs with IRQs off, the
#    setting in which a count is exact and repeats.
cd "$(dirname "$0")/.." || exit 1
k=${1:-6.1}
d=build/vm/$(printf '%s' "$k" | tr -c 'A-Za-z0-9._-' '_')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s vm-image KERNEL="$k" vpmu >/dev/null || exit 1
[ -e "$d/vmlinux.pvh" ] || sh scripts/vm/pvh-image.sh "$(cat "$d/kernel-dir")" "$d/vmlinux.pvh" || exit 1
rows="kmalloc get_free_pages"
echo "# virtual PMU: wall time of one boot of $k (PVH entry) per row, running: allocbench run --alloc=ROW --size=4096 --trials=200 --cpu=0 --events=instructions (load $(cut -d' ' -f1-3 /proc/loadavg))"
for row in $rows; do
	cmd="allocbench run --alloc=$row --size=4096 --trials=200 --cpu=0 --events=instructions"
	base=
	line=
	for mode in off exact model; do
		t0=$(date +%s.%N)
		VPMU=$mode VM_IMAGE=$d/vmlinux.pvh sh scripts/vm/vm-run.sh "$(cat "$d/kernel-dir")" "$d/initrd.gz" "$cmd" >/dev/null 2>&1 ||
			echo "# vpmu: the boot of $row with VPMU=$mode failed" >&2
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc)
		[ -n "$base" ] || base=$t
		r=$(echo "$t / $base" | bc -l)
		[ "$mode" = exact ] && printf '%s %.2f\n' "$row" "$r" >>"$tmp/cost"
		line="$line$(printf '  %s %6.1f s %5.2fx' "$mode" "$t" "$r")"
	done
	printf '#   %-16s%s\n' "$row" "$line"
done
aa() {
	./allocbench vm -q --vpmu --pvh -k "$k" -k "$k" --json -o "$tmp/aa.json" -- "$@" ||
		echo "# vpmu: FAILED: the A/A run of $* (status $?)" | tee /dev/stderr
	python3 - "$tmp/aa.json" "$k" "$*" "$tmp/cost" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("# vpmu: FAILED: the A/A of %s left no document (%s)" % (sys.argv[3], e))
    sys.exit(0)
# a step that did not run says so, with each failed boot's reason
bad = [b for b in doc["boots"] if b["status"] != "ok"]
if bad or not doc["comparisons"]:
    print("# vpmu: FAILED: the A/A of %s: %d of %d boots failed%s" % (
        sys.argv[3], len(bad), len(doc["boots"]),
        "".join("; boot %d: %s (exit %s)" % (b["boot"], b["status"], b["exit"]) for b in bad[:3])))
    if not doc["comparisons"]:
        sys.exit(0)
print("# A/A of %s with --vpmu --pvh, %d rounds: the change the boots could detect" % (sys.argv[2], doc["rounds"]))
print("#   %s" % sys.argv[3])
# the exact mode's cost per strategy row (measured above, one boot each)
cost = {}
try:
    for line in open(sys.argv[4]):
        name, ratio = line.split()
        cost[name] = ratio + "x"
except OSError:
    pass
print("#   %-20s %-6s %14s %22s %14s" % ("row", "phase", "ns/op", "instructions per op", "cost (exact)"))
for cmp in doc["comparisons"]:
    for r in cmp["rows"]:
        ins = [c for c in r.get("counters", []) if c["event"] == "instructions"]
        i = "n/a"
        if ins:
            c = ins[0]
            i = "identical" if c.get("identical") else (
                "%.2f%%" % c["detectable_pct"] if c.get("detectable_pct") is not None else "n/a")
        ns = "%.1f%%" % r["detectable_pct"] if r.get("detectable_pct") is not None else "n/a"
        name = r["label"].split()[0] if r["label"] else ""
        print("#   %-20s %-6s %14s %22s %14s" % (r["label"], r["phase"], ns, i, cost.get(name, "n/a")))
PY
	rm -f "$tmp/aa.json"
}
aa run --alloc=kmalloc,get_free_pages --size=4096 --cpu=0 --trials=200 --events=instructions
# with IRQs off a phase holds at most AB_IRQ_OFF_MAX_OBJS (32) objects:
# the default --batch=100 is refused
aa run --alloc=kmalloc,get_free_pages --size=64 --gfp=atomic --context=irq-off --timing=single \
	--free=pair --batch=16 --cpu=0 --trials=200 --events=instructions
