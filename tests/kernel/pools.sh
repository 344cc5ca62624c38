#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# pools.sh - the allocators that keep memory of their own between calls
# (issue 43, items 2-4): percpu (__alloc_percpu_gfp()), mempool over
# kmalloc with its reserve, mempool_reserve (mempool_alloc_preallocated(),
# the reserve alone) and page_frag (page_frag_alloc()). On every kernel:
# each runs or is refused with the kernel's reason (status 2); nothing is
# outstanding after a run, the per-CPU memory comes back (/proc/meminfo
# Percpu, within what the chunk allocator keeps populated), a reserve
# that alone serves the allocations shows every one taken from it, and
# the rules the CLI checks first refuse with the option named. A few
# seconds a kernel. Sourced by guest.sh (focused and full), or run alone:
# make vm-run CMD='sh /ab/pools.sh'.
. "$(dirname "$0")/lib.sh"

pcpu_kb() { awk '/^Percpu:/ { print $2 }' /proc/meminfo; }
# outstanding objects the module reports (allocbench info)
held() { allocbench info 2>/dev/null | sed -n 's/.*outstanding[^0-9]*\([0-9]*\).*/\1/p' | head -n 1; }

# json FILE: the document on one line without blanks
json() { tr -d ' \n\t' <"$1"; }
# reserve FILE MIN: from_reserve of a mempool row whose min_nr is MIN
reserve() { json "$1" | sed -n "s/.*\"mempool\":{\"min_nr\":$2,\"from_reserve\":\([0-9]*\)[,}].*/\1/p"; }
# jnum FILE KEY: the first number after "KEY":
jnum() { json "$1" | grep -o "\"$2\":[0-9]*" | head -n 1 | cut -d: -f2; }

# Percpu (pages of populated chunks) may grow by a chunk the first run
# makes and keeps (mm/percpu.c keeps an empty chunk, and frees others
# from a kworker); a second run of the same shape must reuse it: it adds
# at most what the first added (the kworker that populates ahead may
# still be running when the first figure is read), not a chunk per run
p0=$(pcpu_kb)
pcpu_run() { allocbench run --wide --alloc=percpu --size=4096 --batch=64 --trials=10 --json >/tmp/pc.json 2>/tmp/pc.err; }
pcpu_run
rc=$?
p1=$(pcpu_kb)
pcpu_run
rc2=$?
p2=$(pcpu_kb)
h=$(held)
if [ "$rc" = 0 ] && [ "$rc2" = 0 ] && [ "${h:-1}" = 0 ] && [ "$(jnum /tmp/pc.json failed)" = 0 ] &&
	[ "$p2" -le $((p1 + (p1 > p0 ? p1 - p0 : 0) + 64)) ] && json /tmp/pc.json | grep -q '"source":"percpu"'; then
	ok "pools: percpu 64 x 4 KiB runs, nothing outstanding; Percpu $p0 kB, $p1 kB after a run, $p2 kB after another"
else
	notok "pools: percpu 64 x 4 KiB: status $rc, $rc2, outstanding '${h}', Percpu $p0 -> $p1 -> $p2 kB ($(head -c 300 /tmp/pc.err))"
fi
case $(uname -v) in
*PREEMPT_RT*)
	expect 2 "PREEMPT_RT" "pools: percpu with IRQs off refused on PREEMPT_RT" -- \
		allocbench run --wide --alloc=percpu --size=64 --gfp=nowait --context=irq-off --batch=8 --trials=5
	;;
*)
	expect 0 "percpu" "pools: percpu GFP_NOWAIT with IRQs off (pcpu_alloc()'s atomic case)" -- \
		allocbench run --wide --alloc=percpu --size=64 --gfp=nowait --context=irq-off --batch=8 --trials=5
	;;
esac
expect 2 "^allocbench: --align=8192: above a page" "pools: percpu --align above a page refused first" -- \
	allocbench run --wide --alloc=percpu --size=64 --align=8192
expect 2 "^allocbench: --batch=32: above mempool's reserve of 8" "pools: a sleeping mempool holding more than its reserve refused first" -- \
	allocbench run --wide --alloc=mempool --size=64 --batch=32 --pool-min=8

allocbench run --wide --alloc=mempool --size=256 --batch=16 --pool-min=16 --trials=10 --json >/tmp/mp.json 2>/tmp/mp.err
rc=$?
fr=$(reserve /tmp/mp.json 16)
if [ "$rc" = 0 ] && [ -n "$fr" ] && [ "$fr" -le "$(jnum /tmp/mp.json objects)" ] && [ "$(held)" = 0 ]; then
	ok "pools: mempool 16 x 256 B, reserve 16: runs, $fr taken from the reserve, nothing outstanding"
else
	notok "pools: mempool: status $rc, from_reserve '$fr' ($(head -c 300 /tmp/mp.err))"
fi
expect 0 "taken from the reserve of 4" "pools: mempool GFP_NOWAIT holding more than its reserve runs, and says what it took" -- \
	allocbench run --wide --alloc=mempool --size=64 --batch=32 --pool-min=4 --gfp=nowait --trials=5

# the reserve used where the allocator fails: kmalloc(64 KiB) is an
# order-4 block, and in memory fragmented down to order 3 (no free block
# above it in the zone, restored before each trial) GFP_NOWAIT neither
# compacts nor reclaims, so mempool_alloc() falls back to the reserve
# (6.1: 4 of each trial's 8 came from it)
allocbench run --wide --alloc=mempool --size=64K --gfp=nowait --pool-min=4 --batch=8 \
	--condition=fragmented --frag-order=3 --trials=3 --json >/tmp/mc.json 2>/tmp/mc.err
rc=$?
fr=$(reserve /tmp/mc.json 4)
if [ "$rc" = 0 ] && [ -n "$fr" ] && [ "$fr" -ge 1 ] && [ "$fr" -le 12 ] && [ "$(held)" = 0 ]; then
	ok "pools: mempool in fragmented memory (order 4, GFP_NOWAIT): $fr of $(jnum /tmp/mc.json objects) allocations from the reserve of 4, nothing outstanding"
else
	notok "pools: mempool in fragmented memory: status $rc, from_reserve '$fr' ($(head -c 300 /tmp/mc.err))"
fi

if allocbench run --wide --alloc=mempool_reserve --size=128 --batch=8 --pool-min=8 --trials=10 --json >/tmp/mr.json 2>/tmp/mr.err; then
	fr=$(reserve /tmp/mr.json 8)
	n=$(jnum /tmp/mr.json objects)
	if [ -n "$fr" ] && [ "$fr" = "$n" ] && [ "$n" -gt 0 ] && [ "$(held)" = 0 ]; then
		ok "pools: mempool_reserve: every allocation taken from the reserve ($fr of $n), nothing outstanding"
	else
		notok "pools: mempool_reserve: from_reserve '$fr' of $n objects"
	fi
elif grep -q "^allocbench: --alloc=mempool_reserve: not available on this kernel (.*not here: not in mempool.h)" /tmp/mr.err &&
	allocbench list | grep -q "mempool_reserve .*not here: not in mempool.h"; then
	ok "pools: mempool_reserve refused with the kernel's reason, and listed with it ($(uname -r))"
else
	notok "pools: mempool_reserve neither ran nor was refused with its reason ($(head -c 300 /tmp/mr.err))"
fi

m0=$(awk '/^MemFree:/ { print $2 }' /proc/meminfo)
allocbench run --wide --alloc=page_frag --size=512 --batch=256 --trials=10 --json >/tmp/pf.json 2>/tmp/pf.txt
rc=$?
m1=$(awk '/^MemFree:/ { print $2 }' /proc/meminfo)
if [ "$rc" = 0 ] && [ "$(held)" = 0 ] && [ "$m1" -ge $((m0 - 8 * 1024)) ] &&
	grep -q "page_frag_alloc() (_*page_frag_alloc_align())" /tmp/pf.json; then
	ok "pools: page_frag 256 x 512 B runs, nothing outstanding, MemFree $m0 kB before, $m1 kB after; $(grep -o "(_*page_frag_alloc_align())" /tmp/pf.json | head -n 1) runs"
else
	notok "pools: page_frag: status $rc, MemFree $m0 -> $m1 kB ($(head -c 400 /tmp/pf.txt))"
fi
