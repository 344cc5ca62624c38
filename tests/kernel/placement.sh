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
# CPU 1's node has no memory: it allocates from the nearest node that has
# (the first zone of node 1's fallback zonelist: 0 or 2, both at distance
# 20), its hits are counted there, and the header says so
expect 0 "CPU 1 (node 1, no memory: allocates from node [02])" "placement: the header names where a CPU-only node's CPU allocates from" -- \
	allocbench run --wide --alloc=kmalloc,get_free_pages --cpu=1 --trials=20 -q
allocbench run --wide --alloc=kmalloc,get_free_pages --cpu=1 --trials=20 --csv >/tmp/c1.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ rows++; t = $col["target_node"]; if ((t != 0 && t != 2) || 2 * $col["node_hits"] <= $col["node_checked"]) bad = 1 }
	END { exit !(rows == 2 && !bad) }' /tmp/c1.csv &&
	ok "placement: CPU 1's objects counted against a node with memory, most of them hits" ||
	notok "placement: CPU 1's hits ($(cut -d, -f1,13-19 /tmp/c1.csv | head -c 400))"
expect 0 "size 4K" "placement: sweep --cpu-nodes=1 (CPUs, no memory) is a CPU node like any" -- \
	allocbench sweep --wide --cpu-nodes=1 --alloc=kmalloc_node --sizes=4K --trials=10
expect 0 "100.0" "placement: kmalloc_node on the memory-only node from CPU 1" -- \
	allocbench run --wide --alloc=kmalloc_node --node=2 --cpu=1 --trials=20 -q
# +LIST counts within the nodes this process may use, as numactl's relative
# lists do: of the memory nodes 0,2, +1 is node 2 (before: libnuma's node
# 1, the CPU-only one)
allocbench run --wide --alloc=kmalloc_node --node=+1 --trials=20 --json -q -o /tmp/rel.json 2>/tmp/rel.err
if grep -q '"node":2' /tmp/rel.json && ! grep -q '"node":1[,}]' /tmp/rel.json; then
	ok "placement: --node=+1 is the second memory node, node 2"
else
	notok "placement: --node=+1 ($(cat /tmp/rel.err) $(grep -o '"node":[0-9-]*' /tmp/rel.json | sort | uniq -c | tr '\n' ' '))"
fi
expect 2 "a relative node beyond this process's 2 allowed nodes (0,2: +0 to +1" "placement: --node=+2 beyond the 2 memory nodes refused" -- \
	allocbench run --wide --alloc=kmalloc_node --node=+2 --trials=20 -q
# "all" is what numactl makes it: the nodes this process may use, here
# the CPU nodes 0,1 and the memory nodes 0,2 (not every possible node)
allocbench sweep --wide --alloc=kmalloc_node --sizes=4K --trials=10 --cpu-nodes=all --mem-nodes=all --csv >/tmp/all.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ cells++; pairs = pairs " cpu" $col["cpu"] ">node" $col["target_node"] }
	END { print pairs; exit !(cells == 4) }' /tmp/all.csv >/tmp/all.pairs &&
	ok "placement: sweep --cpu-nodes=all --mem-nodes=all covers CPU nodes 0,1 x memory nodes 0,2 ($(cat /tmp/all.pairs))" ||
	notok "placement: sweep --cpu-nodes=all --mem-nodes=all ($(head -c 400 /tmp/all.csv))"
allocbench sweep --wide --alloc=kmalloc_node,alloc_pages_node --sizes=4K --trials=20 --csv >/tmp/sw.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ cells++; if ($col["node_hits"] != $col["node_checked"]) bad = 1 }
	END { exit !(cells == 8 && !bad) }' /tmp/sw.csv &&
	ok "placement: sweep covers CPU nodes 0,1 x memory nodes 0,2, all hits on the node" ||
	notok "placement: sweep cells ($(head -c 400 /tmp/sw.csv))"
exit 0
