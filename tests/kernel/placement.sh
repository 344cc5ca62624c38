#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# placement.sh - run by tests/run-all.sh in a guest with NODES=3: node 0
# has CPU 0 and memory, node 1 CPU 1 and no memory, node 2 memory and no
# CPU. Each odd placement is refused with its reason; sweeps use what is
# usable and still find every *_node object on its node.
. "$(dirname "$0")/lib.sh"

expect 0 "nodes with memory            0,2" "placement: topology lists the nodes with memory" -- allocbench topology
expect 2 "node 1 has no memory" "placement: --node on a CPU-only node refused" -- \
	allocbench run --wide --alloc=kmalloc_node --node=1
expect 2 "node 2 has no CPU" "placement: --cpu-nodes with a memory-only node refused" -- \
	allocbench sweep --wide --cpu-nodes=2
expect 2 "node 1 has no memory" "placement: --mem-nodes with a CPU-only node refused" -- \
	allocbench sweep --wide --mem-nodes=1
# CPU 1's node has no memory: its objects come from another node (the
# kernel's choice: 0 or 2, both at distance 20); the header names the node
# they were on (page_to_nid()), and its hits are counted there
expect 0 "CPU 1 (node 1, no memory; its objects were on node [02])" "placement: the header names where a CPU-only node's CPU's objects were" -- \
	allocbench run --wide --alloc=kmalloc,get_free_pages --cpu=1 --trials=20 -q
# a condition is built on the node of the run's CPU: a CPU-only node is
# refused up front, status 2, by each way there (the module said EINVAL)
for c in pressure fragmented; do
	expect 2 "condition=$c: CPU 1 is on node 1, which has no memory" "placement: --condition=$c from CPU 1 (node without memory) refused" -- \
		allocbench run --wide --cpu=1 --alloc=kmalloc --condition=$c --trials=5
done
expect 2 "CPU 1 is on node 1, which has no memory" "placement: compare --condition from CPU 1 refused" -- \
	allocbench compare --alloc=kmalloc,kmem_cache --cpu=1 --condition=pressure --trials=20
expect 2 "CPU 1 is on node 1, which has no memory" "placement: sweep --cpu-nodes=1 --condition refused" -- \
	allocbench sweep --wide --alloc=get_free_pages --orders=0 --cpu-nodes=1 --condition=pressure --trials=5
expect 2 "not with --concurrent" "placement: --cpu=0,1 --concurrent --condition refused" -- \
	allocbench run --wide --cpu=0,1 --concurrent --alloc=kmalloc --condition=pressure --trials=5
expect 0 "condition" "placement: --condition=pressure on CPU 0 (node 0 has memory) runs" -- \
	allocbench run --wide --cpu=0 --alloc=kmalloc --condition=pressure --trials=5 -q
allocbench run --alloc=kmalloc,get_free_pages --cpu=1 --trials=20 --csv >/tmp/c1.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ rows++; t = $col["target_node"]; if ((t != 0 && t != 2) || 2 * $col["node_hits"] <= $col["node_checked"]) bad = 1 }
	END { exit !(rows == 2 && !bad) }' /tmp/c1.csv &&
	ok "placement: CPU 1's objects counted against a node with memory, most of them hits" ||
	notok "placement: CPU 1's hits ($(cut -d, -f1,13-19 /tmp/c1.csv | head -c 400))"
expect 0 "size 4K" "placement: sweep --cpu-nodes=1 (CPUs, no memory) is a CPU node like any" -- \
	allocbench sweep --wide --cpu-nodes=1 --alloc=kmalloc_node --sizes=4K --trials=10
expect 0 '"node_hit_pct": *100\.0' "placement: kmalloc_node on the memory-only node from CPU 1" -- \
	allocbench run --alloc=kmalloc_node --node=2 --cpu=1 --trials=20 -q --json
# +LIST counts within the nodes this process may use, as numactl's relative
# lists do: of the memory nodes 0,2, +1 is node 2 (before: libnuma's node
# 1, the CPU-only one)
allocbench run --alloc=kmalloc_node --node=+1 --trials=20 --json -q -o /tmp/rel.json 2>/tmp/rel.err
if grep -q '"node":2' /tmp/rel.json && ! grep -q '"node":1[,}]' /tmp/rel.json; then
	ok "placement: --node=+1 is the second memory node, node 2"
else
	notok "placement: --node=+1 ($(cat /tmp/rel.err) $(grep -o '"node":[0-9-]*' /tmp/rel.json | sort | uniq -c | tr '\n' ' '))"
fi
expect 2 "a relative node beyond this process's 2 allowed nodes (0,2: +0 to +1" "placement: --node=+2 beyond the 2 memory nodes refused" -- \
	allocbench run --wide --alloc=kmalloc_node --node=+2 --trials=20 -q
# "all" is what numactl makes it: the nodes this process may use, here
# the CPU nodes 0,1 and the memory nodes 0,2 (not every possible node)
allocbench sweep --alloc=kmalloc_node --sizes=4K --trials=10 --cpu-nodes=all --mem-nodes=all --csv >/tmp/all.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ cells++; pairs = pairs " cpu" $col["cpu"] ">node" $col["target_node"] }
	END { print pairs; exit !(cells == 4) }' /tmp/all.csv >/tmp/all.pairs &&
	ok "placement: sweep --cpu-nodes=all --mem-nodes=all covers CPU nodes 0,1 x memory nodes 0,2 ($(cat /tmp/all.pairs))" ||
	notok "placement: sweep --cpu-nodes=all --mem-nodes=all ($(head -c 400 /tmp/all.csv))"
allocbench sweep --alloc=kmalloc_node,alloc_pages_node --sizes=4K --trials=20 --csv >/tmp/sw.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ cells++; if ($col["node_hits"] != $col["node_checked"]) bad = 1 }
	END { exit !(cells == 8 && !bad) }' /tmp/sw.csv &&
	ok "placement: sweep covers CPU nodes 0,1 x memory nodes 0,2, all hits on the node" ||
	notok "placement: sweep cells ($(head -c 400 /tmp/sw.csv))"
# Node 2 filled to below its low watermark (tmpfs bound to it): CPU 1's
# pages and slabs then come from node 0, not from node 2, the first node of
# node 1's zonelist. The row names node 0, its hits are counted there, and
# the memory line reads node 0's counters (before: node 2, 0.0 hit% and
# 0 B/object from node 2)
n2() { awk '/^Node/ { n = $2 } n == "2," && $1 == "pages" && $2 == "free" { f += $3 } n == "2," && $1 == "min" { m += $2 } n == "2," && $1 == "low" { l += $2 } END { print f, m, l }' /proc/zoneinfo; }
mkdir -p /tmp/n2 && mount -t tmpfs -o mpol=bind:2 tmpfs /tmp/n2
# half the way to the middle of min and low each time (below min the
# bound writer would meet the OOM killer), until it stays below low while
# kswapd takes back what it can
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	set -- $(n2)
	fill=$((($1 - ($2 + $3) / 2) / 2))
	[ "$fill" -gt 8 ] && dd if=/dev/zero of=/tmp/n2/f$i bs=4096 count=$fill 2>/dev/null
	[ "$i" -gt 4 ] && [ "$1" -lt "$3" ] && break
	sleep 1
done
set -- $(n2)
allocbench run --wide --cpu=1 --alloc=get_free_pages --trials=20 >/tmp/full.txt 2>&1
allocbench run --cpu=1 --alloc=get_free_pages,kmalloc --size=4K --trials=20 --csv >/tmp/full.csv 2>&1
allocbench run --wide --cpu=1 --alloc=kmalloc --size=4K --trials=20 >/tmp/fullk.txt 2>&1
umount /tmp/n2
# the pages all come from node 0; kmalloc's objects from node 0's new
# slabs, and from node 2's partial slabs while they last (a mix)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "get_free_pages" { g = $col["target_node"] == 0 && $col["node_hits"] == $col["node_checked"] }
	$1 == "kmalloc" { k = ($col["target_node"] == 0 || $col["target_node"] == 2) && 2 * $col["node_hits"] >= $col["node_checked"] }
	END { exit !(g && k) }' /tmp/full.csv &&
	ok "placement: node 2 full: CPU 1's pages counted on node 0, where they were, kmalloc's on the node most were on (node 2 free $1 pages, low $3)" ||
	notok "placement: node 2 full (free $1, low $3): CPU 1's node ($(cut -d, -f1,13-19 /tmp/full.csv | tr '\n' ' ' | head -c 400))"
if grep -q "^CPU 1 (node 1, no memory; its objects were on node 0)" /tmp/full.txt &&
	grep -q "^get_free_pages 4096 B: .*took from node 0: 4096 B/object" /tmp/full.txt; then
	ok "placement: node 2 full: the header and the memory line name node 0, 4096 B/object of get_free_pages there"
else
	notok "placement: node 2 full: $(grep -E '^CPU|^get_free_pages' /tmp/full.txt | head -c 600)"
fi
# a mix is named with its counts, which add up to the objects checked
line=$(grep "^note: kmalloc: its [0-9]* checked objects were on more than one node" /tmp/fullk.txt)
if [ -z "$line" ] && grep -q "^kmalloc .* 100.0$" /tmp/fullk.txt; then
	ok "placement: node 2 full: kmalloc's objects all on one node (no mix this boot)"
elif echo "$line" | awk '{ n = $4; sub(/.*\): /, ""); sub(/;.*/, ""); t = 0; k = split($0, p, ", "); for (i = 1; i <= k; i++) { sub(/.*: /, "", p[i]); t += p[i] } exit !(t == n && k > 1) }'; then
	ok "placement: node 2 full: kmalloc's mix named, counts add up ($line)"
else
	notok "placement: node 2 full: kmalloc's mix ($line; $(grep '^kmalloc ' /tmp/fullk.txt | head -1))"
fi
exit 0
