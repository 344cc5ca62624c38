#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-noise.sh [KERNEL] [ROUNDS] [REPEATS] - figures, never pass/fail (make
# bench, on the host): which boot-to-boot variance sources of the guest
# can be removed, and what removing each buys for ns/op. For each setting
# below, REPEATS (default 2) A/A runs of `allocbench vm -k KERNEL -k KERNEL
# --rounds=ROUNDS` (default 6.1, 5 rounds) time kmalloc and get_free_pages
# 4 KiB on CPU 0 (alloc and free: 4 phase tests a run) and print the
# detectable change (power 0.8, alpha 0.05, lib/vmab.c) of every test, its
# median and the seconds per boot. What each setting changes about the
# kernel under test:
#  - default: bzImage, KASLR on (a random physical and virtual base each
#    boot, so the guest's code lands at new addresses: TCG's translated
#    code and its hash table too);
#  - nokaslr: one kernel layout for every boot; nothing else changes;
#  - pvh: the ELF image through its PVH entry: no decompressor, no KASLR;
#  - shuffle=1: page_alloc.shuffle=1 randomises the buddy free lists at
#    boot (mm/shuffle.c; off unless asked for or the firmware reports a
#    memory-side cache, so =0 is the default already);
#  - mem 512, 4096: the guest's memory (zone sizes, so per-CPU page list
#    high marks and the watermarks, mm/page_alloc.c);
#  - cpu EPYC: another CPU model (changes the code the kernel patches in:
#    alternatives, so it changes what is measured; shown for its noise);
#  - smp1: one vCPU instead of two: nothing else runs between the timed
#    reads (single-threaded TCG runs the vCPUs in turn, so a second one's
#    timer ticks and kworkers land inside the phases; the CPU-spread
#    strategies, --free-cpu and --concurrent, need two).
# SETTINGS="default pvh ..." runs those alone.
cd "$(dirname "$0")/.." || exit 1
k=${1:-6.1}
rounds=${2:-5}
reps=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd="run --alloc=kmalloc,get_free_pages --size=4096 --cpu=0 --trials=200"
echo "# vm noise: A/A of $k, $rounds rounds, $reps runs a setting: $cmd"
printf '#   %-10s %-34s %8s %8s\n' setting "detectable change of each test" median "s/boot"
while read -r name opts; do
	case " ${SETTINGS:-$name} " in
	*" $name "*) ;;
	*) continue ;;
	esac
	r=1
	while [ "$r" -le "$reps" ]; do
		# shellcheck disable=SC2086 # opts is a list of options
		./allocbench vm -q -k "$k" -k "$k" --rounds="$rounds" $opts --json -o "$tmp/$name.$r.json" -- $cmd ||
			echo "# vm noise: $name run $r failed (status $?)" >&2
		python3 - "$tmp/$name.$r.json" "$name" <<'PY'
import json, statistics, sys
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
det = [r["detectable_pct"] for r in d["comparisons"][0]["rows"]
       if r.get("detectable_pct") is not None]
secs = [b["seconds"] for b in d["boots"] if b["status"] == "ok"]
if det:
    print("#   %-10s %-34s %7.1f%% %8.1f" % (sys.argv[2], " ".join("%.1f%%" % x for x in det),
          statistics.median(det), statistics.mean(secs)))
PY
		r=$((r + 1))
	done
done <<'EOF'
default
nokaslr --append=nokaslr
pvh --pvh
shuffle=1 --append=page_alloc.shuffle=1
mem512 --mem=512
mem4096 --mem=4096
pvh+mem512 --pvh --mem=512
cpu-EPYC --cpu-model=EPYC
smp1 --smp=1
pvh+smp1 --pvh --smp=1
EOF
