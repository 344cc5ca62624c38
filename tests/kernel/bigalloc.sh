# SPDX-License-Identifier: GPL-2.0-only
#
# bigalloc.sh - sourced by guest.sh (full and focused suites): the
# strategies of kmod/strategies_big.c on the running kernel, each run where
# the kernel offers it and refused with its reason where not:
# vmalloc_huge's areas mapped with the page size the page tables state,
# kmem_buckets (6.11+, CONFIG_SLAB_BUCKETS) against kmalloc, and cma
# (CONFIG_CMA and exported: 7.3 of Debian's; an area only when booted with
# cma=SIZE, which make check's focused boots are). Nothing outstanding
# after each run: the module's count, the bucket caches gone from
# /sys/kernel/slab, the CMA area's own counters.

release=$(uname -r)
bcfg() { grep -q "^CONFIG_$1=y$" "/boot/config-$release" 2>/dev/null && echo y || echo n; }
outstanding() { allocbench info 2>/dev/null | sed -n 's/^outstanding: *\([0-9]*\).*/\1/p'; }
listed=$(allocbench list 2>&1)
# the reason a strategy is not here, from its line of allocbench list
not_here() { printf '%s\n' "$listed" | grep "^ *$1 " | sed -n 's/.*not here: //p'; }
echo "# bigalloc.sh: $release, SLAB_BUCKETS=$(bcfg SLAB_BUCKETS) CMA=$(bcfg CMA), cmdline: $(cat /proc/cmdline)"

# --- vmalloc_huge: 2 MiB pages from 2 MiB up, vmalloc 4 KiB pages ---
# the mapping's leaf entries (lookup_address()) must cover each area,
# all 2 MiB pages for vmalloc_huge (a fresh boot has the order-9 blocks),
# all 4 KiB pages for vmalloc_node; CSV and JSON alike
: >/tmp/vh.csv
for sz in 2M 8M; do
	allocbench run --wide --alloc=vmalloc_node,vmalloc_huge --size=$sz --batch=2 --trials=4 --csv >>/tmp/vh.csv 2>&1 || echo "exit $? at $sz" >>/tmp/vh.csv
done
if awk -F, '$1 == "strategy" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "vmalloc_huge" || $1 == "vmalloc_node" {
		n++; a = $col["map_areas"]; b = $col["object_bytes"]
		k = $col["map_4k_pages"]; m = $col["map_2m_pages"]
		if (a < 2 || ($1 == "vmalloc_huge" ? m != a * b / 2097152 || k != 0 : k != a * b / 4096 || m != 0)) bad++
	}
	/^exit / { bad++ }
	END { exit !(n == 4 && !bad) }' /tmp/vh.csv; then
	ok "vmalloc_huge: 2 and 8 MiB areas mapped with 2 MiB pages only, vmalloc_node's with 4 KiB pages only, as the page tables state (CSV)"
else
	notok "vmalloc_huge: mapping ($(grep -v '^strategy' /tmp/vh.csv | cut -d, -f1,2,60-63 | tr '\n' ' ' | head -c 800))"
fi
allocbench run --wide --alloc=vmalloc_huge --size=2M --batch=2 --trials=2 --json >/tmp/vh.json 2>&1
if tr -d ' \n' </tmp/vh.json | grep -q '"mapping":{"areas":2,"pages_4k":0,"pages_2m":2,"pages_1g":0}'; then
	ok "vmalloc_huge: JSON mapping of 2 MiB areas: one 2 MiB page each"
else
	notok "vmalloc_huge: JSON mapping ($(tr -d ' \n' </tmp/vh.json | grep -o '"mapping":[^}]*}' | head -c 300))"
fi
# the kernel's own mapping calls say the same: vmap_range_noflush() once
# per huge page (a kprobe, --explain), as many as the page tables' 2 MiB
# entries an area
if grep -qw vmap_range_noflush /proc/kallsyms; then
	expect 0 "4.00 huge page maps.*2 MiB pages 8 (4 an area)" \
		"vmalloc_huge: 8 MiB areas: 4 huge page maps per op (kprobe), 4 2 MiB entries an area (page tables)" -- \
		sh -c 'allocbench run --alloc=vmalloc_huge --size=8M --batch=2 --trials=2 --explain | tr "\n" " "'
else
	ok "vmalloc_huge: huge page maps per op # SKIP vmap_range_noflush() not in /proc/kallsyms (inlined)"
fi
expect 0 "mapped: 2 areas: 2 MiB pages 8 (4 an area), 4 KiB pages 0" \
	"vmalloc_huge: the short report notes the mapping of 8 MiB areas (4 x 2 MiB each)" -- \
	allocbench run --alloc=vmalloc_huge --size=8M --batch=2 --trials=2
# an area below PMD_SIZE is vmalloc's, 4 KiB pages
expect 0 "mapped: 2 areas: 2 MiB pages 0 (0 an area), 4 KiB pages 256 (128 an area)" \
	"vmalloc_huge: 512 KiB areas (below 2 MiB) get 4 KiB pages" -- \
	allocbench run --alloc=vmalloc_huge --size=512K --batch=2 --trials=2
o=$(outstanding)
[ "$o" = 0 ] && ok "vmalloc_huge: nothing outstanding after the runs" ||
	notok "vmalloc_huge: $o objects outstanding after the runs"

# --- kmem_buckets: 6.11+ with CONFIG_SLAB_BUCKETS ---
why=$(not_here kmem_buckets)
if [ -z "$why" ]; then
	allocbench compare --wide --alloc=kmalloc,kmem_buckets --size=64 --rounds=7 --trials=10 >/tmp/kb.txt 2>&1
	rc=$?
	left=$(ls /sys/kernel/slab 2>/dev/null | grep -c '^allocbench-bk')
	if [ $rc = 0 ] && grep -q "kmem_buckets" /tmp/kb.txt && [ "$left" = 0 ] && [ "$(outstanding)" = 0 ]; then
		ok "kmem_buckets: compare against kmalloc at 64 B runs; its bucket caches are gone after it"
	else
		notok "kmem_buckets: compare (exit $rc, $left allocbench-bk caches left; $(head -c 400 /tmp/kb.txt))"
	fi
	expect 0 "kmem_buckets *4K" "kmem_buckets: 4 KiB, batch and single timing" -- \
		sh -c 'allocbench run --wide --alloc=kmem_buckets --size=4K --trials=10 &&
			allocbench run --wide --alloc=kmem_buckets --size=4K --trials=10 --timing=single --free=shuffle'
	# --concurrent: the aggregate covers the measured trials' timed phases,
	# not each row's setup (its buckets made: ~370 ms under TCG); each
	# row's timed_ns is within its wall_ns (issue 43)
	allocbench run --alloc=kmem_buckets --size=64 --trials=10 --cpu=0,1 --concurrent --json -q >/tmp/kbc.json 2>&1
	rc=$?
	tw=$(tr -d ' \n' </tmp/kbc.json | grep -o '"wall_ns":[0-9.e+]*,"timed_ns":[0-9.e+]*' | sed 's/"wall_ns"://; s/,"timed_ns":/ /')
	if [ $rc = 0 ] && [ "$(printf '%s\n' "$tw" | grep -c .)" -ge 2 ] &&
		printf '%s\n' "$tw" | awk '{ if (!($2 > 0 && $2 <= $1)) bad = 1 } END { exit bad }'; then
		ok "kmem_buckets: --concurrent rows' timed phases within their wall time (wall, timed ns: $(printf '%s' "$tw" | tr '\n' ';'))"
	else
		notok "kmem_buckets: --concurrent timed_ns (exit $rc; $tw; $(head -c 300 /tmp/kbc.json))"
	fi
	expect 0 "^aggregate: kmem_buckets on 2 CPUs at once: [0-9]* objects allocated and freed in the measured trials, [0-9.]* ms of timed phases on the slowest CPU" \
		"kmem_buckets: --concurrent's aggregate says it covers the timed phases alone" -- \
		allocbench run --alloc=kmem_buckets --size=64 --trials=10 --cpu=0,1 --concurrent
	expect 2 "above kmem_buckets's largest object, 8K" "kmem_buckets: above the largest kmalloc cache refused before the run" -- \
		allocbench run --wide --alloc=kmem_buckets --size=16K
elif [ "$(bcfg SLAB_BUCKETS)" = n ]; then
	expect 2 "kmem_buckets: not available on this kernel (.*not here: $why)" \
		"kmem_buckets: refused with the reason ($why) where the kernel has no buckets" -- \
		allocbench run --wide --alloc=kmem_buckets --size=64
else
	notok "kmem_buckets: CONFIG_SLAB_BUCKETS=y yet listed as not here ($why)"
fi

# --- cma: CONFIG_CMA, exported, and an area (cma=SIZE) ---
why=$(not_here cma)
cma_dir=$(ls -d /sys/kernel/mm/cma/* 2>/dev/null | head -n 1)
cma_count() { cat "$cma_dir/$1" 2>/dev/null || echo 0; }
if [ -z "$why" ]; then
	a0=$(cma_count alloc_pages_success) r0=$(cma_count release_pages_success)
	allocbench run --wide --alloc=cma --order=0,4 --batch=4 --trials=5 --csv >/tmp/cma.csv 2>/tmp/cma.err
	rc=$?
	a1=$(cma_count alloc_pages_success) r1=$(cma_count release_pages_success)
	if [ $rc = 0 ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == "cma" { n++; if ($col["failed"] != 0) bad = 1 }
		END { exit !(n == 2 && !bad) }' /tmp/cma.csv &&
		[ $((a1 - a0)) = $((r1 - r0)) ] && [ $((a1 - a0)) -gt 0 ] && [ "$(outstanding)" = 0 ]; then
		ok "cma: orders 0 and 4 succeed from the area ($cma_dir: $((a1 - a0)) pages allocated, as many released)"
	else
		notok "cma: runs (exit $rc; pages allocated $((a1 - a0)), released $((r1 - r0)); $(head -c 300 /tmp/cma.csv) $(head -c 200 /tmp/cma.err))"
	fi
	expect 0 "success" "cma: --condition=fragmented reports its success rate" -- \
		allocbench run --wide --alloc=cma --order=4 --batch=4 --trials=3 --timing=single --condition=fragmented
	expect 2 "may sleep" "cma: no atomic context (cma_alloc() sleeps)" -- \
		allocbench run --wide --alloc=cma --context=preempt-off --trials=2
	# the area's size as info states it (/proc/meminfo's CmaTotal), and a
	# batch above it refused before the run, naming the batch and the
	# area (it ran, every allocation failing)
	cma_kb=$(sed -n 's/^CmaTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
	cma_pages=$((cma_kb / 4))
	expect 0 "^CMA: *$cma_pages pages" "cma: info states the CMA areas' $cma_pages pages (CmaTotal $cma_kb kB)" -- \
		allocbench info
	over=$((cma_pages / 16 + 1))
	expect 2 "^allocbench: --batch=$over: cma would hold $((over * 65536)) bytes at once (.*), above the $((cma_pages * 4096)) bytes of the kernel's CMA areas" \
		"cma: a batch of $over order-4 blocks, above the $cma_pages-page area, refused (status 2)" -- \
		allocbench run --wide --alloc=cma --order=4 --batch=$over --trials=2
	expect 2 "^allocbench: --concurrent: cma on 2 CPUs would hold .* above the $((cma_pages * 4096)) bytes of the kernel's CMA areas" \
		"cma: --concurrent on 2 CPUs refused where their sum is above the area" -- \
		allocbench run --wide --alloc=cma --order=4 --batch=$((over / 2 + 1)) --trials=2 --cpu=0,1 --concurrent
elif [ "$(bcfg CMA)" = n ] || ! grep -q 'cma=' /proc/cmdline; then
	expect 2 "cma: not available on this kernel (.*not here: $why)" \
		"cma: refused with the reason ($why)" -- \
		allocbench run --wide --alloc=cma --order=0
else
	notok "cma: booted with cma= on a kernel with CONFIG_CMA, yet not here ($why)"
fi
