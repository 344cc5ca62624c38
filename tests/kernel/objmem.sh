#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# objmem.sh - memory per object (issue 21, part 2): the headline B/object
# is what the kernel states one object takes, the same at every batch and
# in text and JSON: a slab object its cache's slab bytes / objs_per_slab
# (as /sys/kernel/slab states them, read here independently: kmalloc-64,
# kmalloc-4k, kmalloc-8k for 64, 4096 and 4097 bytes), a page block
# PAGE_SIZE << order, a vmalloc area its pages, page array and
# bookkeeping. Before the fix it was the new memory the phase took from
# the node: 0 at batch 1, 983 to 1815 at 100 and about 3831 at 1000 for
# kmalloc 4096. Beside it the node counters' figure stays, labelled.
# Sourced by guest.sh, or run alone: make vm-run CMD='sh /ab/objmem.sh'.
. "$(dirname "$0")/lib.sh"

slab=/sys/kernel/slab
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)

# stated CACHE: (PAGE_SIZE << order) / objs_per_slab of CACHE, from sysfs
stated() {
	awk -v s="$((page << $(cat "$slab/$1/order")))" \
		-v n="$(cat "$slab/$1/objs_per_slab")" \
		'BEGIN { printf "%.0f\n", s / n }'
}

# headline LABEL OUTPUT: the B/object of the memory line of LABEL
headline() {
	printf '%s\n' "$2" | sed -n "s/^$1 B: \([^ ]*\) B\/object (.*/\1/p" | head -n 1
}

# jheadline NAME JSON: memory.bytes_per_object of the result labelled NAME
jheadline() {
	printf '%s' "$2" | tr -d ' \n' | sed 's/"label":/\n/g' | grep "^\"$1\"," |
		sed -n 's/.*"memory":{[^}]*"bytes_per_object":\([-0-9.e+]*\).*/\1/p' | head -n 1
}

# group NAME "LABEL=WANT;..." ARGS...: one run of ARGS at batch 1, 100 and
# 1000, in text and in JSON; for each LABEL ("kmalloc 4096", its strategy
# the first word) the headline B/object is WANT in both (WANT "same": one
# figure at every batch), with the node counters' figure labelled beside it
group() {
	name=$1 cases=$2
	shift 2
	bad= seen=
	for b in 1 100 1000; do
		out=$(allocbench run --wide "$@" --batch=$b --trials=2 -q 2>&1)
		js=$(allocbench run "$@" --batch=$b --trials=2 -q --json 2>&1)
		IFS=';'
		for c in $cases; do
			IFS=' '
			label=${c%=*} want=${c##*=}
			t=$(headline "$label" "$out")
			j=$(jheadline "${label%% *}" "$js")
			if [ "$want" = same ]; then
				[ -n "$seen" ] || seen=$t
				want=$seen
			fi
			if [ -z "$t" ] || [ "$t" != "$want" ] ||
				! awk -v a="$t" -v b="$j" 'BEGIN { exit !(b != "" && a == sprintf("%.0f", b)) }' ||
				! printf '%s\n' "$out" | grep -q "^$label B: .*; new memory the phase took from nodes* [0-9,]*: -*[0-9]* B/object (-*[0-9]* to -*[0-9]* over the check trials; "; then
				bad="$bad $label batch $b: text '$t' JSON '$j' want '$want' ($(printf '%s\n' "$out" | grep "^$label B:" | head -c 300))"
			fi
		done
		IFS=' '
	done
	if [ -z "$bad" ]; then
		ok "objmem: $name, at batch 1, 100 and 1000, text and JSON"
	else
		notok "objmem: $name:$bad"
	fi
}

vm=$((page + 8 + 256))
if [ -d "$slab/kmalloc-64" ]; then
	k64=$(stated kmalloc-64) k4k=$(stated kmalloc-4k) k8k=$(stated kmalloc-8k)
	group "kmalloc 64 is kmalloc-64's share of its slab ($k64 B)" "kmalloc 64=$k64" \
		--alloc=kmalloc --size=64
	# vmalloc_node: one page, its 8-byte page array (kmalloc-8), vm_struct
	# and vmap_area counted as the budget counts them (ab_footprint.h)
	group "kmalloc 4096 is kmalloc-4k's share ($k4k B), get_free_pages order 0 a page, vmalloc_node 4096 its page, array and bookkeeping ($vm B)" \
		"kmalloc 4096=$k4k;get_free_pages $page=$page;vmalloc_node 4096=$vm" \
		--alloc=kmalloc,get_free_pages,vmalloc_node --size=4096
	group "kmalloc 4097 is kmalloc-8k's share ($k8k B), get_free_pages order 1 two pages" \
		"kmalloc 4097=$k8k;get_free_pages $((page * 2))=$((page * 2))" \
		--alloc=kmalloc,get_free_pages --size=4097
	# above kmalloc-8k kmalloc takes a block of pages, as get_free_pages
	group "kmalloc 32768 and get_free_pages order 3 are an order-3 block" \
		"kmalloc 32768=$((page * 8));get_free_pages $((page * 8))=$((page * 8))" \
		--alloc=kmalloc,get_free_pages --size=$((page * 8))
	# a plain boot: a 4096-byte object is 4096 B of an order-3 slab of 8
	if ! grep -q slub_debug /proc/cmdline; then
		if [ "$k4k" = 4096 ] && [ "$k8k" = 8192 ] && [ "$k64" = 64 ]; then
			ok "objmem: without slub_debug kmalloc-64, -4k and -8k take 64, 4096 and 8192 B per object"
		else
			notok "objmem: kmalloc-64, -4k, -8k take $k64, $k4k, $k8k B per object"
		fi
	fi
	group "kmem_cache --nomerge 4096: its own cache's share of its slab, one figure" \
		"kmem_cache 4096=same" --alloc=kmem_cache --size=4096 --nomerge
	geo=$(printf '%s\n' "$out" | sed -n 's/^kmem_cache 4096 B: \([0-9]*\) B\/object (allocbench-4096-[0-9]*: an order-\([0-9]*\) slab holds \([0-9]*\) objects of slab_size \([0-9]*\)\(; [a-z0-9 ]*\)\{0,1\}).*/\1 \2 \3 \4/p')
	sb=$((page << $(printf '%s\n' "${geo:-0 0}" | cut -d' ' -f2)))
	if [ -n "$geo" ] && printf '%s\n' "$geo" | awk -v s="$sb" '{ exit !($1 == sprintf("%.0f", s / $3) && $4 >= 4096 && $3 * $4 <= s) }'; then
		ok "objmem: kmem_cache --nomerge names its cache's geometry, B/object = slab bytes / objects ($geo)"
	else
		notok "objmem: kmem_cache --nomerge geometry ('$geo'; $(printf '%s' "$out" | grep B/object | head -c 300))"
	fi
	# --concurrent: each CPU's line states its own objects, and says the
	# node's counters hold the other CPUs' runs
	ncpu=$(grep -c '^processor' /proc/cpuinfo)
	if [ "$ncpu" -ge 2 ]; then
		out=$(allocbench run --wide --alloc=kmalloc --size=4096 --cpu=0,1 --concurrent --trials=2 -q 2>&1)
		n=$(printf '%s\n' "$out" | grep -c "^kmalloc@cpu[01] 4096 B: $k4k B/object (kmalloc-4k: .*new memory the phase took from nodes* [0-9,]*, the other CPUs' runs there included: ")
		if [ "$n" = 2 ]; then
			ok "objmem: --concurrent: each CPU's memory line states its own objects ($k4k B) and says the node's counters hold the other CPUs' runs"
		else
			notok "objmem: --concurrent memory lines ($n of 2; $(printf '%s\n' "$out" | grep B/object | head -c 400))"
		fi
	fi
fi
# the user backend reads no kernel counter and prints no memory line
if ! allocbench run --wide --backend=user --alloc=malloc --trials=5 2>&1 | grep -q 'B/object' &&
	allocbench run --backend=user --alloc=malloc --trials=5 --json 2>/dev/null | tr -d ' \n' | grep -q '"memory":null'; then
	ok "objmem: the user backend prints no memory line, JSON memory null"
else
	notok "objmem: the user backend"
fi
