#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# conventions.sh [ALLOCBENCH] - the conventions every command keeps, on the
# host, no module needed (TAP lines): -o - is standard output for every
# command that takes -o (plot: the picture on stdout), never a file named
# "-"; the vm document validates against schema/allocbench-vm.schema.json
# with the plain validator command; --cpu lists follow numactl within the
# CPUs this process may use (taskset); counts are singular when they are 1;
# `make install PREFIX=DIR` puts everything under DIR.
ab=$(cd "$(dirname "${1:-./allocbench}")" && pwd)/$(basename "${1:-./allocbench}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - conventions: $*"; }
notok() { echo "not ok - conventions: $*"; }

# ---- -o - is standard output ----
# dash_out STATUS PATTERN NAME -- CMD ARGS...: in an empty directory,
# CMD -o - ARGS exit STATUS with PATTERN on stdout (none: nothing there)
# and leave no file named "-"
dash_out() {
	want=$1 pat=$2 name=$3 cmd=$5
	shift 5
	rm -rf "$tmp/d"
	mkdir "$tmp/d"
	(cd "$tmp/d" && "$ab" "$cmd" -o - "$@" >"$tmp/out" 2>"$tmp/err")
	got=$?
	if [ -n "$pat" ]; then
		grep -q -- "$pat" "$tmp/out"
	else
		[ ! -s "$tmp/out" ]
	fi
	seen=$?
	if [ "$got" = "$want" ] && [ ! -e "$tmp/d/-" ] && [ "$seen" = 0 ]; then
		ok "$name -o -: standard output, no file named -"
	else
		notok "$name -o - (exit $got, wanted $want; file - $([ -e "$tmp/d/-" ] && echo made || echo not made); stdout $(head -c 150 "$tmp/out"); stderr $(head -c 200 "$tmp/err"))"
	fi
}
"$ab" run --backend=user --alloc=none,malloc --trials=20 --json -q -o "$tmp/r1.json"
"$ab" run --backend=user --alloc=none,malloc --trials=20 --json -q -o "$tmp/r2.json"
dash_out 0 "^malloc " "run" -- run --backend=user --alloc=malloc --trials=20 -q
dash_out 0 '"schema":"allocbench-result"' "run --json" -- run --backend=user --alloc=malloc --trials=20 -q --json
dash_out 0 "malloc" "sweep" -- sweep --backend=user --alloc=malloc --sizes=64 --trials=10 -q
dash_out 0 "calloc" "compare" -- compare --backend=user --alloc=malloc,calloc --trials=10 --rounds=6 -q
dash_out 0 "old (A) against new (B)" "compare of saved files" -- compare "$tmp/r1.json" "$tmp/r2.json"
dash_out 0 "constant 4096" "lookup" -- lookup --backend=user --trials=5 -q
dash_out 0 "node" "topology" -- topology
dash_out 0 "user" "list" -- list
dash_out 0 "user backend" "info" -- info --backend=user
# commands refused after their options are read: still no file named -
dash_out 2 "" "reproduce (refused)" -- reproduce nosuch
dash_out 2 "" "vm (refused: --rounds=0)" -- vm -k 6.1 -k 6.1 --rounds=0 -- run
dash_out 0 "^<svg" "plot" -- plot "$tmp/r1.json"
dash_out 0 "PNG" "plot --format=png" -- plot "$tmp/r1.json" --format=png
# every command whose --help offers --output is one of the above
for c in $("$ab" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
	"$ab" $c --help 2>/dev/null | grep -q -- '--output' || continue
	case $c in
	run | sweep | compare | lookup | topology | list | info | reproduce | vm | plot) ;;
	*) notok "$c takes -o but is not tested with -o -" ;;
	esac
done
if "$ab" plot "$tmp/r1.json" -o "$tmp/x.svg" --format=png 2>"$tmp/err"; then
	notok "plot -o x.svg --format=png accepted"
elif grep -q "the extension says svg" "$tmp/err"; then
	ok "plot -o x.svg --format=png: refused, the extension says svg"
else
	notok "plot -o x.svg --format=png ($(cat "$tmp/err"))"
fi
if "$ab" plot "$tmp/r1.json" -o - --format=gif >/dev/null 2>"$tmp/err"; then
	notok "plot --format=gif accepted"
elif grep -q "format=gif: allowed svg and png" "$tmp/err"; then
	ok "plot --format=gif: refused, naming svg and png"
else
	notok "plot --format=gif ($(cat "$tmp/err"))"
fi

# ---- the vm document validates with the plain command ----
# a vm document around a real result, as `allocbench vm --json` writes it
python3 - "$tmp/r1.json" "$tmp" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
doc = {"schema": "allocbench-vm", "schema_version": 1,
       "tool": {"name": "allocbench", "version": r["tool"]["version"]},
       "command": "vm", "accel": "tcg", "nodes": 1, "rounds": 1,
       "kernels": [{"name": "6.1", "kernel": "6.1", "append": "",
                    "release": "6.1.0-57-amd64", "good_boots": 1}],
       "boots": [{"boot": 1, "kernel": "6.1", "kernel_index": 0, "round": 1,
                  "status": "ok", "exit": 0, "seconds": 5.0, "why": None,
                  "result": r}],
       "comparisons": [], "interrupted": False}
json.dump(doc, open(sys.argv[2] + "/vm.json", "w"))
# a result inside that breaks the result schema deep down
doc["boots"][0]["result"]["results"][0]["alloc"]["ns"]["median"] = "fast"
json.dump(doc, open(sys.argv[2] + "/vm-bad.json", "w"))
EOF
for v in "python3 -m jsonschema" /usr/bin/jsonschema; do
	[ "$v" = /usr/bin/jsonschema ] && [ ! -x /usr/bin/jsonschema ] && continue
	if out=$(cd "$tmp" && $v -i vm.json "$root/schema/allocbench-vm.schema.json" 2>&1); then
		ok "'$v -i vm.json schema/allocbench-vm.schema.json' validates (no --base-uri)"
	else
		notok "'$v -i vm.json schema/allocbench-vm.schema.json': $(printf '%s' "$out" | grep -v -i deprecat | tail -n 1 | head -c 300)"
	fi
	if (cd "$tmp" && $v -i vm-bad.json "$root/schema/allocbench-vm.schema.json" >/dev/null 2>&1); then
		notok "'$v' accepts a boot whose result breaks the result schema"
	else
		ok "'$v' refuses a boot whose result breaks the result schema"
	fi
done
if python3 "$root/scripts/bundle-schema.py" --check; then
	ok "the vm schema's bundled result schema is the current one"
else
	notok "the vm schema's bundled result schema is out of date (make schema)"
fi
