#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest.sh [SUITE] - the tests that run inside the embedded kernel (TAP
# lines): the raw-ioctl suite, the CLI against the real module, rmmod at
# the end. The host (tests/run-all.sh) counts the lines;
# scripts/vm/vm-run.sh fails the run if the kernel log reports a WARN, BUG,
# Oops or soft lockup.
#
# SUITE picks the tests (make check runs each test on one kernel at least):
#   full     every test (the default; make check: the first kernel, 6.1,
#            one node)
#   focused  what differs by kernel (make check: every other kernel, one
#            node): the ioctl suite (but for the atomic limit's
#            accounting) and every strategy (the kernel's own allocator
#            APIs), slab merging as sysfs shows it, the limits
#            the module takes from the kernel, environment warnings, the
#            kernel's size classes (lookups), kprobes and tracepoints and
#            --explain (explain.sh; function names and SLUB's paths differ: PREEMPT_RT
#            has no lockless fast path), memory per object (slab
#            geometry), memcg accounting (memcg.sh: its functions
#            differ), concurrent runs and remote frees, SIGINT and CPU
#            hotplug mid-run (locking: PREEMPT_RT's sleeping locks),
#            --isolate (cgroup v2 only on 6.12, no legacy cpuset), rt.sh,
#            vmalloc_huge, kmem_buckets and cma (bigalloc.sh: offered or
#            refused by kernel), the fuzzer, the bench scripts' commands
#            (benchcmds.sh), rmmod
#   numa     what depends on the NUMA shape (make check: the first kernel
#            with two nodes): the ioctl suite (its node tests; but for the
#            atomic limit's accounting), placement,
#            remote frees, node checks, sweeps over every node pair
# Each block below says which suites run it ("if in_suite ..."); a new
# test goes into the block whose suites it needs, and a test that differs
# by kernel into a block with focused.
cd /ab || exit 1

. "$(dirname "$0")/lib.sh"

suite=${1:-full}
case $suite in
full | focused | numa) ;;
*)
	notok "guest.sh: SUITE '$suite': allowed full, focused and numa"
	exit 0
	;;
esac
# in_suite SUITE...: whether this run's suite is one of them
in_suite() {
	for want_suite; do
		[ "$want_suite" = "$suite" ] && return 0
	done
	return 1
}

# test_atomic_gfp_capped (the module's own accounting of atomic bytes, the
# same on every kernel and NUMA shape; ~130 of the suite's 227 s in a 6.12
# boot on a loaded host) in the full suite only
skip=
in_suite full || skip=test_atomic_gfp_capped
[ -z "$skip" ] || echo "# ioctl suite without $skip (the full suite runs it)"
AB_IOCTL_SKIP=$skip CMOCKA_MESSAGE_OUTPUT=TAP ./ioctl_test
part_time "ioctl suite"
nodes=$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)
# the same suite from a 32-bit process, through the kernel's compat ioctl
# path (its tests named "i386 ..."), in the full suite's one-node boot: the
# compat path is the module's own handler, the same on every kernel, and
# does not depend on the NUMA shape (it cost each kernel's boot as much as
# the 64-bit suite: ~210 of 680 s of a 6.12 focused boot on a loaded host)
# The tests that weigh the module's behaviour once a request is in (each
# strategy's sizes, the budget's edges, cache merging and its races,
# failed allocations, disturbed trials: together about 60% of the suite's
# time) are left out there: the 64-bit suite runs them through the same
# handler after the copy-in; every test of the requests' fields, pointers
# and refusals runs. A suite that cannot start (no 32-bit loader or
# library in the image: status 126 or 127) fails.
skip32=test_every_strategy_every_size,test_budget_one_rule,test_cache_merged_during_run
skip32=$skip32,test_caches_created_and_destroyed_at_once,test_failed_allocations_end_trials,test_disturbed_counted
if [ "$nodes" = 1 ] && in_suite full; then
	AB_IOCTL_SKIP=$skip32 CMOCKA_MESSAGE_OUTPUT=TAP ./ioctl_test32
	rc=$?
	[ "$rc" -lt 126 ] || notok "ioctl suite (i386): ./ioctl_test32 did not start (status $rc)"
	part_time "ioctl suite (i386)"
fi

echo "# guest: $(uname -r), $nodes NUMA node(s), $(grep -c ^processor /proc/cpuinfo) CPUs, suite $suite"

if in_suite full focused; then # ---- strategies, slab merging: full, focused ----

expect 0 "kmalloc " "cli: the first command runs" -- \
	allocbench run --wide --alloc=kmalloc --size=4096 --trials=50
expect 0 "vmalloc_batch" "cli: every strategy runs" -- \
	allocbench run --wide --alloc=none,get_free_pages,alloc_pages_node,kmalloc,kmalloc_node,kmem_cache,kmem_cache_node,vmalloc_node,vmalloc_batch,kvmalloc_node --size=4K --trials=20 --batch=10
expect 0 "alloc_pages_bulk" "cli: the bulk strategies run, batch and single timing" -- \
	sh -c 'allocbench run --wide --alloc=kmem_cache_bulk,kfree_bulk,alloc_pages_bulk --size=4K --batch=16 --trials=20 &&
		allocbench run --wide --alloc=kmem_cache_bulk,kfree_bulk,alloc_pages_bulk --size=4K --batch=16 --trials=20 --timing=single --free=shuffle'
expect 0 "16x4K" "cli: a bulk strategy's object is the batch of objects" -- \
	allocbench run --wide --alloc=kmem_cache_bulk --size=4K --batch=16 --trials=5
# GFP flags only where they apply (ab_strategy_gfp_name()): kmalloc_nolock()
# (7.2+) takes none, so its text, CSV and JSON never say GFP_KERNEL
if allocbench run --alloc=kmalloc,kmalloc_nolock --size=64 --trials=5 --csv >/tmp/nl.csv 2>/tmp/nl.err; then
	allocbench run --wide --alloc=kmalloc,kmalloc_nolock --size=64 --trials=5 >/tmp/nl.txt 2>&1
	allocbench run --alloc=kmalloc_nolock --size=64 --trials=5 --json >/tmp/nl.json 2>&1
	if grep -q ", GFP_KERNEL (kmalloc_nolock: no GFP flags)," /tmp/nl.txt &&
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == "kmalloc" && $col["gfp"] == "GFP_KERNEL" { k++ }
		$1 == "kmalloc_nolock" && $col["gfp"] == "" { n++ }
		END { exit !(k == 1 && n == 1) }' /tmp/nl.csv &&
		grep -q '"gfp":null' /tmp/nl.json && ! grep -q '"gfp":"' /tmp/nl.json; then
		ok "cli: kmalloc_nolock takes no GFP flags: text, CSV (empty) and JSON (null) say so"
	else
		notok "cli: kmalloc_nolock's GFP flags ($(grep -h -i gfp /tmp/nl.txt /tmp/nl.json | head -c 300))"
	fi
elif grep -q "kmalloc_nolock: not available on this kernel" /tmp/nl.err; then
	ok "cli: kmalloc_nolock's GFP flags # SKIP kmalloc_nolock() is not in this kernel"
else
	notok "cli: kmalloc,kmalloc_nolock did not run ($(head -c 300 /tmp/nl.err))"
fi
# every object of a bulk call is counted and freed: in 7.x
# kmem_cache_alloc_bulk() returns a bool, which taken as a count freed one
# object a batch and leaked the others unseen into a merged cache; an
# unmerged one (--nomerge) makes kmem_cache_destroy() report any leak in
# the kernel log, which fails this boot
allocbench run --alloc=kmem_cache_bulk --nomerge --size=4K --batch=16 --trials=5 --csv >/tmp/kb.csv 2>&1
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "kmem_cache_bulk" { n++; if ($col["failed"] != 0 || $col["objects"] % 16 || $col["objects"] < 80) bad = 1 }
	END { exit !(n == 1 && !bad) }' /tmp/kb.csv; then
	ok "cli: kmem_cache_bulk --nomerge: no failed trial, every batch whole (16 objects a call)"
else
	notok "cli: kmem_cache_bulk --nomerge: failed trials or partial batches ($(head -c 300 /tmp/kb.csv))"
fi
# issue 24, the RCU frees: memory handed to kvfree_rcu() comes back between
# trials, so no run piles it up (with each trial's own free pages as the
# reference, 6.1 and 7.3, whose rcu_barrier() does not wait for kfree_rcu's
# batches, left 4 trials of 32 MiB pending and ran a 256 MiB guest out of
# memory); after the run at most one trial's worth is still out
free_kb() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
f0=$(free_kb)
allocbench run --wide --alloc=kvfree_rcu --size=8M --batch=4 --trials=2 -q >/tmp/kvr.txt 2>&1
rc=$?
f1=$(free_kb)
if [ "$rc" = 0 ] && [ "$f1" -ge $((f0 - 48 * 1024)) ] && grep -q "then for the free pages to come back" /tmp/kvr.txt; then
	ok "cli: kvfree_rcu 4 x 8 MiB, 2 trials: memory back between trials ($f0 kB free before, $f1 kB after)"
else
	notok "cli: kvfree_rcu memory back between trials: status $rc, $f0 kB free before, $f1 kB after ($(head -c 300 /tmp/kvr.txt))"
fi
expect 2 "needs objects of at least 16 bytes" "cli: kfree_rcu --size=8 refused: no room for the RCU head" -- \
	allocbench run --wide --alloc=kfree_rcu --size=8
# (on PREEMPT_RT every atomic context is refused first, for its own reason)
case $(uname -v) in
*PREEMPT_RT*) why="PREEMPT_RT" ;;
*) why="IRQs off around an API that enables them" ;;
esac
expect 2 "$why" "cli: kmem_cache_bulk refuses --context=irq-off" -- \
	allocbench run --wide --alloc=kmem_cache_bulk --gfp=atomic --context=irq-off --trials=5
expect 0 "cache of its own" "cli: --nomerge gives an unmerged cache" -- \
	allocbench run --wide --alloc=kmem_cache --nomerge --trials=5
# the CLI reads /sys/kernel/slab itself (the module opens no files): 4096
# bytes merge into an existing cache (:0004096, biovec-max), 2728 bytes
# have no cache within SLUB's merge distance
expect 0 "merged the run's kmem_cache into an existing cache" "cli: a merged cache is told from sysfs" -- \
	allocbench run --wide --alloc=kmem_cache --size=4096 --trials=5
expect 0 "cache of its own (not merged)" "cli: a mergeable cache of its own is told from sysfs" -- \
	allocbench run --wide --alloc=kmem_cache --size=2728 --trials=5
fi # ---- end: full, focused ----
part_time "strategies, slab merging"

if in_suite full; then # ---- the CLI's own checks: full ----
# a SIGKILLed run cannot remove its kprobe event (no atexit): the next run
# that defines one removes those of processes that are gone (an event of
# pid 4194000, above this guest's pid_max, stands for one)
kpe=/sys/kernel/tracing/kprobe_events
if echo 'p:allocbench/p0_4194000 ___slab_alloc' >>$kpe 2>/dev/null; then
	allocbench run --wide --alloc=kmalloc --size=64 --explain --trials=20 -q >/dev/null 2>&1
	if ! grep -q 'allocbench/' $kpe; then
		ok "cli: --explain removes a dead run's kprobe event, and leaves none of its own"
	else
		notok "cli: a dead run's kprobe event ($(grep allocbench/ $kpe))"
	fi
else
	ok "cli: a dead run's kprobe event # SKIP no writable $kpe"
fi
expect 0 "order 2" "cli: --order for the page allocator" -- \
	allocbench run --wide --alloc=get_free_pages --order=2 --trials=5
expect 2 "^allocbench: --order=3: kmalloc takes no page order" "cli: --order refused for kmalloc (it ran 2^3 pages)" -- \
	allocbench run --wide --alloc=kmalloc --order=3 --trials=5
expect 0 "kmalloc_node" "cli: --gfp=atomic and --node=0" -- \
	allocbench run --wide --alloc=kmalloc_node --gfp=atomic --node=0 --cpu=0 --trials=5
expect 0 "strategy" "cli: list" -- allocbench list
expect 0 "max batch" "cli: info" -- allocbench info
expect 2 "--size=0" "cli: --size=0 rejected" -- allocbench run --wide --size=0
expect 2 "--size=abc" "cli: --size=abc rejected" -- allocbench run --wide --size=abc
expect 2 "--alloc=nosuch: unknown strategy" "cli: --alloc=nosuch rejected" -- \
	allocbench run --wide --alloc=nosuch
expect 2 "--node=7: there is no node 7" "cli: --node=7 rejected" -- \
	allocbench run --wide --alloc=kmalloc_node --node=7
expect 2 "--trials=-1" "cli: --trials=-1 rejected" -- allocbench run --wide --trials=-1
expect 2 "--cpu=99: there is no CPU 99" "cli: --cpu=99 rejected" -- allocbench run --wide --cpu=99
expect 2 "largest object" "cli: --size above kmalloc's maximum rejected" -- \
	allocbench run --wide --alloc=kmalloc --size=1G
expect 2 "takes no GFP" "cli: --gfp on vmalloc_node rejected" -- \
	allocbench run --wide --alloc=vmalloc_node --gfp=atomic
expect 2 "--gfp=sometimes" "cli: unknown --gfp rejected" -- \
	allocbench run --wide --gfp=sometimes
expect 2 "limit" "cli: --batch above the module's limit rejected" -- \
	allocbench run --wide --batch=99999999
# lookup's passes against the module's max_trials, checked before asking
# (before: AB_IOC_LOOKUP failed with E2BIG, status 1)
expect 2 "above the module's limit of" "cli: lookup --trials above the module's limit rejected first" -- \
	allocbench lookup --trials=4294967295 --size=64
# a run refused because of the runs in progress (EBUSY) says what they
# held (ab_run.limit_others): 5 MiB of kmalloc(1M) under a budget of 8
# (--raw: no none baseline first, which holds nothing)
echo 8 >/sys/module/allocbench/parameters/max_outstanding_mb
# (the other run is asked until it is refused: its objects are held for
# a small part of each trial, so waiting for ab_info.outstanding to show
# them took 18 to 30 s of polling; a long run the asking refused before it
# began is started again)
long_run() {
	allocbench run --wide --alloc=kmalloc --size=1M --batch=5 --trials=1000000 --cpu=0 --raw -q >/dev/null 2>&1 &
	bg=$!
}
long_run
n=0
while [ $n -lt 50 ]; do
	out=$(allocbench run --wide --alloc=kmalloc --size=1M --batch=5 --trials=5 --cpu=1 -q 2>&1)
	case $out in *"with the runs in progress"*) break ;; esac
	kill -0 $bg 2>/dev/null || long_run
	sleep 0.1
	n=$((n + 1))
done
kill -INT $bg
wait $bg
echo 0 >/sys/module/allocbench/parameters/max_outstanding_mb
case $out in
*"with the runs in progress it would be above the memory budget (max_outstanding_mb): this run holds "*" bytes, the other runs in progress held "*", the limit over all runs at once is 8388608"*)
	ok "cli: a run refused for the runs in progress (EBUSY) says what they held" ;;
*) notok "cli: EBUSY and the other runs' share ($out)" ;;
esac
fi # ---- end: full ----
part_time "the CLI's own checks"

if in_suite full focused; then # ---- limits from the module and the kernel: full, focused ----
# The budget (max_outstanding_mb) counts what the allocator uses, in the CLI
# as in the module (issue 13, item 10): refused up front, status 2, naming it
expect 2 "--batch=65536: vmalloc_node would hold .*budget (module parameter max_outstanding_mb)" \
	"cli: vmalloc_node --size=1 --batch=65536 (a page each) refused up front against the budget" -- \
	allocbench run --wide --alloc=vmalloc_node --size=1 --batch=65536
budget=$(allocbench info | sed -n 's/^max bytes at once: \([0-9]*\) .*/\1/p')
n=$((budget / (4 << 20))) # kmalloc of 3 MiB takes the 4 MiB block of order 10
expect 2 "--batch=$((n + 1)): kmalloc would hold .*max_outstanding_mb" \
	"cli: kmalloc --size=3M --batch=$((n + 1)) (4 MiB blocks) refused up front against the budget" -- \
	allocbench run --wide --alloc=kmalloc --size=3M --batch=$((n + 1))
expect 0 "^kmalloc " "cli: kmalloc --size=3M --batch=$n, the most the budget holds, runs in the module too" -- \
	allocbench run --wide --alloc=kmalloc --size=3M --batch=$n --trials=2
expect 2 "--concurrent: kmalloc on 2 CPUs would hold .*max_outstanding_mb" \
	"cli: --concurrent counts the budget for every CPU" -- \
	allocbench run --wide --alloc=kmalloc --size=3M --batch=$n --trials=2 --cpu=0-1 --concurrent
# Issue 21: 16000 x 4 KiB with GFP_ATOMIC per CPU, 62.5 MiB, is under the
# 64 MiB atomic limit (AB_ATOMIC_MAX_BYTES) alone, and above it on two CPUs
# at once, which the module bounds together: refused up front (status 2,
# nothing run) in one line naming the atomic limit, the sum and the limit
# (before: CPU 1 refused at run time, only cpu0's row, status 1)
out=$(allocbench run --wide --alloc=kmalloc --size=4096 --gfp=atomic --batch=16000 --trials=5 --cpu=0,1 --concurrent 2>&1)
st=$?
if [ "$st" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	printf '%s\n' "$out" | grep -q "would hold $((2 * 16000 * 4096)) bytes at once with GFP_ATOMIC.*atomic limit of $((64 << 20)) bytes"; then
	ok "cli: --concurrent --gfp=atomic on 2 CPUs above the atomic limit together refused up front in one line with both figures"
else
	notok "cli: --concurrent --gfp=atomic above the atomic limit together (status $st: $(printf '%s' "$out" | head -c 400))"
fi
# Combinations that can never allocate are refused as not applicable (item 11)
for g in atomic nowait; do
	expect 2 "--gfp=$g: not applicable to kvmalloc_node --size=5M: without GFP_KERNEL there is no vmalloc fallback" \
		"cli: kvmalloc_node --size=5M --gfp=$g (above the largest kmalloc) refused as not applicable" -- \
		allocbench run --wide --alloc=kvmalloc_node --size=5M --gfp=$g
done
expect 0 "^kvmalloc_node " "cli: kvmalloc_node --size=5M with GFP_KERNEL falls back to vmalloc and runs" -- \
	allocbench run --wide --alloc=kvmalloc_node --size=5M --batch=2 --trials=2
fi # ---- end: full, focused ----
part_time "limits from the module and the kernel"

if in_suite full; then # ---- the CLI's own checks, methodology, outputs: full ----
# the module's largest --trials, one object each: ~1.3 GB of samples in the
# CLI (the baseline's too), more than a 1 GiB guest has: refused up front
expect 2 "more than the .* MiB available here (MemAvailable)" "cli: runs whose samples would not fit in memory refused before they start" -- \
	allocbench run --wide --trials=16777216 --batch=1

# methodology: timing modes, free patterns, contexts, outputs
expect 0 "free shuffle (seed 7)" "cli: --timing=single --free=shuffle --seed=7" -- \
	allocbench run --wide --alloc=kmalloc,get_free_pages --timing=single --free=shuffle --seed=7 --trials=20
expect 0 "minus one clock pair per op" "cli: single timing subtracts the clock pair" -- \
	allocbench run --wide --alloc=kmalloc --timing=single --trials=20
expect 0 "minus the none baseline" "cli: batch timing subtracts the none baseline" -- \
	allocbench run --wide --alloc=kmalloc --trials=20
expect 0 "values: raw" "cli: --raw" -- allocbench run --wide --alloc=kmalloc --trials=20 --raw
# (--context=irq-off and preempt-off with an atomic GFP: rt.sh, as PREEMPT_RT
# refuses them)
expect 2 "may sleep" "cli: --context=irq-off with GFP_KERNEL rejected" -- \
	allocbench run --wide --alloc=kmalloc --context=irq-off
expect 0 "alloc+free ns/op" "cli: --free=pair" -- allocbench run --wide --alloc=kmalloc --free=pair --trials=20
expect 0 "objects written after allocation" "cli: --write" -- \
	allocbench run --wide --alloc=kmalloc,vmalloc_node,alloc_pages_node --write --trials=20
expect 0 "SCHED_$(uname -v | grep -qw PREEMPT_RT && echo RR || echo FIFO) 1" "cli: --fifo" -- allocbench run --wide --alloc=kmalloc --fifo --trials=20
expect 0 "histogram: kmalloc alloc" "cli: --histogram" -- \
	allocbench run --wide --alloc=kmalloc --histogram --trials=50
expect 0 "95% CI of median" "cli: the distribution table" -- allocbench run --wide --trials=50
fi # ---- end: full ----
part_time "the CLI's own checks, methodology, outputs"

if in_suite full focused; then # ---- environment, the kernel's size classes: full, focused ----
expect 0 "warning: init_on_alloc=1" "cli: environment warnings in the header" -- \
	allocbench run --wide --trials=5
# scripts/vm/init waits for the crng's seed before the command (qemu64 has
# no RDRAND): until then every get_random_*() ran BLAKE2s inside the ops
expect 0 '"crng_ready": *true' "cli: the kernel's crng is seeded when a guest command runs" -- \
	allocbench run --alloc=kmalloc --trials=5 --json -q

# size-class lookups in the kernel
expect 0 "constant 4096" "cli: lookup in the kernel" -- allocbench lookup --trials=20
expect 0 "class sum" "cli: lookup --dist in the kernel" -- \
	allocbench lookup --wide --dist=loguniform:1-16K --count=500 --trials=10
printf '  x-1 [000] 1.0: kmalloc: call_site=a ptr=1 bytes_req=72 bytes_alloc=96 gfp_flags=GFP_KERNEL\n' >/tmp/trace.txt
expect 0 '"lookups_per_pass":1,' "cli: lookup --sizes-from an ftrace sample in the kernel" -- \
	allocbench lookup --sizes-from=/tmp/trace.txt --trials=10 --json
expect 0 "kmalloc_class" "cli: run kmalloc_class --lookup=bsr --table=2002" -- \
	allocbench run --wide --alloc=kmalloc_class --lookup=bsr --table=2002 --size=100 --trials=20
fi # ---- end: full, focused ----
part_time "environment, the kernel's size classes"

if in_suite full; then # ---- reproduce, software and hardware counters: full ----
expect 0 "seed's us" "cli: reproduce 2019-scatterlist" -- allocbench reproduce --wide 2019-scatterlist
expect 0 "part 2, the lookup alone" "cli: reproduce 2002-lookup" -- allocbench reproduce --wide 2002-lookup
# issue 42: each experiment's default text is one table (2002-lookup:
# part 1's; part 2, the lookup alone, is -v's and the JSON's) in the
# default text's shape (/ab/textshape.sh is tests/cli/shape.sh)
for e in "2019-scatterlist:^seed's row  *strategy " "2002-lookup:^size  *method "; do
	out=$(allocbench reproduce "${e%%:*}" 2>&1)
	bad=$(printf '%s\n' "$out" | sh /ab/textshape.sh)
	if [ -z "$bad" ] && [ "$(printf '%s\n' "$out" | grep -c "${e#*:}")" = 1 ] &&
		! printf '%s\n' "$out" | grep -q -e '^strategy ' -e '^constant 32 '; then
		ok "cli: reproduce ${e%%:*}: one table in the default text's shape (header <= 4 lines, <= 120 columns, notes <= 100)"
	else
		notok "cli: reproduce ${e%%:*}'s default text (${bad:-$(printf '%s\n' "$out" | grep -c "${e#*:}") tables}: $(printf '%s' "$out" | head -c 400))"
	fi
done
expect 2 "only kmalloc_class takes --lookup" "cli: --lookup on kmalloc rejected" -- \
	allocbench run --wide --alloc=kmalloc --lookup=walk

# counters: software events work as root, hardware ones take the no-PMU
# path, a non-root user the EACCES path; nothing aborts the run
expect 0 "task-clock" "cli: --events with software events" -- \
	allocbench run --wide --alloc=none,kmalloc --events=task-clock,page-faults,context-switches,cpu-migrations --trials=20
expect 0 "hardware counters are unavailable here" "cli: --events=cycles in a VM without a PMU" -- \
	allocbench run --wide --alloc=kmalloc --events=cycles,instructions --trials=20
expect 0 "event not found (libpfm4)" "cli: an unknown event is named, the run goes on" -- \
	allocbench run --wide --alloc=kmalloc --events=no-such-event --trials=20
fi # ---- end: full ----
part_time "reproduce, software and hardware counters"

if in_suite full focused; then # ---- kprobes and tracepoints: full, focused ----
# kprobe:FUNC and tracepoints SUBSYS:EVENT, in perf's spelling (issue 14,
# part 1): each __get_free_pages() call fires kmem:mm_page_alloc at least
# once; a function this kernel lacks is one line and the run goes on
allocbench run --wide --alloc=get_free_pages,kmalloc --size=4096 --trials=50 \
	--events=kmem:mm_page_alloc,kprobe:___slab_alloc,kprobe:no_such_function_xyz,kmem:no_such_event \
	>/tmp/kp.out 2>/tmp/kp.err
rc=$?
if [ $rc = 0 ] && grep -q "this kernel has no function no_such_function_xyz to probe" /tmp/kp.err &&
	grep -q "this kernel has no tracepoint no_such_event" /tmp/kp.err; then
	ok "cli: --events kprobe:FUNC and SUBSYS:EVENT: a missing function or tracepoint is one line, the run goes on"
else
	notok "cli: --events kprobe and tracepoints: missing ones named (exit $rc: $(head -c 300 /tmp/kp.err))"
fi
out=$(allocbench run --alloc=get_free_pages --trials=50 --events=kmem:mm_page_alloc,kprobe:___slab_alloc --json -q 2>&1)
gfp=$(printf '%s\n' "$out" | jfig counters kmem:mm_page_alloc get_free_pages)
if awk -v v="$gfp" 'BEGIN { exit !(v != "" && v + 0 >= 1) }'; then
	ok "cli: --events=kmem:mm_page_alloc: get_free_pages fires it at least once per op ($gfp)"
else
	notok "cli: --events=kmem:mm_page_alloc: get_free_pages per op '$gfp' ($(printf '%s' "$out" | jarray counters get_free_pages | head -c 400))"
fi
fi # ---- end: full, focused ----
part_time "kprobes and tracepoints"

if in_suite full numa; then # ---- the counting pass's node checks: full, numa ----
# the counts come from a separate counting pass (issue 14, part 3): the
# timed pass checks nodes as always, and the JSON says where counts are from
allocbench run --alloc=kmalloc_node --node=0 --events=task-clock --trials=20 --csv >/tmp/cp.csv 2>&1
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "kmalloc_node" { n++; if ($col["node_checked"] + 0 <= 0 || $col["node_hits"] != $col["node_checked"]) bad = 1 }
	END { exit !(n == 1 && !bad) }' /tmp/cp.csv &&
	allocbench run --alloc=kmalloc --events=task-clock --trials=10 --json 2>/dev/null | tr -d ' \n' | grep -q '"counting_pass":true'; then
	ok "cli: --events counts in a separate pass: the timed pass checks nodes, the JSON says counting_pass"
else
	notok "cli: --events counting pass ($(head -c 300 /tmp/cp.csv))"
fi
fi # ---- end: full, numa ----
part_time "the counting pass's node checks"

if in_suite full focused; then # ---- --explain, memory per object: full, focused ----
# --explain (issue 14, parts 2 and 8): the allocator's own paths per op
# on this kernel: tests/kernel/explain.sh
. "$(dirname "$0")/explain.sh"
# memory per object (issue 14, part 7; issue 21, part 2): what the kernel
# states one object takes, at every batch, text and JSON, and the user
# backend's missing memory line: tests/kernel/objmem.sh
. "$(dirname "$0")/objmem.sh"
part_time objmem.sh
# memory conditions (issue 25): tests/kernel/condition.sh
. "$(dirname "$0")/condition.sh"
part_time condition.sh
# memory cgroup accounting (issue 43): tests/kernel/memcg.sh
. "$(dirname "$0")/memcg.sh"
part_time memcg.sh
# per-CPU memory, mempools, page_frag (issue 43): tests/kernel/pools.sh
. "$(dirname "$0")/pools.sh"
part_time pools.sh
# vmalloc_huge, kmem_buckets and cma (issue 43, items 5-7), offered or
# refused with the reason: tests/kernel/bigalloc.sh
. "$(dirname "$0")/bigalloc.sh"
part_time bigalloc.sh
fi # ---- end: full, focused ----
part_time "--explain, memory per object"

if in_suite full; then # ---- the user backend, events, compare: full ----
expect 2 "the user backend runs none" "cli: --explain with the user backend refused" -- \
	allocbench run --wide --backend=user --alloc=malloc --explain --trials=5
expect 0 "counters per op" "cli: --events alone uses the default set" -- \
	allocbench run --wide --alloc=kmalloc --events --trials=20
expect 0 "perf_event_paranoid is" "cli: a non-root user gets the EACCES explanation" -- \
	su -s /bin/sh nobody -c "allocbench lookup --backend=user --events=task-clock --trials=5 --size=8"
# (the software events alone: the guest CPU model's ~1400 events took
# most of a minute under load; tests/cli/conventions.sh lists whole tables)
expect 0 "PERF_COUNT_SW_TASK_CLOCK.*opens" "cli: list events marks what opens" -- allocbench list events 'perf::PERF_COUNT_SW_*'
expect 0 "events per lookup" "cli: lookup --events" -- \
	allocbench lookup --events=task-clock --trials=10 --size=64
expect 0 "test: Wilcoxon signed-rank" "cli: compare two strategies" -- \
	allocbench compare --wide --alloc=kmalloc,kmem_cache --trials=50
# compare in rounds (issue 13, item 23): invariants of the JSON only
allocbench compare --alloc=kmalloc,kmalloc --trials=70 --rounds=7 --cpu=0 --json -q >/tmp/rounds.json 2>/tmp/rounds.err
rc=$?
awk -v rc=$rc -F'[:,]' '
	function num(s) { gsub(/[^0-9eE.+-]/, "", s); return s + 0 }
	/"per_round":/ { in_rounds = 1 }
	/"phases":/ { in_rounds = 0 }
	in_rounds && /"round":/ { nround++ }
	/"rounds":/ { nr++; if (num($2) != 7) bad = bad " rounds=" $2 }
	/"test":/ { nt++; if ($2 !~ /"wilcoxon-signed-rank"/) bad = bad " test=" $2 }
	/"ratio":/ { r = num($2) }
	/"ratio_ci_lo":/ { lo = num($2) }
	/"ratio_ci_hi":/ { hi = num($2); if (!(lo <= r && r <= hi)) bad = bad " ratio " r " outside [" lo ", " hi "]" }
	/"p":/ { np++; p = num($2); if (!(p >= 0 && p <= 1)) bad = bad " p=" $2 }
	END {
		if (rc != 0) bad = bad " exit " rc
		if (nround != 7) bad = bad " " nround " per-round entries"
		if (nr != 3 || nt != 2 || np != 2) bad = bad " " nr " rounds, " nt " tests, " np " p keys"
		if (bad == "") print "ok - cli: compare --rounds=7: the JSON names the test, 7 rounds, p in [0, 1], B / A inside its interval"
		else print "not ok - cli: compare --rounds=7:" bad
	}' /tmp/rounds.json
expect 2 "--rounds=6: give a whole number from 7" "cli: compare --rounds below 7 rejected (6 rounds could not reject after Holm's adjustment)" -- \
	allocbench compare --wide --alloc=kmalloc,kmalloc --rounds=6
expect 2 "each round needs at least one trial" "cli: compare with fewer trials than rounds rejected" -- \
	allocbench compare --wide --alloc=kmalloc,kmalloc --rounds=20 --trials=10
expect 0 "why: no hardware counter opened" "cli: compare --events without a PMU" -- \
	allocbench compare --wide --alloc=kmalloc,get_free_pages --trials=50 --events
expect 2 "compare takes two" "cli: compare with one strategy rejected" -- \
	allocbench compare --wide --alloc=kmalloc
allocbench run --alloc=kmalloc,kmem_cache --trials=50 --json -o /tmp/old.json -q
allocbench run --alloc=kmalloc,kmem_cache --trials=50 --json -o /tmp/new.json -q
expect 0 "kmem_cache .*: old (A) against new (B)" "cli: compare two saved results" -- \
	allocbench compare --wide /tmp/old.json /tmp/new.json
expect 0 '"verdict": *"cannot conclude: one run per side"' "cli: compare of one saved run per side: the ratio, no verdict" -- \
	allocbench compare /tmp/old.json /tmp/new.json --json
expect 2 "give two saved results" "cli: --rounds is not for saved results" -- \
	allocbench compare --wide /tmp/old.json /tmp/new.json --rounds=8
echo "not json" >/tmp/bad.json
expect 4 "bad.json: not JSON" "cli: compare with a file that is not JSON (status 4, naming it)" -- \
	allocbench compare --wide /tmp/old.json /tmp/bad.json
expect 2 "give two saved results" "cli: compare with one file" -- allocbench compare --wide /tmp/old.json

fi # ---- end: full ----
part_time "the user backend, events, compare"

if in_suite full focused numa; then # ---- concurrent runs, remote frees: full, focused, numa ----
# placement: topology, concurrent runs, remote frees, bad placements
expect 0 "distances" "cli: topology" -- allocbench topology
expect 0 "aggregate: kmalloc on 2 CPUs at once" "cli: --concurrent on two CPUs" -- \
	allocbench run --wide --alloc=kmalloc,vmalloc_node --cpu=0-1 --concurrent --trials=50 -q
expect 0 "every object was freed in a work item queued on CPU 1" "cli: --free-cpu frees on another CPU" -- \
	allocbench run --wide --alloc=kmalloc,get_free_pages,vmalloc_node,kmem_cache --cpu=0 --free-cpu=1 --trials=50 -q
# issue 39.3: with --free-cpu the counters (this thread's) count the
# allocation alone, and --explain prints no figure for the frees it never
# saw (before: "one allocation and its free", "0.00 slow free")
out=$(allocbench run --wide --alloc=kmalloc --cpu=0 --free-cpu=1 --explain --trials=20 2>&1)
if printf '%s\n' "$out" | grep -q "^counters per op (one allocation: its free ran on CPU 1, which this thread's counters leave out" &&
	printf '%s\n' "$out" | grep -q "^note: explain: .*slow free.*: left out (n/a): paths of the free phase, which ran on CPU 1" &&
	! printf '%s\n' "$out" | grep "^kmalloc:" | grep -q "slow free"; then
	ok "cli: --free-cpu: the counters' heading and --explain leave the frees on CPU 1 out"
else
	notok "cli: --free-cpu: heading or explain ($(printf '%s' "$out" | grep -E '^(counters per op|kmalloc:|note: explain)' | head -c 400))"
fi
# (a bound, not a measured difference: the run asks for hours of trials,
# so ending within 10 s is SIGINT's doing, on a busy host too). With
# --fifo its threads hold both CPUs at an RT priority: the signal must
# reach them, not wait for the main thread (before: past 10 minutes on
# 6.12)
for f in "" --fifo; do
	allocbench run --wide --alloc=kmalloc --size=64 --batch=2000 --cpu=0-1 --concurrent --raw --trials=1000000 -q $f >/tmp/conc.out 2>&1 &
	pid=$!
	sleep 1
	kill -INT $pid 2>/dev/null
	t0=$(cut -d. -f1 /proc/uptime)
	wait $pid
	st=$?
	t1=$(cut -d. -f1 /proc/uptime)
	if [ "$st" = 130 ] && [ $((t1 - t0)) -le 10 ]; then
		ok "cli: SIGINT ends a --concurrent${f:+ $f} run on every CPU"
	else
		notok "cli: SIGINT ends a --concurrent${f:+ $f} run (status $st after $((t1 - t0)) s: $(head -c 300 /tmp/conc.out))"
	fi
done
expect 0 "outstanding:       0 objects" "cli: nothing outstanding after concurrent and remote runs" -- allocbench info
fi # ---- end: full, focused, numa ----
part_time "concurrent runs, remote frees"

if in_suite full; then # ---- bad placements: full ----
expect 2 "add --concurrent" "cli: a CPU list without --concurrent rejected" -- allocbench run --wide --cpu=0-1
expect 2 "--free-cpu=9: there is no CPU 9" "cli: --free-cpu=9 rejected" -- allocbench run --wide --free-cpu=9
# CPU lists follow numactl within the CPUs this process may use: under
# taskset -c 1, "all" and +0 are CPU 1, !0 is CPU 1, +1 is beyond them
# (the CPU: the JSON's parameters.cpus, on one line here)
expect 0 '"cpus":\[1\],' "cli: --cpu=all under taskset -c 1 is CPU 1 (the allowed CPUs, as numactl has it)" -- \
	sh -c "taskset -c 1 allocbench run --cpu=all --trials=5 -q --json | tr -d ' \n'"
expect 0 '"cpus":\[1\],' "cli: --cpu=+0 under taskset -c 1 is CPU 1 (relative to the allowed CPUs)" -- \
	sh -c "taskset -c 1 allocbench run --cpu=+0 --trials=5 -q --json | tr -d ' \n'"
expect 0 '"cpus":\[1\],' "cli: --cpu=!0 under taskset -c 1 is CPU 1" -- \
	sh -c "taskset -c 1 allocbench run --cpu='!0' --trials=5 -q --json | tr -d ' \n'"
expect 2 "+1: a relative CPU beyond this process's 1 allowed CPU (1: +0 to +0" "cli: --cpu=+1 under taskset -c 1 rejected" -- \
	taskset -c 1 allocbench run --wide --cpu=+1 --trials=5 -q
expect 2 "CPU 0 is outside this process's allowed CPUs (1:" "cli: --cpu=0 under taskset -c 1 rejected, naming CPU 0" -- \
	taskset -c 1 allocbench run --wide --cpu=0 --trials=5 -q
expect 0 '"label": *"kmalloc@cpu1"' "cli: --cpu=all --concurrent under taskset -c 0-1 runs on both CPUs" -- \
	taskset -c 0-1 allocbench run --cpu=all --concurrent --trials=5 -q --json
expect 2 "frees each object on the allocating CPU" "cli: --free-cpu with --free=pair rejected" -- \
	allocbench run --wide --free-cpu=1 --free=pair
expect 2 "--cpu-nodes=7: there is no node 7" "cli: sweep --cpu-nodes=7 rejected" -- allocbench sweep --wide --cpu-nodes=7
expect 2 "--sizes=8-x: not a list or range" "cli: sweep --sizes=8-x rejected" -- allocbench sweep --wide --sizes=8-x
fi # ---- end: full ----
part_time "bad placements"

if in_suite full focused; then # ---- --isolate, cgroup v2 and legacy cpusets: full, focused ----
# --isolate, cgroup v2 and legacy cpusets: tests/kernel/isolate.sh
. "$(dirname "$0")/isolate.sh"
part_time isolate.sh
fi # ---- end: full, focused ----
part_time "--isolate, cgroup v2 and legacy cpusets"

if in_suite full numa; then # ---- sweeps and node checks: full, numa ----
# sweep: every *_node cell finds its objects on the asked node
allocbench sweep --alloc=kmalloc_node,alloc_pages_node,vmalloc_node,kvmalloc_node,kmalloc --sizes=64,4K --trials=20 --csv >/tmp/sw.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ cells++ }
	$1 ~ /_node$/ && $col["node_hits"] != $col["node_checked"] { bad = bad " " $1 "@" $col["cpu"] ">" $col["node"] }
	END { if (cells < 4 || bad != "") { print "bad:" bad " cells " cells; exit 1 } }' /tmp/sw.csv
if [ $? = 0 ]; then ok "sweep: *_node strategies hit 100% of their node from every CPU node"; else notok "sweep: *_node hits ($(head -c 400 /tmp/sw.csv))"; fi
# a sweep leaves out the cells its GFP choice can never allocate (item 11)
expect 0 "note: kvmalloc_node: sizes above its largest object with GFP_ATOMIC" \
	"sweep: kvmalloc_node --gfp=atomic leaves out sizes above the largest kmalloc" -- \
	allocbench sweep --wide --alloc=kvmalloc_node --sizes=64,8M --gfp=atomic --trials=2 --mem-nodes=0 --cpu-nodes=0

# Node checks run in untimed trials of the same shape, one before every 16
# measured ones (common/ab_trial.h): 33 trials of 10 -> 3 check trials
allocbench run --alloc=kmalloc_node --node=0 --trials=33 --batch=10 --csv >/tmp/nc.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ if ($col["objects"] != 330 || $col["node_checked"] != 30 || $col["node_hits"] != 30) exit 1; rows++ }
	END { exit rows != 1 }' /tmp/nc.csv
if [ $? = 0 ]; then ok "node check: 33 measured trials of 10 objects, 3 untimed check trials (30 objects checked, all on node 0)"; else notok "node check: 3 untimed check trials for 33 trials ($(head -c 400 /tmp/nc.csv))"; fi

fi # ---- end: full, numa ----
part_time "sweeps and node checks"

if in_suite full; then # ---- invariants of the statistics: full ----
# Invariants from the CSV: median within [min, max], the CI around the
# median, net <= raw, samples counted.
allocbench run --alloc=none,kmalloc,get_free_pages,vmalloc_node --trials=200 --csv >/tmp/r.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		for (p = 0; p < 2; p++) {
			ph = p ? "free" : "alloc"
			min = $col[ph "_min_ns"]; med = $col[ph "_median_ns"]
			max = $col[ph "_max_ns"]; lo = $col[ph "_ci_lo_ns"]
			hi = $col[ph "_ci_hi_ns"]; raw = $col[ph "_raw_median_ns"]
			if (!(min <= med && med <= max)) bad = bad " " $1 ":median"
			if (!(lo <= med && med <= hi)) bad = bad " " $1 ":ci"
			if (!(med <= raw)) bad = bad " " $1 ":net>raw"
			if ($col[ph "_n_ns"] != 200) bad = bad " " $1 ":n"
		}
	}
	END { if (NR < 5 || bad != "") { print "bad:" bad; exit 1 } }' /tmp/r.csv
if [ $? = 0 ]; then
	ok "invariants: median in [min,max], CI holds the median, net <= raw"
else
	notok "invariants: median in [min,max], CI holds the median, net <= raw ($(head -c 600 /tmp/r.csv))"
fi
fi # ---- end: full ----
part_time "invariants of the statistics"

if [ "$nodes" -ge 2 ] && in_suite full numa; then # ---- two nodes or more: full, numa ----
	expect 0 "100.0" "cli: kmalloc_node on node 1 from CPU 1 hits 100%" -- \
		allocbench run --wide --alloc=kmalloc_node --node=1 --cpu=1 --trials=20
	# issue 13, item 17: 5 strategies x 12 sizes x 2 CPU nodes x 2 memory
	# nodes is 240 runs, once refused "more than 64 runs": every cell runs
	allocbench sweep --alloc=kmalloc_node,kmem_cache_node,alloc_pages_node,vmalloc_node,kvmalloc_node \
		--sizes=8-16K:x2 --trials=3 --warmup=0 --batch=4 --csv >/tmp/sw240.csv 2>&1
	st=$?
	want=$((5 * 12 * nodes * nodes))
	cells=$(awk -F, 'NR > 1 && $1 ~ /_node$/' /tmp/sw240.csv | wc -l)
	if [ "$st" = 0 ] && [ "$cells" = "$want" ]; then
		ok "sweep: $want runs (5 strategies x 12 sizes x $nodes x $nodes nodes), no count limit"
	else
		notok "sweep: $want runs (exit $st, $cells cells: $(head -c 300 /tmp/sw240.csv))"
	fi
fi
part_time "two nodes or more"

if in_suite full; then # ---- a non-root user, SIGSTOP, SIGINT: full ----
expect 3 "permission denied: the device is mode 0600, run allocbench as root" \
	"cli: a non-root user is told the device needs root" -- \
	su -s /bin/sh nobody -c "allocbench run --wide --alloc=kmalloc"

# SIGSTOP and SIGCONT (job control, a debugger) pause a run, not end it.
allocbench run --wide --alloc=kmalloc --trials=30000 >/tmp/stop.out 2>&1 &
pid=$!
sleep 1
kill -STOP $pid 2>/dev/null
sleep 1
kill -CONT $pid 2>/dev/null
wait $pid
st=$?
if [ "$st" = 0 ] && ! grep -q "interrupted" /tmp/stop.out && grep -q "^kmalloc " /tmp/stop.out; then
	ok "cli: SIGSTOP and SIGCONT pause a run without ending it"
else
	notok "cli: SIGSTOP and SIGCONT pause a run without ending it (got $st: $(head -c 300 /tmp/stop.out))"
fi

# SIGINT through the CLI: status 130, nothing outstanding afterwards.
allocbench run --wide --alloc=vmalloc_node --size=64K --trials=10000000 >/tmp/int.out 2>&1 &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null
wait $pid
st=$?
if [ "$st" = 130 ] && grep -q "interrupted" /tmp/int.out; then
	ok "cli: SIGINT ends a run with status 130"
else
	notok "cli: SIGINT ends a run with status 130 (got $st: $(head -c 300 /tmp/int.out))"
fi
expect 0 "outstanding:       0 objects" "cli: nothing outstanding after SIGINT" -- allocbench info
fi # ---- end: full ----
part_time "a non-root user, SIGSTOP, SIGINT"

# the run's CPU going offline mid-run: the header names the node it had at
# the start, no stray "cannot pin" error, the note says where it ended
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	allocbench run --wide --alloc=kmalloc --size=4K --cpu=1 --raw --trials=1000000 >/tmp/off.out 2>/tmp/off.err &
	pid=$!
	sleep 2
	echo 0 >/sys/devices/system/cpu/cpu1/online
	sleep 2
	kill -INT $pid
	wait $pid
	st=$?
	echo 1 >/sys/devices/system/cpu/cpu1/online
	node1=$(ls -d /sys/devices/system/cpu/cpu1/node* 2>/dev/null | sed 's/.*node//')
	if [ $st = 130 ] && ! grep -q "cannot pin" /tmp/off.err &&
		grep -q "^CPU 1 (node ${node1:-0}[,)]" /tmp/off.out &&
		grep -q "migrated from CPU 1 to CPU" /tmp/off.out; then
		ok "cli: the run's CPU offlined mid-run: the header's node from the start, the migration noted, no stray error"
	else
		notok "cli: the run's CPU offlined mid-run (status $st: $(head -c 200 /tmp/off.err) $(grep -e '^CPU' -e migrated /tmp/off.out))"
	fi
fi

if in_suite full focused; then # ---- what PREEMPT_RT changes, the fuzzer: full, focused ----
. /ab/rt.sh
part_time rt.sh

# the other CPUs' busy time during a timed pass (issue 21, part 7): in the
# two-node boot only, once per kernel (it needs a CPU 1, which both boots
# have)
if [ -d /sys/devices/system/node/node1 ]; then
	sh /ab/cpubusy.sh
fi

# the ioctl fuzzer (tests/kernel/fuzz.c, issue 16): 5000 calls from 4
# threads, beside 2 child processes signalled and killed at random
./fuzz --calls=5000 --deadline=240 | tee /tmp/fuzz.out
# issue 21: --calls=N is this process's calls, exactly N (the children's
# apart: 3000 gave "5569 calls"); each figures line ends its own list;
# --help says what the options do
if grep -q "^# fuzz: 5000 calls from 4 threads (--calls) and [0-9]* from 2 children" /tmp/fuzz.out &&
	grep -q "^# fuzz: answers: AB_IOC_INFO .*; unknown ioctl numbers ENOTTY [0-9]* ([0-9]* distinct ioctl and errno pairs)$" /tmp/fuzz.out; then
	ok "fuzz: --calls=5000 counted apart from the children's calls; the answers line ends its list"
else
	notok "fuzz: the figures lines ($(grep '^# fuzz:' /tmp/fuzz.out | head -c 600))"
fi
expect 0 "--calls=N *calls made by this process's threads" "fuzz --help says what each option does" -- ./fuzz --help
# every command of the bench scripts passes the CLI's checks (--dry-run),
# and bench.sh's fuzzer summary counts what /tmp/fuzz.out lists
sh /ab/benchcmds.sh
fi # ---- end: full, focused ----
part_time "what PREEMPT_RT changes, the fuzzer"

if rmmod allocbench; then ok "rmmod after the runs"; else notok "rmmod after the runs"; fi
expect 3 "module not loaded" "cli: without the module, status 3 and how to load it" -- \
	allocbench run --wide --alloc=kmalloc
exit 0
