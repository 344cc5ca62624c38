#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cli.sh [ALLOCBENCH] - the command line on the host, where no module is
# loaded: usage errors are named and exit 2 before any backend is asked;
# a missing module is exit 3 with the way forward. TAP lines.
ab=${1:-./allocbench}

. "$(dirname "$0")/../lib.sh"

# ab_expect STATUS PATTERN NAME -- ARGS...: lib.sh's expect of
# allocbench ARGS, its lines "host cli: NAME"
ab_expect() {
	ae_w=$1 ae_p=$2 ae_n=$3
	shift 4
	expect "$ae_w" "$ae_p" "host cli: $ae_n" -- "$ab" "$@"
}

ab_expect 0 "allocbench 0" "--version" -- --version
ab_expect 0 "commands:" "--help lists the commands" -- --help
ab_expect 2 "usage:" "no command is a usage error" --
ab_expect 2 "'frobnicate' is not a command" "unknown command" -- frobnicate
ab_expect 2 "--size=0: an object needs at least 1 byte" "--size=0" -- run --size=0
ab_expect 2 "--size=abc: not a size" "--size=abc" -- run --size=abc
ab_expect 2 "--size=1.5M: not a size" "--size=1.5M" -- run --size=1.5M
ab_expect 2 "--trials=-1: must be an integer" "--trials=-1" -- run --trials=-1
ab_expect 2 "--batch=0: must be an integer from 1" "--batch=0" -- run --batch=0
ab_expect 2 "--warmup=x: must be an integer from 0" "--warmup=x" -- run --warmup=x
ab_expect 2 "--order=-2: not a page order" "--order=-2" -- run --order=-2
# --order names a page order: refused where no strategy takes one, and
# beside --size (both were accepted, --order winning: malloc ran 32 KiB)
ab_expect 2 "^allocbench: --order=3: malloc takes no page order" "--order for a strategy without orders" -- run --backend=user --alloc=malloc --order=3
ab_expect 2 "^allocbench: --order=0,2: malloc takes no page order" "--order=LIST for a strategy without orders" -- run --backend=user --alloc=none,malloc --order=0,2
ab_expect 2 "^allocbench: --order=3 with --size=64: give one of them" "--order with --size" -- run --backend=user --alloc=malloc --order=3 --size=64
ab_expect 2 "^allocbench: --order=2: calloc takes no page order" "compare --order for strategies without orders" -- compare --backend=user --alloc=calloc,malloc --order=2
ab_expect 2 "^allocbench: --order=1 with --size=4K: give one of them" "compare --order with --size" -- compare --backend=user --alloc=calloc,malloc --size=4K --order=1
ab_expect 2 "^allocbench: sweep: --orders=0-2: malloc takes no page order" "sweep --orders for a strategy without orders" -- sweep --backend=user --alloc=malloc --orders=0-2
ab_expect 2 "^allocbench: sweep: --orders=1 with --sizes=64: give one of them" "sweep --orders with --sizes" -- sweep --backend=user --alloc=malloc --orders=1 --sizes=64
ab_expect 2 "--node=-3: not a node list" "--node=-3" -- run --node=-3
ab_expect 2 "--gfp=GFP_DMA: unknown GFP choice" "--gfp=GFP_DMA" -- run --gfp=GFP_DMA
ab_expect 2 "--bogus: unknown option" "unknown option" -- run --bogus
ab_expect 2 "unexpected argument 'kmalloc'" "stray argument" -- run kmalloc
ab_expect 2 "--backend=gpu: unknown backend" "--backend=gpu" -- run --backend=gpu
ab_expect 0 "--alloc=LIST" "run --help" -- run --help
ab_expect 0 "--alloc=LIST" "help run shows run's options" -- help run
ab_expect 2 "'nosuch' is not a command" "help nosuch" -- help nosuch
if [ ! -e /dev/allocbench ]; then
	ab_expect 3 "module not loaded: \`sudo make load\`, or try the embedded kernel: \`make demo\`" \
		"no module: status 3 and the way forward" -- run --alloc=kmalloc --size=4096
	ab_expect 0 "kmod: unavailable: /dev/allocbench: module not loaded" "list says why the kmod backend is unavailable" -- list
	ab_expect 3 "module not loaded" "info without the module" -- info
fi
ab_expect 2 "--timing=often: unknown timing mode" "--timing=often" -- run --timing=often
ab_expect 2 "--free=random: unknown free pattern" "--free=random" -- run --free=random
ab_expect 2 "--context=softirq: unknown loop context" "--context=softirq" -- run --context=softirq
ab_expect 2 "--seed=x: not a seed" "--seed=x" -- run --seed=x
ab_expect 2 "which experiment" "reproduce without a name" -- reproduce
ab_expect 2 "unknown experiment" "reproduce nosuch" -- reproduce nosuch
# every step is checked against the backend before anything is printed
# (2002-lookup printed its header, then failed on --alloc=kmalloc_class,
# an option nobody gave; 2019-scatterlist named --alloc=get_free_pages)
err=$(mktemp)
for e in "2002-lookup:part 1 times kmalloc_class" "2019-scatterlist:it times get_free_pages"; do
	out=$("$ab" reproduce "${e%%:*}" --backend=user 2>"$err")
	st=$?
	if [ "$st" = 2 ] && [ -z "$out" ] && [ "$(wc -l <"$err")" = 1 ] &&
		grep -q "^allocbench: reproduce ${e%%:*}: ${e#*:}, which the user backend does not have" "$err"; then
		ok "host cli: reproduce ${e%%:*} --backend=user refused before printing anything, naming the experiment and why"
	else
		notok "host cli: reproduce ${e%%:*} --backend=user (exit $st; stdout $(printf '%s' "$out" | head -c 100); stderr $(head -c 200 "$err"))"
	fi
done
rm -f "$err"
if [ -w /dev/full ]; then
	out=$("$ab" --version 2>&1 >/dev/full)
	st=$?
	out2=$("$ab" list -o /dev/full 2>&1)
	st2=$?
	if [ "$st" = 1 ] && printf '%s' "$out" | grep -q "cannot write the output (standard output): No space left on device" &&
		[ "$st2" = 1 ] && printf '%s' "$out2" | grep -q "cannot write the output (/dev/full): No space left on device"; then
		ok "host cli: output to a full disk is an error naming where it went"
	else
		notok "host cli: output to a full disk is an error (exit $st: $out; -o: exit $st2: $out2)"
	fi
fi

# lookup runs in this process with the user backend: no module needed
ab_expect 0 "constant 4096" "lookup --backend=user" -- lookup --backend=user --trials=20
# an event named twice is refused up front, in every command that counts
ab_expect 2 "^allocbench: --events=task-clock,task-clock: task-clock is named twice; name each event once$" \
	"run --events naming one event twice" -- run --backend=user --alloc=malloc --trials=5 --events=task-clock,task-clock
ab_expect 2 "--events=page-faults,task-clock,page-faults: page-faults is named twice" \
	"compare --events naming one event twice" -- compare --backend=user --alloc=malloc,none --rounds=7 --trials=14 --events=page-faults,task-clock,page-faults
ab_expect 2 "--events=task-clock,task-clock: task-clock is named twice" \
	"lookup --events naming one event twice" -- lookup --backend=user --trials=5 --events=task-clock,task-clock
# --condition and --background: a combination the man page rules out is
# refused before anything runs (before: the baseline ran, then status 1;
# --alloc=none ran with neither; a load that could not start "ran through
# the trials")
ab_expect 2 "^allocbench: --condition=pressure: the user backend cannot build memory conditions" \
	"run --condition with the user backend" -- run --backend=user --condition=pressure --trials=5
ab_expect 2 "^allocbench: --condition=fragmented: the user backend cannot" \
	"sweep --condition with the user backend" -- sweep --backend=user --alloc=malloc --sizes=64 --trials=5 --condition=fragmented
ab_expect 2 "^allocbench: --condition=vmap-fragmented: the user backend cannot" \
	"compare --condition with the user backend" -- compare --backend=user --alloc=malloc,calloc --rounds=7 --trials=14 --condition=vmap-fragmented
ab_expect 2 "^allocbench: --background: none allocates nothing, and no row of it would run beside the load" \
	"--background with the none baseline alone" -- run --backend=user --alloc=none --trials=5 --background='sleep 1'
ab_expect 2 "^allocbench: --background='/nonexistent/cmd': /nonexistent/cmd: No such file or directory; give a command sh -c can start" \
	"--background naming no file" -- run --backend=user --alloc=malloc --trials=5 --background=/nonexistent/cmd
ab_expect 2 "^allocbench: --background='LANG=C nosuchcmd-ab -x': nosuchcmd-ab: not found" \
	"--background whose command is not in PATH" -- run --backend=user --alloc=malloc --trials=5 --background='LANG=C nosuchcmd-ab -x'
load=$(mktemp)
printf 'sleep 5\n' >"$load"
chmod 644 "$load"
ab_expect 2 "^allocbench: --background='$load': $load: not executable" \
	"--background naming a file that is not executable" -- run --backend=user --alloc=malloc --trials=5 --background="$load"
rm -f "$load"
ab_expect 2 "^allocbench: --background='while do': sh -n finds a syntax error" \
	"--background with a syntax error" -- sweep --backend=user --alloc=malloc --sizes=64 --trials=5 --background='while do'
ab_expect 2 "^allocbench: --background='/nonexistent/cmd'" \
	"compare --background naming no file" -- compare --backend=user --alloc=malloc,calloc --rounds=7 --trials=14 --background=/nonexistent/cmd
# ... and what the load did is what its wait status says: one that was
# still running is stopped, one that ended says how
ab_expect 0 "background: sh -c 'sleep 5' (running when the trials ended, then stopped by SIGTERM)" \
	"--background still running when the trials end" -- run --backend=user --alloc=malloc --trials=5 --background='sleep 5'
out=$("$ab" run --backend=user --alloc=malloc --trials=5 --background='exit 3' 2>&1)
case $out in
*"background: sh -c 'exit 3' (ended before the trials did, exit status 3)"* | \
	*"background: sh -c 'exit 3' (running when the trials ended, then stopped by SIGTERM)"* | \
	*"background: sh -c 'exit 3' (running when the trials ended; exit status 3 once stopped)"*)
	ok "host cli: --background that exits: its end as it was, early or stopped" ;;
*) notok "host cli: --background that exits ($(printf '%s' "$out" | grep background: | head -c 200))" ;;
esac
ab_expect 0 "^note: loguniform:8-8K: seed 3$" "lookup --dist with a seed" -- \
	lookup --backend=user --dist=loguniform:8-8K --seed=3 --count=200 --trials=10
ab_expect 0 "sizes,method,table" "lookup --csv" -- lookup --backend=user --csv --trials=10 --method=kernel,bsr
ab_expect 0 "table 2002" "lookup --table=2002" -- lookup --backend=user --table=2002 --trials=10
ab_expect 2 "--method=sometimes: unknown lookup method" "lookup --method=sometimes" -- lookup --method=sometimes
ab_expect 2 "--table=1990: unknown class table" "lookup --table=1990" -- lookup --table=1990
ab_expect 2 "use one" "lookup with two sources of sizes" -- lookup --size=32 --dist=const:8
ab_expect 2 "--dist=gauss:3: unknown distribution" "lookup --dist=gauss:3" -- lookup --dist=gauss:3
ab_expect 2 "--size=32,abc" "lookup --size=32,abc" -- lookup --size=32,abc
ab_expect 2 "--sizes-from=/nonexistent: No such file" "lookup --sizes-from missing" -- lookup --sizes-from=/nonexistent
tmp=$(mktemp)
printf '64\nsomething else\n' >"$tmp"
ab_expect 2 "$tmp:2: no size" "lookup --sizes-from names the bad line" -- lookup --backend=user --sizes-from="$tmp"
printf '  x-1 [000] 1.0: kmalloc: call_site=a ptr=1 bytes_req=72 bytes_alloc=96 gfp_flags=GFP_KERNEL\n  x-1 [000] 1.1: kmalloc: call_site=a ptr=2 bytes_req=200 bytes_alloc=256 gfp_flags=GFP_KERNEL\n' >"$tmp"
ab_expect 0 '"lookups_per_pass":2,' "lookup --sizes-from replays ftrace kmem:kmalloc text" -- \
	lookup --backend=user --sizes-from="$tmp" --trials=10 --json
rm -f "$tmp"
tmp=$(mktemp -d)
"$ab" lookup --backend=user --trials=5 --size=64 --json -o "$tmp/l.json"
ab_expect 0 "" "plot a saved lookup as SVG" -- plot "$tmp/l.json" -o "$tmp/l.svg"
ab_expect 2 "must end in .svg or .png" "plot -o with another extension" -- plot "$tmp/l.json" -o "$tmp/l.gif"
ab_expect 4 "/etc/hostname: not JSON: line 1" "plot a file that is not a result: status 4, file named" -- plot /etc/hostname -o "$tmp/x.svg"
ab_expect 2 "usage: allocbench plot" "plot without -o" -- plot "$tmp/l.json"
ab_expect 0 '"schema_version":1' "--json has a schema version" -- lookup --backend=user --trials=5 --size=8 --json
ab_expect 2 "-o /nonexistent/x: cannot write there" "-o to a missing directory" -- lookup --backend=user -o /nonexistent/x
# a refused --fifo is an unavailable facility (status 3), as the man page says
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ab" run --backend=user --alloc=malloc --fifo --trials=5 2>&1)
	st=$?
	if [ "$st" = 3 ] && printf '%s' "$out" | grep -q "cannot switch to SCHED_FIFO"; then
		echo "ok - host cli: a refused --fifo exits 3"
	else
		echo "not ok - host cli: a refused --fifo exits 3 (got $st: $out)"
	fi
fi
# compare of saved files: the none row is raw, and says so
"$ab" run --backend=user --alloc=none,malloc --trials=20 --json -o "$tmp/n1.json" -q
"$ab" run --backend=user --alloc=none,malloc --trials=20 --json -o "$tmp/n2.json" -q
ab_expect 0 "none [0-9]* B: old (A) against new (B), raw ns/op" "compare --wide of saved files labels the none row raw" -- compare --wide "$tmp/n1.json" "$tmp/n2.json"
ab_expect 0 "malloc [0-9]* B: old (A) against new (B), net ns/op" "compare --wide of saved files labels strategy rows net" -- compare --wide "$tmp/n1.json" "$tmp/n2.json"
ab_expect 0 "^note: none [0-9]* B: raw ns/op, the others net$" "compare of saved files: a note says the none row is raw" -- compare "$tmp/n1.json" "$tmp/n2.json"
# labels longer than 18 characters keep the table aligned
"$ab" run --wide --backend=user --alloc=numa_alloc_onnode,malloc --concurrent --cpu=0-1 --trials=5 -q >"$tmp/wide.txt" 2>&1
if awk '/^strategy / { on = 1; w = index($0, "object"); next } on && /^$/ { exit } on && index($0, " 4K ") + 1 != w { bad = 1 } END { exit bad }' "$tmp/wide.txt"; then
	echo "ok - host cli: rows with long labels stay aligned under their header"
else
	echo "not ok - host cli: rows with long labels stay aligned under their header ($(head -c 600 "$tmp/wide.txt"))"
fi
ab_expect 0 "module:            none (the user backend" "info --backend=user names no module" -- info --backend=user
ab_expect 0 "nr_node_ids:       [1-9]" "info --backend=user counts node ids as the kernel does" -- info --backend=user
# -o never empties an input: compare's files, lookup's --sizes-from
cp "$tmp/n1.json" "$tmp/n3.json"
ab_expect 2 "that is the input file" "compare -o naming one of its inputs refused" -- compare "$tmp/n1.json" "$tmp/n3.json" -o "$tmp/n3.json"
cmp -s "$tmp/n1.json" "$tmp/n3.json" && echo "ok - host cli: ... and the input is untouched" || echo "not ok - host cli: compare -o emptied its input"
echo 64 >"$tmp/sz.txt"
ab_expect 2 "that is the input file" "lookup -o naming its --sizes-from refused" -- lookup --backend=user --sizes-from="$tmp/sz.txt" -o "$tmp/sz.txt"
[ "$(cat "$tmp/sz.txt")" = 64 ] && echo "ok - host cli: ... and the sizes file is untouched" || echo "not ok - host cli: lookup -o emptied --sizes-from"
# one spelling per concept, and never an empty error line
ab_expect 0 "64" "sweep takes --size as run and lookup do" -- sweep --backend=user --alloc=malloc --size=64 --trials=5 --warmup=0
# GFP flags only where they apply (ab_strategy_gfp_name()): userspace
# allocators take none, so no output says GFP_KERNEL for them
out=$("$ab" run --wide --backend=user --alloc=malloc --size=64 --trials=5 -q 2>&1)
js=$("$ab" run --backend=user --alloc=malloc --size=64 --trials=5 -q --json 2>/dev/null)
csv=$("$ab" run --backend=user --alloc=malloc --size=64 --trials=5 -q --csv 2>/dev/null)
if printf '%s\n' "$out" | grep -q ", no GFP flags (userspace)," &&
	! printf '%s\n%s\n%s\n' "$out" "$js" "$csv" | grep -q "GFP_" &&
	printf '%s' "$js" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["parameters"]["gfp"] is None and all(r["gfp"] is None for r in d["results"])' &&
	printf '%s\n' "$csv" | python3 -c 'import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows and all(r["gfp"] == "" for r in rows)'; then
	ok "host cli: the user backend's text, JSON (null) and CSV (empty) say no GFP flags alike"
else
	notok "host cli: the user backend's GFP flags ($(printf '%s\n%s' "$js" "$csv" | grep -i gfp | head -c 300))"
fi
ab_expect 2 "--gfp=atomic: malloc takes no GFP flags (a userspace allocator)" "--gfp for a userspace allocator names why" -- \
	run --backend=user --alloc=malloc --gfp=atomic
# sweep --events shows what it counted, one line per cell, as run does
out=$("$ab" sweep --backend=user --alloc=malloc --sizes=64,128 --trials=5 --events=task-clock -q 2>&1)
if printf '%s\n' "$out" | grep -q "^counters per op" &&
	printf '%s\n' "$out" | grep -q "^malloc 64 n0 *[0-9.-]*$" &&
	printf '%s\n' "$out" | grep -q "^malloc 128 n0 *[0-9.-]*$"; then
	ok "host cli: sweep --events shows the counts per cell"
else
	notok "host cli: sweep --events shows no counts ($(printf '%s' "$out" | tail -n 5 | head -c 300))"
fi
# a cell whose every allocation failed (mmap under a small address-space
# limit) has no median: n/a in text, null in JSON, empty in CSV, never nan
out=$( (ulimit -v 150000 && "$ab" sweep --wide --backend=user --alloc=mmap --sizes=256M --batch=1 --trials=3 -q) 2>&1)
js=$( (ulimit -v 150000 && "$ab" sweep --backend=user --alloc=mmap --sizes=256M --batch=1 --trials=3 -q --json) 2>/dev/null)
csv=$( (ulimit -v 150000 && "$ab" sweep --backend=user --alloc=mmap --sizes=256M --batch=1 --trials=3 -q --csv) 2>/dev/null)
if printf '%s\n' "$out" | grep -q "^node 0 *n/a (none allocated) \[10\]" &&
	! printf '%s\n%s\n%s\n' "$out" "$js" "$csv" | grep -qi "nan" &&
	printf '%s' "$js" | python3 -c 'import json, sys
r = json.load(sys.stdin)["results"][0]
assert r["objects"] == 0 and r["alloc"]["ns"]["median"] is None' &&
	printf '%s\n' "$csv" | python3 -c 'import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows[0]["objects"] == "0" and rows[0]["alloc_median_ns"] == ""'; then
	ok "host cli: sweep: an all-failed cell is n/a in text, null in JSON, empty in CSV"
else
	notok "host cli: sweep: an all-failed cell ($(printf '%s' "$out" | grep -A2 'size 256M' | head -c 300))"
fi
for c in run sweep compare lookup reproduce topology plot list info help; do
	if "$ab" $c --nosuch 2>&1 | grep -q '^allocbench: *$'; then
		echo "not ok - host cli: $c --nosuch prints an empty error line"
	else
		echo "ok - host cli: $c --nosuch prints no empty error line"
	fi
done
rm -rf "$tmp"

# manual pages: `help CMD` opens them, and each documents every option
ab_expect 0 "allocbench-run - run allocation strategies" "help run opens the manual page" -- help run
ab_expect 0 "allocbench - measure kernel allocation paths" "help opens allocbench(1)" -- help
for c in run sweep compare lookup reproduce topology plot export list info; do
	page=man/allocbench-$c.1
	missing=""
	for o in $("$ab" $c --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		case $o in --help | --usage) continue ;; esac
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$page" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then ok "host cli: $page documents every option of $c"; else notok "host cli: $page lacks$missing"; fi
done
# ... and names every set --isolate can leave behind, with how to remove
# it (a SIGKILLed run left allocbench-PID+cpuset, which it did not name)
pre=$(sed -n 's/^#define SET_PREFIX *"\(.*\)"$/\1/p' lib/kernel/isolate.c)
suf=$(sed -n 's/^#define OWES_SUFFIX *"\(.*\)"$/\1/p' lib/kernel/isolate.c)
missing=""
for n in "${pre}PID" "${pre}PID$suf" "${pre}0$suf" rmdir cpuset.cpus.partition "-cpuset > "; do
	grep -qF -- "$(printf '%s' "$n" | sed 's/-/\\-/g')" man/allocbench-run.1 || missing="$missing '$n'"
done
if [ -n "$pre" ] && [ -n "$suf" ] && [ -z "$missing" ]; then
	ok "host cli: allocbench-run(1) names every set --isolate can leave (${pre}PID, ${pre}PID$suf, ${pre}0$suf) and how to remove it"
else
	notok "host cli: allocbench-run(1) lacks$missing (prefix '$pre', suffix '$suf' from lib/kernel/isolate.c)"
fi

# the user backend: userspace allocators in this process, no module, no root
for size in 8 4K 1M; do
	out=$("$ab" run --backend=user --alloc=none,malloc,calloc,posix_memalign,mmap,numa_alloc_onnode,tcmalloc,mimalloc --size=$size --trials=20 --csv 2>&1)
	st=$?
	rows=$(printf '%s\n' "$out" | awk -F, 'NR > 1 && $17 == 0' | wc -l)
	if [ "$st" = 0 ] && [ "$rows" = 8 ]; then
		ok "host cli: user backend, every strategy, size $size, no failure"
	else
		notok "host cli: user backend, size $size (exit $st, $rows rows: $(printf '%s' "$out" | head -c 300))"
	fi
done
out=$("$ab" run --backend=user --alloc=numa_alloc_onnode,malloc --node=0 --cpu=0 --trials=20 --write --csv 2>&1)
if printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["node_checked"] == 0 || $c["node_hits"] != $c["node_checked"]) bad = 1 }
	END { exit !(n == 2 && !bad) }'; then
	ok "host cli: user backend node placement verified with get_mempolicy"
else
	notok "host cli: user backend node placement ($(printf '%s' "$out" | head -c 300))"
fi
if GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 "$ab" run --backend=user --alloc=jemalloc --size=64 --trials=10 -q 2>&1 | grep -q "^jemalloc "; then
	ok "host cli: jemalloc through dlopen with the static TLS tunable"
else
	notok "host cli: jemalloc through dlopen with the static TLS tunable"
fi
ab_expect 0 "jemalloc: libjemalloc.so.2 cannot be loaded with dlopen here" "list says why jemalloc is unavailable" -- list
ab_expect 0 "posix_memalign" "user backend --align" -- run --backend=user --alloc=posix_memalign --align=4K --trials=10 -q
ab_expect 2 "^allocbench: --pool-min=4: none of these strategies has a mempool" "--pool-min refused where no strategy has a mempool" -- run --backend=user --alloc=malloc --pool-min=4 --trials=10 -q
ab_expect 2 "^allocbench: --pool-min=0: must be an integer from 1" "--pool-min=0 refused" -- run --backend=user --alloc=malloc --pool-min=0 --trials=10 -q
ab_expect 2 "--align=3: not an alignment" "--align=3 rejected" -- run --backend=user --alloc=posix_memalign --align=3
ab_expect 2 "none of these strategies takes an alignment" "--align without posix_memalign" -- \
	run --backend=user --alloc=malloc --align=64
ab_expect 2 "takes no GFP flags" "user backend --gfp=atomic rejected" -- run --backend=user --alloc=malloc --gfp=atomic
ab_expect 0 "^note: signed-rank test on 10 rounds, Holm over 2 tests" "compare with the user backend" -- compare --backend=user --alloc=malloc,mimalloc --trials=50 -q
ab_expect 0 "test: Wilcoxon signed-rank" "compare --wide: the test in full" -- compare --wide --backend=user --alloc=malloc,mimalloc --trials=50 -q
# issue 39.3: the none row under "net of the none baseline" is its own,
# raw: the heading says so (and only when the row is there)
ab_expect 0 "^counters per op (one allocation and its free; net of the none baseline, but the none row's own: raw)" \
	"the counters' heading says the none row is raw" -- \
	run --backend=user --alloc=none,malloc --size=64 --trials=20 --events=task-clock
ab_expect 0 "^counters per op (one allocation and its free; net of the none baseline)$" \
	"without a none row the counters' heading names none" -- \
	run --backend=user --alloc=malloc --size=64 --trials=20 --events=task-clock
# issue 39.3: a baseline on one trial, a net median below zero: said so
ab_expect 0 "^note: the none baseline's median, which the net figures subtract, rests on 1 trial: too few" \
	"run on one trial says the baseline it subtracts rests on one" -- \
	run --wide --backend=user --alloc=malloc --size=64 --batch=2 --trials=1
out=$("$ab" run --backend=user --alloc=malloc,calloc --size=64 --batch=2 --trials=1 --json -q 2>/dev/null)
if printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
notes = "\n".join(d["notes"])
for r in d["results"]:
    for p in ("alloc", "free"):
        m = (r.get(p) or {}).get("ns", {}).get("median")
        if m is not None and m < 0:
            assert r["label"] + ": net median below zero" in notes, (r["label"], p, m)
assert "rests on 1 trial" in notes' 2>/dev/null; then
	ok "host cli: JSON: every net median below zero has its note, and the baseline on one trial"
else
	notok "host cli: JSON: a net median below zero without its note ($(printf '%s' "$out" | grep -A3 '"notes"' | head -c 300))"
fi
# issue 39.3: no busy figure below its own resolution: a pass shorter
# than a /proc/stat tick gives n/a (text) and null (JSON), never "busy
# 100.0% ... one tick is 14821.2%"
out=$("$ab" run --wide --backend=user --alloc=malloc --size=64 --batch=2 --trials=1 2>&1)
if printf '%s\n' "$out" | grep -q "^note: .*other CPUs busy" &&
	! printf '%s\n' "$out" | awk '/one \/proc\/stat tick is/ { sub(/.*tick is /, ""); if ($0 + 0 > 100) bad = 1 } END { exit !bad }'; then
	ok "host cli: no busy figure is printed whose tick is over 100% of the pass"
else
	notok "host cli: a busy figure below its resolution ($(printf '%s' "$out" | grep busy | head -c 300))"
fi
out=$("$ab" run --backend=user --alloc=malloc --size=64 --batch=2 --trials=1 --json -q 2>/dev/null)
if printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); o=[r["other_cpus"] for r in d["results"] if r.get("other_cpus")]; assert o and all((c["busy_pct"] is None) == (c["resolution_pct"] > 100) for c in o)' 2>/dev/null; then
	ok "host cli: JSON other_cpus.busy_pct is null exactly where a tick is over 100% of the pass"
else
	notok "host cli: JSON other_cpus below its resolution ($(printf '%s' "$out" | grep -A3 other_cpus | head -c 300))"
fi
# ... and sweep's summary names a busiest pass only among those with a
# figure (each shorter than a tick: it says there is none)
out=$("$ab" sweep --wide --backend=user --alloc=malloc --sizes=16,64 --batch=2 --trials=1 2>&1)
if printf '%s\n' "$out" | grep -q "^note: 3 timed passes, " &&
	! printf '%s\n' "$out" | grep -q "the most surely busy in .*busy n/a"; then
	ok "host cli: sweep's busy summary never names a pass without a figure as the busiest"
else
	notok "host cli: sweep's busy summary ($(printf '%s' "$out" | grep 'timed passes' | head -c 300))"
fi
# issue 39.3: Holm adjusts p, not the interval: the interval says so
ab_expect 0 "^phase .*\[unadj. 95% CI of B / A\]" "compare --wide labels its interval unadjusted" -- compare --wide --backend=user --alloc=malloc,calloc --trials=20 -q
ab_expect 0 "^phase .*\[95% CI, unadj.\]" "compare labels its interval unadjusted" -- compare --backend=user --alloc=malloc,calloc --trials=20 -q
out=$("$ab" compare --backend=user --alloc=malloc,calloc --trials=20 -q --json 2>/dev/null)
if printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); ph=d["compare"]["phases"]; assert ph and all(p["ci_adjusted"] is False for p in ph)' 2>/dev/null; then
	ok "host cli: compare --json: every phase's ci_adjusted is false"
else
	notok "host cli: compare --json: ci_adjusted missing ($(printf '%s' "$out" | head -c 300))"
fi
ab_expect 0 "shuffle" "user backend single timing and shuffled frees" -- \
	run --backend=user --alloc=malloc --timing=single --free=shuffle --trials=20 -q
ab_expect 0 "alloc+free ns/op" "user backend pairs" -- run --backend=user --alloc=calloc --free=pair --trials=20 -q
# issue 21: batch-timed pairs have one loop, alloc and free: so named in
# the values line, the cycles column and the distribution, no "free nan"
out=$("$ab" run --wide --backend=user --alloc=calloc --free=pair --trials=20 --histogram 2>&1)
if printf '%s\n' "$out" | grep -q "^values: .*(alloc+free [0-9.]* cycles)" &&
	! printf '%s\n' "$out" | grep -q "nan" &&
	printf '%s\n' "$out" | grep -q "^strategy .* alloc+free  *free  *failed" &&
	printf '%s\n' "$out" | grep -q "^calloc  *alloc+free  *20 " &&
	printf '%s\n' "$out" | grep -q "^histogram: calloc alloc+free,"; then
	ok "user backend pairs: values line, cycles column, distribution and histogram say alloc+free"
else
	notok "user backend pairs labelled alloc+free: $(printf '%s' "$out" | grep -e '^values' -e '^strategy' -e '^calloc' -e '^histogram' | head -c 600)"
fi
ab_expect 0 "malloc@cpu" "user backend concurrent runs" -- \
	run --backend=user --alloc=malloc --cpu=all --concurrent --trials=20 -q
ab_expect 3 "or time userspace allocators with --backend=user" "no module: the way forward names --backend=user" -- run
out=$("$ab" run --backend=user --alloc=numa_alloc_onnode --size=1M --trials=20 --csv 2>&1)
if printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($c["node_checked"] == 0) }'; then
	ok "host cli: untouched userspace blocks are not counted as node misses"
else
	notok "host cli: untouched blocks ($(printf '%s' "$out" | head -c 200))"
fi
tmp=$(mktemp -d)
printf '{"schema":"allocbench-result","schema_version":1,"command":"run","results":5}' >"$tmp/bad.json"
ab_expect 4 "bad.json: results: a number, not an array" "plot refuses a result whose results are not a list" -- plot "$tmp/bad.json" -o "$tmp/x.png"
ab_expect 4 "bad.json: results: a number, not an array" "compare refuses it too" -- compare "$tmp/bad.json" "$tmp/bad.json"

# output safety: whatever a name or a label holds, it reaches gnuplot as
# data, the input is never written, and JSON and CSV stay well-formed
"$ab" run --backend=user --alloc=malloc,posix_memalign --trials=20 --json -o "$tmp/r.json" 2>/dev/null
cp "$tmp/r.json" "$tmp/r.orig"
cp "$tmp/r.json" "$tmp/r.orig.json"
out=$("$ab" plot "$tmp/r.json" -o "$tmp/r.json'x.svg" 2>&1)
st=$?
if [ "$st" = 0 ] && cmp -s "$tmp/r.json" "$tmp/r.orig" && grep -q '<svg' "$tmp/r.json'x.svg"; then
	ok "host cli: plot -o NAME'x.svg writes that file and leaves the input alone"
else
	notok "host cli: plot -o NAME'x.svg (exit $st: $out; input $(cmp -s "$tmp/r.json" "$tmp/r.orig" && echo intact || echo CHANGED))"
fi
cp "$tmp/r.orig" "$tmp/r.json"
"$ab" plot "$tmp/r.json" -o "$tmp/it's.svg" >/dev/null 2>&1
if [ -s "$tmp/it's.svg" ] && [ ! -e "$tmp/it" ]; then
	ok "host cli: plot -o it's.svg writes it's.svg"
else
	notok "host cli: plot -o it's.svg ($(ls "$tmp" | tr '\n' ' '))"
fi
"$ab" plot "$tmp/r.json" -o /nonexistent/dir/x.svg >"$tmp/stdout" 2>"$tmp/stderr"
st=$?
if [ "$st" = 2 ] && [ ! -s "$tmp/stdout" ] && [ "$(wc -l <"$tmp/stderr")" = 1 ] &&
	grep -q "/nonexistent/dir/x.svg: cannot write there: No such file or directory" "$tmp/stderr"; then
	ok "host cli: plot -o into a missing directory: one error line, nothing on stdout"
else
	notok "host cli: plot -o into a missing directory (exit $st, $(wc -c <"$tmp/stdout") bytes on stdout: $(head -c 200 "$tmp/stderr"))"
fi
cp "$tmp/r.json" "$tmp/r.svg"
ab_expect 2 "that is the result" "plot -o the input itself is refused" -- plot "$tmp/r.svg" -o "$tmp/r.svg"
if cmp -s "$tmp/r.svg" "$tmp/r.orig"; then ok "host cli: plot never overwrites its input"; else notok "host cli: plot overwrote its input"; fi
"$ab" plot "$tmp/r.json" -o "$tmp/x.PNG" >/dev/null 2>&1
if [ "$(head -c 4 "$tmp/x.PNG" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ]; then
	ok "host cli: plot -o x.PNG (the extension in any case)"
else
	notok "host cli: plot -o x.PNG"
fi
"$ab" plot "$tmp/r.json" -o "$tmp/u.svg" >/dev/null 2>&1
if grep -q '>posix_memalign alloc<' "$tmp/u.svg"; then
	ok "host cli: plot draws underscores as they are (no subscript)"
else
	notok "host cli: plot draws posix_memalign as $(grep -o '<text>posix[^/]*' "$tmp/u.svg" | head -n 1)"
fi
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/r.json"))
d["results"][0]["label"] = ("x'\"`touch %s/PWNED1`\nEOD\nsystem('touch %s/PWNED2')\n"
                            "@x %%d a_b ^{2}" % (t, t))
json.dump(d, open(t + "/evil.json", "w"))
PY
"$ab" plot "$tmp/evil.json" -o "$tmp/e.svg" >/dev/null 2>&1
st=$?
if [ "$st" = 0 ] && [ ! -e "$tmp/PWNED1" ] && [ ! -e "$tmp/PWNED2" ] &&
	grep -q "EOD.system('touch $tmp/PWNED2').@x %d a_b ^{2} alloc<" "$tmp/e.svg" &&
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/e.svg"; then
	ok "plot: a label cannot run gnuplot commands, and is drawn as it is"
else
	notok "plot: a label cannot run gnuplot commands, and is drawn as it is (exit $st)"
fi
bad=$(printf '%s/s\377,"q".txt' "$tmp")
printf '64\n128\n' >"$bad"
if "$ab" lookup --backend=user --trials=5 --sizes-from="$bad" --json | python3 -m json.tool >/dev/null 2>&1; then
	ok "host cli: lookup --json with a file name that is not UTF-8 is valid JSON"
else
	notok "host cli: lookup --json with a file name that is not UTF-8 is not valid JSON"
fi
"$ab" lookup --backend=user --trials=3 --method=bsr --sizes-from="$bad" --csv >"$tmp/l.csv" 2>/dev/null
if python3 - "$tmp/l.csv" "$bad" <<'PY'; then
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="latin-1", newline="")))
name = sys.argv[2].encode("utf-8", "surrogateescape").decode("latin-1")
assert len(rows) == 3 and all(len(r) == 13 for r in rows), rows
assert all(r[0] == name for r in rows[1:]), rows
assert not any(f.lower() in ("nan", "inf", "-nan") for r in rows for f in r), rows
assert rows[1][7] == "" and rows[1][8] == "", rows  # 3 passes: no interval
# none looks up no class: no class sum; bsr's is the classes' sum
assert rows[0][12] == "class_sum" and rows[1][1] == "none" and rows[1][12] == "", rows
assert rows[2][1] == "bsr" and int(rows[2][12]) > 0, rows
PY
	ok "host cli: lookup --csv quotes a name with a comma and a quote, undefined values empty (none's class sum too)"
else
	notok "host cli: lookup --csv ($(head -c 300 "$tmp/l.csv"))"
fi

# saved results: each reader names the file and the field, status 4
: >"$tmp/empty.json"
ab_expect 4 "compare: $tmp/missing.json: cannot read: No such file or directory" "compare a missing file" -- compare "$tmp/missing.json" "$tmp/r.json"
ab_expect 4 "compare: $tmp/empty.json: empty file" "compare an empty file" -- compare "$tmp/r.json" "$tmp/empty.json"
head -c 200 "$tmp/r.json" >"$tmp/cut.json"
ab_expect 4 "cut.json: not JSON: line [0-9]*: the document ends early" "compare a truncated file" -- compare "$tmp/cut.json" "$tmp/r.json"
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/r.json"))
def save(name, edit):
    e = json.loads(json.dumps(d))
    edit(e)
    json.dump(e, open(t + "/" + name, "w"), allow_nan=True)
save("nan.json", lambda e: e["results"][1]["alloc"]["per_op_ns_sorted"].__setitem__(2, float("nan")))
save("null.json", lambda e: e["results"][0]["free"]["per_op_ns_sorted"].__setitem__(0, None))
save("str.json", lambda e: e["results"][0]["alloc"]["per_op_ns_sorted"].__setitem__(0, "12"))
save("neg.json", lambda e: e["results"][0]["alloc"]["histogram"][0].__setitem__("count", -3))
PY
ab_expect 4 "nan.json: results\[1\].alloc.per_op_ns_sorted\[2\]: NaN, not a finite number" "compare refuses a NaN sample" -- compare "$tmp/nan.json" "$tmp/r.json"
ab_expect 4 "null.json: results\[0\].free.per_op_ns_sorted\[0\]: null, not a number" "compare refuses a null sample" -- compare "$tmp/r.json" "$tmp/null.json"
ab_expect 4 "str.json: results\[0\].alloc.per_op_ns_sorted\[0\]: a string, not a number" "compare refuses a string sample" -- compare "$tmp/str.json" "$tmp/r.json"
ab_expect 4 "neg.json: results\[0\].alloc.histogram\[0\].count: -3, below the minimum 1" "compare refuses a negative count" -- compare "$tmp/neg.json" "$tmp/r.json"
ab_expect 4 "nan.json: results\[1\].alloc.per_op_ns_sorted\[2\]: NaN" "plot refuses a NaN sample" -- plot "$tmp/nan.json" -o "$tmp/n.svg"
out=$("$ab" compare --json "$tmp/r.json" "$tmp/r.orig.json" 2>&1)
if printf '%s' "$out" | python3 -c 'import json, sys
ph = [p for c in json.load(sys.stdin)["comparisons"] for p in c["phases"]]
assert ph and all(p["verdict"] == "cannot conclude: one run per side" for p in ph)' 2>/dev/null; then
	ok "host cli: compare two valid saved results"
else
	notok "host cli: compare two valid saved results ($(printf '%s' "$out" | head -c 300))"
fi
python3 - "$tmp/r.json" "$tmp/cpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["cpu_model"] = "Another CPU 9000"
json.dump(d, open(sys.argv[2], "w"))
PY
ab_expect 0 "come from different CPUs (.*; Another CPU 9000)" "compare warns when the saved results come from different CPUs" -- \
	compare "$tmp/r.json" "$tmp/cpu.json"
python3 - "$tmp/r.json" "$tmp/crng.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["crng_ready"] = not d["environment"].get("crng_ready")
json.dump(d, open(sys.argv[2], "w"))
PY
ab_expect 0 "random number generator \(un\)*seeded, .*crng.json \(un\)*seeded" "compare warns when one saved result ran with the kernel's crng unseeded" -- \
	compare "$tmp/r.json" "$tmp/crng.json"
# a kernel told to hide rep_good (allocbench vm's default TCG guest since
# 2026-12-07) against one that was not: other zeroing code
python3 - "$tmp/r.json" "$tmp/cc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["cmdline"] = "clearcpuid=rep_good " + (d["environment"].get("cmdline") or "")
json.dump(d, open(sys.argv[2], "w"))
PY
ab_expect 0 "told to hide different CPU features (clearcpuid=.*; clearcpuid=rep_good)" \
	"compare warns when the saved results' kernels hid different CPU features (clearcpuid=)" -- \
	compare "$tmp/r.json" "$tmp/cc.json"
ab_expect 2 "binary data, not sizes" "lookup --sizes-from=/dev/zero stops at once" -- lookup --backend=user --sizes-from=/dev/zero
# -o is emptied only by output: a refused command leaves the file as it
# was, and a shorter output leaves nothing of the old file after it
printf 'precious\n' >"$tmp/keep"
ab_expect 2 "unknown strategy" "-o FILE with a refused command ..." -- run --backend=user --alloc=nosuch -o "$tmp/keep"
[ "$(cat "$tmp/keep")" = precious ] && echo "ok - host cli: ... leaves FILE as it was" ||
	echo "not ok - host cli: a refused command emptied its -o FILE"
head -c 200000 /dev/zero | tr '\0' x >"$tmp/long"
"$ab" lookup --backend=user --trials=5 --size=64 --json -q -o "$tmp/long"
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/long" 2>/dev/null; then
	echo "ok - host cli: -o over a longer file: the file is the output alone"
else
	echo "not ok - host cli: -o over a longer file left old bytes after the output"
fi
# --dry-run (issue 39.5): every check, one line, nothing run; a refusal is
# the run's own (status 2), -o's file left as it was
ab_expect 0 "^dry run: run passed every check (the user backend's limits included) and would run 2 rows: malloc, calloc; nothing ran$" \
	"run --dry-run: one line, status 0" -- run --backend=user --alloc=malloc,calloc --dry-run
ab_expect 0 "^dry run: sweep passed every check .* would run 2 rows: malloc 64 n0, malloc 4K n0; nothing ran$" \
	"sweep --dry-run" -- sweep --backend=user --alloc=malloc --sizes=64,4K --dry-run
ab_expect 0 "^dry run: compare passed every check .* would run 14 rows: .*, \.\.\.; nothing ran$" \
	"compare --alloc=A,B --dry-run" -- compare --backend=user --alloc=malloc,calloc --rounds=7 --dry-run
ab_expect 2 "above the .*-byte budget" "run --dry-run refuses what run refuses (a batch above the budget)" -- \
	run --backend=user --alloc=malloc --size=2G --batch=100000 --dry-run
ab_expect 2 "a compare of saved results runs nothing" "compare of saved files with --dry-run refused" -- \
	compare --dry-run a.json b.json
out=$("$ab" run --backend=user --alloc=malloc --dry-run -o "$tmp/dry.out" 2>&1)
if [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && ! [ -e "$tmp/dry.out" ] &&
	[ -z "$("$ab" run --backend=user --alloc=malloc --dry-run 2>&1 | grep -v '^dry run:')" ]; then
	ok "host cli: run --dry-run -o FILE: the line on stderr, no file written; no table printed"
else
	notok "host cli: run --dry-run -o FILE ($out)"
fi
rm -rf "$tmp"
