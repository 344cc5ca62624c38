# SPDX-License-Identifier: GPL-2.0-only
#
# condition.sh - --condition in the guest (issue 25), sourced by guest.sh
# (full and focused suites): invariants, never timings.
# - fragmented (--frag-order=2) leaves no free block above order 2 in the
#   zone it names before the trials (buddyinfo), and after the undo the
#   zone's free pages are back within 3% of before (the per-CPU page lists
#   keep freed pages that zoneinfo's "pages free" does not count: 0.6% seen
#   on 6.1) and its highest free order within one;
# - order 9 with __GFP_NORETRY succeeds less often fragmented than quiet:
#   large by construction (quiet: 16 blocks of 2 MiB from a node with over
#   100 free; fragmented: none left above order 2 in the zone, and the DMA
#   zone holds at most 8);
# - --explain counts the slow path's tracepoints per op;
# - sweep --orders builds and undoes the condition for each order's row;
# - pressure holds the zone's free pages under its high watermark;
# - nothing stays held after a SIGKILL of the CLI during a run (the
#   device's close undoes it): a new condition builds at once;
# - the kernel log shows no WARN, BUG, OOM kill or allocation-failure splat.
cj() {
	allocbench run --alloc=alloc_pages_node --order=9 --gfp=noretry \
		--batch=16 --trials=6 --timing=single --json -q "$@" 2>/tmp/cond.err
}
cond_awk='
	function num(s) { gsub(/[^0-9eE.+-]/, "", s); return s + 0 }
	/"rate":/ { rate = num($2) }
	/"held_pages":/ { held = num($2) }
	/"undone":/ { undone = ($2 ~ /true/) }
	/"wmark_high":/ { high = num($2) }
	/"before":\{/ { w = "before" }
	/"built":\{/ { w = "built" }
	/"after_trials":\{/ { w = "trials" }
	/"after_undo":\{/ { w = "undo" }
	/"free_pages":/ { free[w] = num($2) }
	/"pcp_pages":/ { pcp[w] = num($2) }
	/"free_cma_pages":/ { cma[w] = num($2) }
	/"max_free_order":/ { mo[w] = num($2) }'
cj >/tmp/cq.json
rcq=$?
cj --condition=fragmented --frag-order=2 >/tmp/cf.json
rcf=$?
# pages freed late by others (a deferred or RCU free merging in the buddy
# lists between the build and its reading) can leave one block above the
# order: seen once on 6.12-rt in CI (max free order 8), never again in
# the same boot; the build is tried a second time before it counts
if awk '/"built":\{/ { b = 1 } b && /"max_free_order":/ { gsub(/[^0-9]/, "", $0); above = $0 > 2; b = 0 } END { exit !above }' /tmp/cf.json; then
	echo "# condition: fragmented built with a block above order 2 once; building it again"
	cj --condition=fragmented --frag-order=2 >/tmp/cf.json
	rcf=$?
fi
# (order 3 with GFP_KERNEL: it succeeds in fragmented memory, so each
# count has ops to be per; order 9 with noretry may fail in every trial)
allocbench run --alloc=alloc_pages_node --order=3 --batch=8 --trials=2 \
	--timing=single --condition=fragmented --explain --json -q >/tmp/ce.json 2>>/tmp/cond.err
# --explain names the slow path's tracepoints (compaction, direct reclaim,
# kswapd, migratetype fallback) and counts each per op
miss=
for ev in compaction:mm_compaction_try_to_compact_pages compaction:mm_compaction_begin \
	vmscan:mm_vmscan_direct_reclaim_begin vmscan:mm_vmscan_wakeup_kswapd kmem:mm_page_alloc_extfrag; do
	awk -v ev="\"$ev\"" '/"event":/ { at = index($0, ev) > 0 }
		at && /"per_op":[0-9]/ { found = 1 } END { exit !found }' /tmp/ce.json || miss="$miss $ev"
done
if [ -z "$miss" ]; then
	ok "condition: --explain counts the slow path per op: compaction tried and run, direct reclaim, kswapd woken, migratetype fallback"
else
	notok "condition: --explain did not count$miss ($(grep -A6 '"event":"compaction:mm_compaction_try_to_compact_pages"' /tmp/ce.json | tr -d ' \n' | head -c 300); $(tail -c 300 /tmp/cond.err | tr '\n' ' '))"
fi
rq=$(awk -F'[:,]' "$cond_awk"' END { print rate }' /tmp/cq.json)
awk -F'[:,]' -v rcq=$rcq -v rcf=$rcf -v rq="$rq" "$cond_awk"'
	END {
		if (rcq || rcf) bad = bad " exit " rcq "/" rcf
		if (!(held > 0)) bad = bad " nothing held"
		if (!("built" in mo) || mo["built"] > 2) bad = bad " max free order " mo["built"] " built"
		if (!undone) bad = bad " not undone"
		# the per-CPU lists count: after a burst of frees 6.7+ lets
		# them grow to 1/8 of the zone (6.12-rt in CI: 13177 pages)
		if (!(free["undo"] + pcp["undo"] >= 0.97 * (free["before"] + pcp["before"]))) bad = bad " free " free["undo"] " + " pcp["undo"] " per-CPU after undo, " free["before"] " + " pcp["before"] " before"
		if (!(mo["undo"] >= mo["before"] - 1)) bad = bad " max free order " mo["undo"] " after undo, " mo["before"] " before"
		if (!(rate < rq)) bad = bad " order-9 noretry success " rate " fragmented, " rq " quiet"
		if (bad == "") print "ok - condition: fragmented has no free block above order 2 before the trials, order-9 noretry succeeds less (" rate " against " rq " quiet), the zone is back after the undo (" free["undo"] " + " pcp["undo"] " per-CPU of " free["before"] " + " pcp["before"] " free pages, max order " mo["undo"] ")"
		else print "not ok - condition: fragmented:" bad
	}' /tmp/cf.json
# every counted trial meets the condition (issue 39): restored before each
# trial, a fragmented row's trials all begin with no free block above
# --frag-order (before: built once, the first trial's compaction or
# reclaim gave blocks of order 4 to 9 back to every later one), and the
# success rate's unit is the trial (attempts = trials that met it)
awk -F'[:,]' -v rc=$rcf '
	function num(s) { gsub(/[^0-9eE.+-]/, "", s); return s + 0 }
	/"each_trial":\{/ { each = 1 }
	each && /"trials_met":/ { met = num($2) }
	each && /"trials_unmet":/ { unmet = num($2) }
	each && /"start_max_free_order":/ { smo = $2; gsub(/[ }]/, "", smo) }
	/"unit":"trial"/ { unit = 1 }
	/"attempts":/ { att = num($2) }
	END {
		if (rc) bad = bad " exit " rc
		if (!each) bad = bad " no each_trial"
		if (met + unmet != 6) bad = bad " " met " met + " unmet " unmet trials, not 6"
		if (!(met >= 1)) bad = bad " no trial met it"
		if (smo != "null" && !(smo + 0 <= 2)) bad = bad " a counted trial began with max free order " smo
		if (!unit || att != met) bad = bad " success over " att " attempts (unit " unit "), " met " trials met"
		if (bad == "") print "ok - condition: fragmented restored before each trial: " met " of 6 trials began in it, max free order at their start " smo " (at most 2), success counted over those trials"
		else print "not ok - condition: fragmented per trial:" bad
	}' /tmp/cf.json
allocbench run --alloc=alloc_pages_node --order=0 --batch=8 --trials=4 \
	--condition=pressure --json -q >/tmp/cp.json 2>>/tmp/cond.err
rcp=$?
awk -F'[:,]' -v rc=$rcp "$cond_awk"'
	END {
		if (rc) bad = bad " exit " rc
		if (!(held > 0)) bad = bad " nothing held"
		# the free pages of a CMA area (cma=SIZE) serve movable allocations
		# alone: the watermarks of the others leave them out
		if (!(free["built"] - cma["built"] < high)) bad = bad " " free["built"] " free pages (" cma["built"] " of a CMA area) built, high watermark " high
		if (!undone) bad = bad " not undone"
		if (bad == "") print "ok - condition: pressure holds the zone under its high watermark (" free["built"] " free pages, " cma["built"] " of them in a CMA area, high " high ") and is undone"
		else print "not ok - condition: pressure:" bad
	}' /tmp/cp.json
# sweep --orders under a condition: one row per order, each with its
# condition built and undone and its success rate; order 9 noretry in
# fragmented memory succeeds no more often than order 0 (large by
# construction: no free block above order 2 is left)
allocbench sweep --alloc=alloc_pages_node --orders=0,9 --condition=fragmented --gfp=noretry \
	--timing=single --batch=8 --trials=2 --mem-nodes=0 --json -q >/tmp/cs.json 2>>/tmp/cond.err
rcs=$?
awk -F'[:,]' -v rc=$rcs '
	function num(s) { gsub(/[^0-9eE.+-]/, "", s); return s + 0 }
	/"order":[0-9]/ { order = num($2); if (!(order in seen)) { seen[order]; orders = orders " " order } }
	/"rate":/ { rate[order] = num($2) }
	/"undone":true/ { undone++ }
	END {
		if (rc) bad = bad " exit " rc
		if (orders != " 0 9") bad = bad " orders" orders
		if (undone != 2) bad = bad " " undone " of 2 conditions undone"
		if (!(rate[9] <= rate[0])) bad = bad " order 9 success " rate[9] " above order 0 " rate[0]
		if (bad == "") print "ok - condition: sweep --orders=0,9 runs a row per order, each condition undone, order 9 succeeding " rate[9] " against " rate[0]
		else print "not ok - condition: sweep --orders:" bad
	}' /tmp/cs.json
expect 2 "--orders=0-3: kmalloc takes no page order" "condition: sweep --orders refused for a strategy without orders" -- \
	allocbench sweep --wide --alloc=kmalloc --orders=0-3
allocbench run --wide --alloc=vmalloc_node --size=4096 --batch=8 --trials=4 \
	--condition=vmap-fragmented -q >/tmp/cv.out 2>&1
rcv=$?
if [ $rcv = 0 ] && grep -q "8192 vmap areas" /tmp/cv.out && grep -q "undone in" /tmp/cv.out; then
	ok "condition: vmap-fragmented holds 8192 one-page areas during the trials and is undone"
else
	notok "condition: vmap-fragmented (exit $rcv; $(head -c 300 /tmp/cv.out))"
fi
# SIGKILL of the CLI in the middle of a row: the close undoes it (while it
# runs a second condition is refused, EBUSY; after the kill one builds)
allocbench run --wide --alloc=vmalloc_node --size=4096 --batch=8 --trials=50000 \
	--timing=single --condition=vmap-fragmented -q >/dev/null 2>&1 &
kpid=$!
n=0 busy=
while [ $n -lt 100 ] && [ -z "$busy" ]; do
	sleep 0.2
	n=$((n + 1))
	allocbench run --wide --alloc=vmalloc_node --size=4096 --batch=8 --trials=2 --timing=single \
		--condition=vmap-fragmented -q 2>&1 | grep -q "holds a memory condition already" && busy=1
done
kill -9 $kpid
wait $kpid 2>/dev/null
if [ -n "$busy" ] &&
	allocbench run --wide --alloc=vmalloc_node --size=4096 --batch=8 --trials=2 --condition=vmap-fragmented -q >/dev/null 2>&1; then
	ok "condition: SIGKILL of the CLI during a run leaves nothing held (a second condition was refused while it ran, one builds after the kill)"
else
	notok "condition: SIGKILL: ${busy:-no} busy refusal while it ran, or no condition after the kill"
fi
expect 2 "--condition=bogus: not a memory condition" "condition: an unknown condition refused (status 2)" -- \
	allocbench run --wide --alloc=alloc_pages_node --condition=bogus
expect 2 "--condition=fragmented+fragmented: not a memory condition" "condition: a kind given twice refused" -- \
	allocbench run --wide --alloc=alloc_pages_node --condition=fragmented+fragmented
expect 2 "--frag-order=9: must be an integer from 0 to 8" "condition: --frag-order above 8 refused" -- \
	allocbench run --wide --alloc=alloc_pages_node --condition=fragmented --frag-order=9
expect 2 "--frag-order=1: only with --condition=fragmented" "condition: --frag-order without fragmented refused" -- \
	allocbench run --wide --alloc=alloc_pages_node --condition=pressure --frag-order=1
expect 2 "--gfp=thp: the THP mask" "condition: --gfp=thp refused for kmalloc" -- \
	allocbench run --wide --alloc=kmalloc --gfp=thp
expect 2 "not with --concurrent" "condition: --condition with --concurrent refused" -- \
	allocbench run --wide --alloc=alloc_pages_node --condition=fragmented --cpu=0,1 --concurrent
# the none baseline alone meets no condition: refused before anything runs
# (it ran with no condition and no word of it)
expect 2 "^allocbench: --condition=fragmented: none allocates nothing, and no row of it would meet the condition" \
	"condition: --alloc=none alone refused (status 2)" -- \
	allocbench run --wide --alloc=none --condition=fragmented --trials=5
# --background: the guest's sh (busybox) finds the load's command, or the
# run is refused before its baseline (it "ran through the trials")
expect 2 "^allocbench: --background='/nonexistent/cmd': /nonexistent/cmd: No such file" \
	"condition: a --background that cannot start refused (status 2)" -- \
	allocbench run --wide --alloc=kmalloc --trials=5 --background=/nonexistent/cmd
expect 2 "^allocbench: --background='nosuchcmd-ab': nosuchcmd-ab: not found" \
	"condition: a --background not in PATH refused (status 2)" -- \
	allocbench run --wide --alloc=kmalloc --trials=5 --background=nosuchcmd-ab
expect 0 "background: sh -c 'sleep 5' (running when the trials ended, then stopped by SIGTERM)" \
	"condition: a --background the guest's sh finds runs, and is stopped" -- \
	allocbench run --wide --alloc=kmalloc --trials=5 --background='sleep 5'
# issue 43: fragmented+pressure with order-1 objects, where the build's
# fallbacks boost the zone's watermarks (zone->watermark_boost): pressure
# aimed below a boosted min watermark and the OOM killer ran (7.3, 2 of 4
# boots; 2 of 2 kmalloc 8K runs in one boot before the fix). Each run must
# end with status 0 and no OOM kill in the kernel log. Every strategy whose
# setup makes its allocator with the kernel's own GFP_KERNEL calls runs
# here too: those calls warn when they fail, and in held memory they did
# (6.12-rt, CI: kmem_buckets_create() WARNed at mm/slab_common.c:465).
oom0=$(dmesg | grep -c 'invoked oom-killer')
done_=""
bad=""
for a in kmalloc kmem_buckets kmem_cache kmem_cache_bulk kfree_bulk percpu mempool page_frag; do
	allocbench list 2>&1 | grep "^ *$a " | grep -q 'not here' && continue
	sz=8192 n=2
	[ $a = page_frag ] && sz=4096
	case $a in kmalloc | kmem_buckets) n=20 ;; esac
	allocbench run --alloc=$a --size=$sz --condition=fragmented+pressure \
		--trials=$n --json -q >/tmp/cbo.json 2>>/tmp/cond.err || bad="$bad $a:exit $?"
	rp=$(tr -d ' \n' </tmp/cbo.json | grep -o '"reclaimed_pages":[0-9]*,"oom_pages":[0-9]*' | head -n 1)
	done_="$done_ $a ($rp)"
done
oom1=$(dmesg | grep -c 'invoked oom-killer')
if [ -z "$bad" ] && [ "$oom0" = "$oom1" ]; then
	ok "condition: fragmented+pressure at 8 KiB (order 1; page_frag 4 KiB), each strategy with a setup too, reaches no OOM kill:$done_"
else
	notok "condition: fragmented+pressure at 8 KiB:$bad, OOM kills $oom0 before, $oom1 after ($done_)"
fi
if dmesg | grep -q -E "WARNING|BUG|Out of memory|oom-kill|page allocation failure"; then
	notok "condition: the kernel log: $(dmesg | grep -E 'WARNING|BUG|Out of memory|oom-kill|page allocation failure' | head -3)"
else
	ok "condition: the kernel log holds no WARN, BUG, OOM kill or allocation-failure splat"
fi
