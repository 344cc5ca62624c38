#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# json.sh - in the guest, print the --json output of every subcommand, each
# after a line "@@JSON name@@", for tests/json/validate.sh on the host to
# check against schema/allocbench-result.schema.json.
doc() {
	name=$1
	shift
	echo "@@JSON $name@@"
	"$@" 2>/dev/null
}
doc run allocbench run --alloc=none,kmalloc,kmem_cache,get_free_pages --trials=30 --json
doc run-single allocbench run --alloc=kmalloc,vmalloc_batch --timing=single --free=shuffle --seed=3 --trials=10 --json
doc run-pair allocbench run --alloc=kmalloc --free=pair --trials=10 --json --events=task-clock
doc run-concurrent allocbench run --alloc=kmalloc --cpu=0-1 --concurrent --trials=10 --json
doc run-explain allocbench run --alloc=kmalloc,get_free_pages --explain --events=kprobe:___slab_alloc --trials=10 --json
doc sweep allocbench sweep --sizes=64,4K --trials=10 --json
doc compare allocbench compare --alloc=kmalloc,kmem_cache --trials=30 --json
doc compare-explain allocbench compare --alloc=kmalloc,get_free_pages --size=4096 --trials=30 --explain --json
doc lookup allocbench lookup --trials=10 --json
doc run-memcg allocbench run --alloc=kmalloc,kmem_cache_account --gfp=kernel,kernel_account --explain --trials=10 --json
doc compare-gfp allocbench compare --alloc=kmalloc --gfp=kernel,kernel_account --trials=70 --json
allocbench run --alloc=kmalloc --trials=20 --json -q -o /tmp/a.json 2>/dev/null
allocbench run --alloc=kmalloc --trials=20 --json -q -o /tmp/b.json 2>/dev/null
doc compare-files allocbench compare /tmp/a.json /tmp/b.json --json
allocbench run --alloc=kmalloc --trials=20 --json -q -o /tmp/a2.json 2>/dev/null
allocbench run --alloc=kmalloc --trials=20 --json -q -o /tmp/b2.json 2>/dev/null
doc compare-runs allocbench compare --json /tmp/a.json /tmp/a2.json -- /tmp/b.json /tmp/b2.json
doc reproduce-2019 allocbench reproduce 2019-scatterlist --json
doc reproduce-2002 allocbench reproduce 2002-lookup --json
doc list allocbench list --json
doc info allocbench info --json
doc topology allocbench topology --json
echo "@@JSON end@@"
