#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cli.sh [ALLOCBENCH] - the command line on the host, where no module is
# loaded: usage errors are named and exit 2 before any backend is asked;
# a missing module is exit 3 with the way forward. TAP lines.
ab=${1:-./allocbench}

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

# expect STATUS PATTERN NAME -- ARGS...
expect() {
	want=$1 pat=$2 name=$3
	shift 4
	out=$("$ab" "$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s\n' "$out" | grep -q -- "$pat"; then
		ok "host cli: $name"
	else
		notok "host cli: $name (exit $got, wanted $want; output: $(printf '%s' "$out" | head -c 300))"
	fi
}

expect 0 "allocbench 0" "--version" -- --version
expect 0 "commands:" "--help lists the commands" -- --help
expect 2 "usage:" "no command is a usage error" --
expect 2 "'frobnicate' is not a command" "unknown command" -- frobnicate
expect 2 "--size=0: an object needs at least 1 byte" "--size=0" -- run --size=0
expect 2 "--size=abc: not a size" "--size=abc" -- run --size=abc
expect 2 "--size=1.5M: not a size" "--size=1.5M" -- run --size=1.5M
expect 2 "--trials=-1: must be an integer" "--trials=-1" -- run --trials=-1
expect 2 "--batch=0: must be an integer from 1" "--batch=0" -- run --batch=0
expect 2 "--warmup=x: must be an integer from 0" "--warmup=x" -- run --warmup=x
expect 2 "--order=-2: not a page order" "--order=-2" -- run --order=-2
expect 2 "--node=-3: not a node list" "--node=-3" -- run --node=-3
expect 2 "--gfp=GFP_DMA: unknown GFP choice" "--gfp=GFP_DMA" -- run --gfp=GFP_DMA
expect 2 "--bogus: unknown option" "unknown option" -- run --bogus
expect 2 "unexpected argument 'kmalloc'" "stray argument" -- run kmalloc
expect 2 "--backend=gpu: unknown backend" "--backend=gpu" -- run --backend=gpu
expect 0 "--alloc=LIST" "run --help" -- run --help
expect 0 "--alloc=LIST" "help run shows run's options" -- help run
expect 2 "'nosuch' is not a command" "help nosuch" -- help nosuch
if [ ! -e /dev/allocbench ]; then
	expect 3 "module not loaded: \`sudo make load\`, or try the embedded kernel: \`make demo\`" \
		"no module: status 3 and the way forward" -- run --alloc=kmalloc --size=4096
	expect 0 "kmod: unavailable: /dev/allocbench: module not loaded" "list says why the kmod backend is unavailable" -- list
	expect 3 "module not loaded" "info without the module" -- info
fi
expect 2 "--timing=often: unknown timing mode" "--timing=often" -- run --timing=often
expect 2 "--free=random: unknown free pattern" "--free=random" -- run --free=random
expect 2 "--context=softirq: unknown loop context" "--context=softirq" -- run --context=softirq
expect 2 "--seed=x: not a seed" "--seed=x" -- run --seed=x
expect 2 "which experiment" "reproduce without a name" -- reproduce
expect 2 "unknown experiment" "reproduce nosuch" -- reproduce nosuch
if [ -w /dev/full ]; then
	out=$("$ab" --version 2>&1 >/dev/full)
	st=$?
	if [ "$st" = 1 ] && printf '%s' "$out" | grep -q "cannot write the output: No space left on device"; then
		ok "host cli: output to a full disk is an error"
	else
		notok "host cli: output to a full disk is an error (exit $st: $out)"
	fi
fi

# lookup runs in this process with the user backend: no module needed
expect 0 "constant 4096" "lookup --backend=user" -- lookup --backend=user --trials=20
expect 0 "loguniform:8-8K (seed 3)" "lookup --dist with a seed" -- \
	lookup --backend=user --dist=loguniform:8-8K --seed=3 --count=200 --trials=10
expect 0 "sizes,method,table" "lookup --csv" -- lookup --backend=user --csv --trials=10 --method=kernel,bsr
expect 0 "table 2002" "lookup --table=2002" -- lookup --backend=user --table=2002 --trials=10
expect 2 "--method=sometimes: unknown lookup method" "lookup --method=sometimes" -- lookup --method=sometimes
expect 2 "--table=1990: unknown class table" "lookup --table=1990" -- lookup --table=1990
expect 2 "use one" "lookup with two sources of sizes" -- lookup --size=32 --dist=const:8
expect 2 "--dist=gauss:3: unknown distribution" "lookup --dist=gauss:3" -- lookup --dist=gauss:3
expect 2 "--size=32,abc" "lookup --size=32,abc" -- lookup --size=32,abc
expect 2 "--sizes-from=/nonexistent: No such file" "lookup --sizes-from missing" -- lookup --sizes-from=/nonexistent
tmp=$(mktemp)
printf '64\nsomething else\n' >"$tmp"
expect 2 "$tmp:2: no size" "lookup --sizes-from names the bad line" -- lookup --backend=user --sizes-from="$tmp"
printf '  x-1 [000] 1.0: kmalloc: call_site=a ptr=1 bytes_req=72 bytes_alloc=96 gfp_flags=GFP_KERNEL\n  x-1 [000] 1.1: kmalloc: call_site=a ptr=2 bytes_req=200 bytes_alloc=256 gfp_flags=GFP_KERNEL\n' >"$tmp"
expect 0 "2 lookups per pass" "lookup --sizes-from replays ftrace kmem:kmalloc text" -- \
	lookup --backend=user --sizes-from="$tmp" --trials=10
rm -f "$tmp"
tmp=$(mktemp -d)
"$ab" lookup --backend=user --trials=5 --size=64 --json -o "$tmp/l.json"
expect 0 "" "plot a saved lookup as SVG" -- plot "$tmp/l.json" -o "$tmp/l.svg"
expect 2 "must end in .svg or .png" "plot -o with another extension" -- plot "$tmp/l.json" -o "$tmp/l.gif"
expect 2 "not an allocbench result" "plot a file that is not a result" -- plot /etc/hostname -o "$tmp/x.svg"
expect 2 "usage: allocbench plot" "plot without -o" -- plot "$tmp/l.json"
expect 0 '"schema_version":1' "--json has a schema version" -- lookup --backend=user --trials=5 --size=8 --json
expect 2 "-o /nonexistent/x: cannot write there" "-o to a missing directory" -- lookup --backend=user -o /nonexistent/x
rm -rf "$tmp"

# manual pages: `help CMD` opens them, and each documents every option
expect 0 "allocbench-run - run allocation strategies" "help run opens the manual page" -- help run
expect 0 "allocbench - measure kernel allocation paths" "help opens allocbench(1)" -- help
for c in run sweep compare lookup reproduce topology plot list info; do
	page=man/allocbench-$c.1
	missing=""
	for o in $("$ab" $c --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		case $o in --help | --usage) continue ;; esac
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$page" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then ok "host cli: $page documents every option of $c"; else notok "host cli: $page lacks$missing"; fi
done

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
expect 0 "jemalloc: libjemalloc.so.2 cannot be loaded with dlopen here" "list says why jemalloc is unavailable" -- list
expect 0 "posix_memalign" "user backend --align" -- run --backend=user --alloc=posix_memalign --align=4K --trials=10 -q
expect 2 "--align=3: not an alignment" "--align=3 rejected" -- run --backend=user --alloc=posix_memalign --align=3
expect 2 "none of these strategies takes an alignment" "--align without posix_memalign" -- \
	run --backend=user --alloc=malloc --align=64
expect 2 "takes no GFP flags" "user backend --gfp=atomic rejected" -- run --backend=user --alloc=malloc --gfp=atomic
expect 0 "Mann-Whitney U" "compare with the user backend" -- compare --backend=user --alloc=malloc,mimalloc --trials=50 -q
expect 0 "shuffle" "user backend single timing and shuffled frees" -- \
	run --backend=user --alloc=malloc --timing=single --free=shuffle --trials=20 -q
expect 0 "alloc+free ns/op" "user backend pairs" -- run --backend=user --alloc=calloc --free=pair --trials=20 -q
expect 0 "malloc@cpu" "user backend concurrent runs" -- \
	run --backend=user --alloc=malloc --cpu=all --concurrent --trials=20 -q
expect 3 "or time userspace allocators with --backend=user" "no module: the way forward names --backend=user" -- run
out=$("$ab" run --backend=user --alloc=numa_alloc_onnode --size=1M --trials=20 --csv 2>&1)
if printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($c["node_checked"] == 0) }'; then
	ok "host cli: untouched userspace blocks are not counted as node misses"
else
	notok "host cli: untouched blocks ($(printf '%s' "$out" | head -c 200))"
fi
tmp=$(mktemp -d)
printf '{"schema":"allocbench-result","results":5}' >"$tmp/bad.json"
expect 2 "not an allocbench result" "plot refuses a result whose results are not a list" -- plot "$tmp/bad.json" -o "$tmp/x.png"
expect 2 "not an allocbench result" "compare refuses it too" -- compare "$tmp/bad.json" "$tmp/bad.json"
python3 - "$tmp" <<'PY'
import json, sys
d = {"schema": "allocbench-result", "schema_version": 1, "command": "run",
     "results": [{"kind": "alloc", "label": "x\nEOD\nsystem('touch %s/PWNED')\n" % sys.argv[1],
                  "alloc": {"ns": {"median": 1, "ci95_median": [1, 2]}}}]}
json.dump(d, open(sys.argv[1] + "/evil.json", "w"))
PY
"$ab" plot "$tmp/evil.json" -o "$tmp/e.svg" >/dev/null 2>&1
if [ -e "$tmp/PWNED" ]; then notok "plot: a label cannot run gnuplot commands"; else ok "plot: a label cannot run gnuplot commands"; fi
expect 2 "binary data, not sizes" "lookup --sizes-from=/dev/zero stops at once" -- lookup --backend=user --sizes-from=/dev/zero
rm -rf "$tmp"
