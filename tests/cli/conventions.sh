#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# conventions.sh [ALLOCBENCH] - the conventions every command keeps, on the
# host, no module and no boot needed (TAP lines): -o - is standard output
# for every command that takes -o (plot: the picture on stdout), never a
# file named "-"; the vm document validates against
# build/schema/allocbench-vm.schema.json with the plain validator command;
# allocbench vm on kernels it cannot use (a name that is no kernel leaves
# nothing in the cache and no apt output; a tree never prepared for
# modules is status 5 naming modules_prepare and the log), an interrupted
# boot said once, vm --help naming the vm schema (stand-in apt and vm
# scripts); counts are singular when they are 1; --cpu lists follow numactl
# within the CPUs this process may use (taskset). make install PREFIX=DIR
# is tests/cli/install.sh.
ab=$(cd "$(dirname "${1:-./allocbench}")" && pwd)/$(basename "${1:-./allocbench}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TAP_PREFIX="conventions: "
. "$(dirname "$0")/../lib.sh"

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
dash_out 0 "calloc" "compare" -- compare --backend=user --alloc=malloc,calloc --trials=14 --rounds=7 -q
dash_out 0 "of A (old, r1.json) against 1 of B (new, r2.json)" "compare of saved files" -- compare "$tmp/r1.json" "$tmp/r2.json"
dash_out 0 "constant 4096" "lookup" -- lookup --backend=user --trials=5 -q
dash_out 0 "node" "topology" -- topology
dash_out 0 "user" "list" -- list
dash_out 0 "user backend" "info" -- info --backend=user
# commands refused after their options are read: still no file named -
dash_out 2 "" "reproduce (refused)" -- reproduce nosuch
dash_out 2 "" "vm (refused: --rounds=0)" -- vm -k 6.1 -k 6.1 --rounds=0 -- run
dash_out 0 "^<svg" "plot" -- plot "$tmp/r1.json"
dash_out 0 "PNG" "plot --format=png" -- plot "$tmp/r1.json" --format=png
dash_out 0 "^malloc.4096B.nodelocal.cpuany.alloc.median_ns: " "export" -- export --format=lkp "$tmp/r1.json"
# every command whose --help offers --output is one of the above
for c in $("$ab" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
	"$ab" $c --help 2>/dev/null | grep -q -- '--output' || continue
	case $c in
	run | sweep | compare | lookup | topology | list | info | reproduce | vm | plot | export) ;;
	*) notok "$c takes -o but is not tested with -o -" ;;
	esac
done
# ---- -o '' is refused before any work ----
# empty_out NAME -- CMD ARGS...: in an empty directory, CMD ARGS (naming an
# empty file) exit 2 with one line that says so, nothing on stdout and
# nothing left in the directory (before: the command did its work, then
# failed at the end renaming its temporary over '', status 1)
empty_out() {
	name=$1
	shift 2
	rm -rf "$tmp/d"
	mkdir "$tmp/d"
	(cd "$tmp/d" && "$ab" "$@" >"$tmp/out" 2>"$tmp/err")
	got=$?
	if [ "$got" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q -- "'': an empty file name; name a file, or - for standard output$" "$tmp/err" &&
		[ -z "$(ls -A "$tmp/d")" ]; then
		ok "$name: an empty file name is refused up front"
	else
		notok "$name: an empty file name (exit $got, wanted 2; left $(ls -A "$tmp/d" | tr '\n' ' '); stdout $(head -c 150 "$tmp/out"); stderr $(head -c 200 "$tmp/err"))"
	fi
}
empty_out "run -o ''" -- run --backend=user --alloc=malloc --trials=20 -q -o ''
empty_out "run --json -o ''" -- run --backend=user --alloc=malloc --trials=20 -q --json -o ''
empty_out "sweep -o ''" -- sweep --backend=user --alloc=malloc --sizes=64 --trials=10 -q -o ''
empty_out "compare -o ''" -- compare --backend=user --alloc=malloc,calloc --trials=14 --rounds=7 -q -o ''
empty_out "compare of saved files -o ''" -- compare "$tmp/r1.json" "$tmp/r2.json" -o ''
empty_out "lookup -o ''" -- lookup --backend=user --trials=5 -q -o ''
empty_out "topology -o ''" -- topology -o ''
empty_out "list -o ''" -- list --output=''
empty_out "info -o ''" -- info --backend=user -o ''
empty_out "reproduce -o ''" -- reproduce 2002-lookup -o ''
empty_out "vm -o ''" -- vm -k 6.1 -o '' -- run
empty_out "export -o ''" -- export --format=lkp "$tmp/r1.json" -o ''
empty_out "plot -o ''" -- plot "$tmp/r1.json" -o ''
empty_out "plot --script=''" -- plot "$tmp/r1.json" -o "$tmp/x.svg" --script=''
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

# a refused command leaves no -o file it made, and one that was there as
# it was (before: an empty new file for every usage error)
rm -f "$tmp/new.out"
"$ab" run --backend=user --alloc=nosuch -o "$tmp/new.out" 2>/dev/null
st=$?
echo keep >"$tmp/old.out"
"$ab" run --backend=user --alloc=nosuch -o "$tmp/old.out" 2>/dev/null
if [ "$st" = 2 ] && [ ! -e "$tmp/new.out" ] && [ "$(cat "$tmp/old.out")" = keep ]; then
	ok "a usage error leaves no -o file behind, and an existing one as it was"
else
	notok "a usage error and -o (status $st; new file $([ -e "$tmp/new.out" ] && echo left || echo removed); old file '$(cat "$tmp/old.out")')"
fi

# a write that fails part way (here a file size limit of 1 KiB, SIGXFSZ
# ignored so write(2) fails with EFBIG, as on a full disk) leaves the file
# that was there as it was, whatever the command: status 1 and one line
# naming it (before: the old file half overwritten; plot removed it)
big_fail() {
	name=$1
	shift
	printf 'keep\n' >"$tmp/keep.svg"
	chmod 640 "$tmp/keep.svg"
	ln -sf keep.svg "$tmp/keep.link"
	(
		trap '' XFSZ
		ulimit -f 1
		"$ab" "$@" >/dev/null 2>"$tmp/err"
	)
	st=$?
	n=$(ls -a "$tmp" | grep -c '^\.keep\.svg\.')
	if [ "$st" = 1 ] && [ "$(cat "$tmp/keep.svg")" = keep ] && [ "$n" = 0 ] &&
		[ "$(stat -c %a "$tmp/keep.svg")" = 640 ] && [ -L "$tmp/keep.link" ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "keep\.\(svg\|link\).*File too large" "$tmp/err"; then
		ok "$name: a write failing part way leaves the file as it was (status 1, one line, no temporary left)"
	else
		notok "$name: a failing write (status $st; file '$(head -c 40 "$tmp/keep.svg")' mode $(stat -c %a "$tmp/keep.svg"); $n temporaries; stderr $(head -c 200 "$tmp/err"))"
	fi
}
big_fail "list -o" list events -o "$tmp/keep.svg"
big_fail "list -o a symlink" list events -o "$tmp/keep.link"
big_fail "run --json -o" run --backend=user --alloc=malloc --trials=2000 --json -q -o "$tmp/keep.svg"
big_fail "export -o" export --format=mmtests "$tmp/r1.json" "$tmp/r2.json" -o "$tmp/keep.svg"
big_fail "plot -o" plot "$tmp/r1.json" --format=svg -o "$tmp/keep.svg"
big_fail "plot --script" plot "$tmp/r1.json" --script="$tmp/keep.svg" -o "$tmp/pic.svg"
# a refused reproduce leaves the file too (it wrote its header before
# finding a step the backend could not run; now it checks them first)
printf 'keep\n' >"$tmp/keep.svg"
"$ab" reproduce 2002-lookup --backend=user -o "$tmp/keep.svg" >/dev/null 2>&1
st=$?
if [ "$st" = 2 ] && [ "$(cat "$tmp/keep.svg")" = keep ]; then
	ok "a refused reproduce leaves -o FILE as it was"
else
	notok "a refused reproduce and -o (status $st; file '$(head -c 60 "$tmp/keep.svg")')"
fi
# a name of 255 bytes (no room for .NAME.XXXXXX beside it): still whole
long=$(printf 'L%.0s' $(seq 255))
printf 'keep\n' >"$tmp/$long"
"$ab" run --backend=user --alloc=nosuch -o "$tmp/$long" 2>/dev/null
"$ab" list events -o "$tmp/$long" >/dev/null 2>&1 && st=$? || st=$?
if [ "$st" = 0 ] && grep -q instructions "$tmp/$long" && [ "$(ls -a "$tmp" | grep -c '^\.allocbench\.')" = 0 ]; then
	ok "-o a 255-byte name: a refusal leaves it, a run replaces it whole"
else
	notok "-o a 255-byte name (status $st; $(head -c 40 "$tmp/$long"))"
fi
rm -f "$tmp/$long"
# a file with another link stays one file with it
printf 'keep\n' >"$tmp/hl1"
ln -f "$tmp/hl1" "$tmp/hl2"
"$ab" list events -o "$tmp/hl1" >/dev/null 2>&1
if grep -q instructions "$tmp/hl2"; then
	ok "-o a file with two links: both names show the new output"
else
	notok "-o a hard-linked file: the other link kept '$(head -c 40 "$tmp/hl2")'"
fi
# written in place (the other link): a refusal drops its buffered header
seq 200 >"$tmp/hl1"
"$ab" reproduce 2002-lookup --backend=user -o "$tmp/hl1" >/dev/null 2>&1
if [ "$(head -n 1 "$tmp/hl1")" = 1 ] && [ "$(wc -l <"$tmp/hl1")" = 200 ]; then
	ok "a refused command leaves a file written in place as it was"
else
	notok "a refusal in place (first line '$(head -n 1 "$tmp/hl1")')"
fi
# plot: a picture that cannot be opened refuses before the script is
# written; a script written in place over a longer file is cut to length
printf 'OLDS\n' >"$tmp/s1.gp"
"$ab" plot "$tmp/r1.json" -o "$tmp/nodir/p.svg" --script="$tmp/s1.gp" 2>/dev/null
st=$?
head -c 200000 /dev/zero | tr '\0' Z >"$tmp/s2.gp"
ln -f "$tmp/s2.gp" "$tmp/s3.gp"
"$ab" plot "$tmp/r1.json" -o "$tmp/p2.svg" --script="$tmp/s2.gp" 2>/dev/null
if [ "$st" = 2 ] && [ "$(cat "$tmp/s1.gp")" = OLDS ] && ! grep -q Z "$tmp/s3.gp"; then
	ok "plot: a refused picture leaves --script's file; a script in place is cut to its length"
else
	notok "plot --script (status $st; s1 '$(head -c 20 "$tmp/s1.gp")'; $(grep -c Z "$tmp/s3.gp") Z lines left)"
fi
# -o the file standard output already appends to: appended, not replaced
printf 'first\n' >"$tmp/log"
"$ab" list events -o /dev/stdout >>"$tmp/log" 2>/dev/null
if [ "$(head -n 1 "$tmp/log")" = first ] && grep -q instructions "$tmp/log"; then
	ok "-o /dev/stdout with >>log appends to log"
else
	notok "-o /dev/stdout >>log (first line '$(head -n 1 "$tmp/log")')"
fi
# a file this user may not write is refused, as any write would be
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$tmp/nb"
	printf 'keep\n' >"$tmp/nb/ro"
	chmod 444 "$tmp/nb/ro"
	chown -R 65534 "$tmp/nb"
	chmod 755 "$tmp" 2>/dev/null
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ab" list events -o "$tmp/nb/ro" >/dev/null 2>"$tmp/err"
	st=$?
	if [ "$st" = 2 ] && [ "$(cat "$tmp/nb/ro")" = keep ] && grep -q "Permission denied" "$tmp/err"; then
		ok "-o a read-only file in the user's own directory: refused (status 2), left as it was"
	else
		notok "-o a read-only file (status $st; file '$(head -c 40 "$tmp/nb/ro")'; $(cat "$tmp/err"))"
	fi
fi
# and a whole write replaces it, mode and symlink kept
"$ab" list events -o "$tmp/keep.link" >/dev/null 2>&1
if [ -L "$tmp/keep.link" ] && [ "$(stat -c %a "$tmp/keep.svg")" = 640 ] &&
	grep -q "instructions" "$tmp/keep.svg"; then
	ok "-o through a symlink replaces the file it names, with its mode"
else
	notok "-o through a symlink (link $([ -L "$tmp/keep.link" ] && echo kept || echo replaced); mode $(stat -c %a "$tmp/keep.svg"))"
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
# the bundle make builds (make schema, a part of make all)
vm_schema=$root/build/schema/allocbench-vm.schema.json
for v in "python3 -m jsonschema" /usr/bin/jsonschema; do
	[ "$v" = /usr/bin/jsonschema ] && [ ! -x /usr/bin/jsonschema ] && continue
	if out=$(cd "$tmp" && $v -i vm.json "$vm_schema" 2>&1); then
		ok "'$v -i vm.json build/schema/allocbench-vm.schema.json' validates (no --base-uri)"
	else
		notok "'$v -i vm.json build/schema/allocbench-vm.schema.json': $(printf '%s' "$out" | grep -v -i deprecat | tail -n 1 | head -c 300)"
	fi
	if (cd "$tmp" && $v -i vm-bad.json "$vm_schema" >/dev/null 2>&1); then
		notok "'$v' accepts a boot whose result breaks the result schema"
	else
		ok "'$v' refuses a boot whose result breaks the result schema"
	fi
done
if python3 - "$vm_schema" "$root/schema/allocbench-result.schema.json" <<'EOF'
import json, sys
vm, result = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(vm["$defs"]["allocbench-result"] != result)
EOF
then
	ok "the vm schema make built bundles the current result schema"
else
	notok "build/schema/allocbench-vm.schema.json does not bundle the current result schema (make schema)"
fi

# ---- allocbench vm: kernels it cannot use, told plainly ----
# a refused name leaves no image directory and no log in the cache
for k in 5.x "$tmp/nosuch"; do
	"$ab" vm --cache="$tmp/c" --accel=tcg -k "$k" -- run >"$tmp/out" 2>&1
	rc=$?
	left=$(cd "$tmp/c/vm" 2>/dev/null && ls -A)
	if [ "$rc" = 2 ] && [ -z "$left" ]; then
		ok "vm -k $k: refused (status 2), nothing left in the cache's vm/"
	else
		notok "vm -k $k: exit $rc, left in vm/: '$left' ($(head -c 300 "$tmp/out"))"
	fi
done
# apt's own lines ("Reading package lists...") stay in apt's log: a stand-in
# apt knows linux-image-amd64 and no kernel 99.99
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "Hit:1 http://deb.debian.org/debian bookworm InRelease"\necho "Reading package lists..."\n' >"$tmp/bin/apt-get"
# (after the -o options fetch-kernel.sh gives apt)
printf '#!/bin/sh\ncase " $* " in *" show linux-image-amd64 "*) exit 0 ;; esac\nexit 1\n' >"$tmp/bin/apt-cache"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/apt-cache"
PATH=$tmp/bin:$PATH "$ab" vm --cache="$tmp/c" --accel=tcg -k 99.99 -- run >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "Debian has no such kernel" "$tmp/out" &&
	! grep -q -e "Reading package lists" -e "Hit:1" "$tmp/out" &&
	[ -z "$(ls -A "$tmp/c/vm")" ]; then
	ok "vm -k 99.99: one line (no apt output), status 2, nothing left in vm/"
else
	notok "vm -k 99.99: exit $rc ($(head -c 400 "$tmp/out"); vm/: $(ls -A "$tmp/c/vm"))"
fi
PATH=$tmp/bin:$PATH sh "$root/scripts/vm/fetch-kernel.sh" "$tmp/c/kernel" 99.99 >"$tmp/out" 2>&1
if ! grep -q "Reading package lists" "$tmp/out"; then
	ok "fetch-kernel.sh (make vm-run KERNEL=...): apt's output is not shown"
else
	notok "fetch-kernel.sh shows apt's output ($(head -c 300 "$tmp/out"))"
fi
# a build tree never prepared for external modules (no Makefile, no
# scripts/mod/modpost): status 5, naming modules_prepare and the log
tree=$tmp/tree
mkdir -p "$tree/arch/x86/boot" "$tree/include/config"
: >"$tree/arch/x86/boot/bzImage"
: >"$tree/.config"
: >"$tree/Module.symvers"
echo 6.1.0-unprepared >"$tree/include/config/kernel.release"
"$ab" vm --cache="$tmp/c" --accel=tcg -k "$tree" -- info >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 5 ] && grep -q "make -C $tree modules_prepare" "$tmp/out" &&
	grep -q "the end of $tmp/c/vm/.*\.log:" "$tmp/out" && ! grep -q "No rule to make target" "$tmp/out"; then
	ok "vm -k TREE never prepared for modules: status 5, names make modules_prepare and the log"
else
	notok "vm -k TREE never prepared for modules: exit $rc ($(head -c 500 "$tmp/out"))"
fi
# --help names the vm document's schema
if "$ab" vm --help | grep -q "allocbench-vm.schema.json" &&
	! "$ab" vm --help | grep -q "allocbench-result.schema.json"; then
	ok "vm --help names schema/allocbench-vm.schema.json"
else
	notok "vm --help: $("$ab" vm --help | grep -i schema)"
fi
# Ctrl-C during a boot (stand-in scripts: the image is made at once, the
# boot sleeps): the boot is "interrupted: by Ctrl-C", said once
lib=$tmp/lib
mkdir -p "$lib/vm" "$lib/src"
cat >"$lib/vm/vm-image.sh" <<'SH'
mkdir -p "$3/k" && echo 6.1.0-standin >"$3/k/release" && echo "$3/k" >"$3/kernel-dir"
SH
printf 'sleep 30\n' >"$lib/vm/vm-run.sh"
ALLOCBENCH_LIBDIR=$lib "$ab" vm --cache="$tmp/c" --accel=tcg -k a -k b --rounds=2 -- run >"$tmp/out" 2>&1 &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 130 ] && grep -q "round 1: interrupted: by Ctrl-C (SIGINT)" "$tmp/out" &&
	grep -q "not run: the run was interrupted by Ctrl-C" "$tmp/out" &&
	! grep -q "interrupted: interrupted" "$tmp/out"; then
	ok "vm: an interrupted boot says by what, once (status 130)"
else
	notok "vm: an interrupted boot: exit $rc ($(grep -i interrupt "$tmp/out" | head -n 4))"
fi
# Ctrl-C in round 2, after a good boot of each kernel (stand-in boots that
# run the command on the user backend, then one that sleeps): the report
# counts the 2 boots that ran, names the interrupted one, figures no verdict
# over 0 tests (no row has 2 boots a side) and exits 130
cat >"$lib/vm/vm-run.sh" <<'SH'
n=$(cat "$AB_STATE" 2>/dev/null || echo 0)
echo $((n + 1)) >"$AB_STATE"
[ "$n" -lt 2 ] || exec sleep 30
allocbench() { c=$1; shift; "$AB_BIN" "$c" --backend=user "$@"; }
eval "$(printf '%s\n' "$3" | sed "s|/tmp/ab-vm.json|$AB_STATE.json|g")"
SH
AB_STATE=$tmp/boots AB_BIN=$ab ALLOCBENCH_LIBDIR=$lib "$ab" vm --wide --cache="$tmp/c" --accel=tcg -k a -k b --rounds=3 -- \
	run --alloc=malloc --trials=5 >"$tmp/out" 2>&1 &
pid=$!
i=0
while [ "$(cat "$tmp/boots" 2>/dev/null)" != 3 ] && [ $i -lt 60 ]; do
	sleep 1
	i=$((i + 1))
done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 130 ] && grep -q "^2 of 6 boots ran (boot 3 was interrupted by Ctrl-C (SIGINT), and is not counted), in " "$tmp/out" &&
	grep -q "^left out: boot 3 (B = b, round 2): interrupted: by Ctrl-C" "$tmp/out" &&
	grep -q "^malloc 4096 B .* 1/1 .*cannot conclude" "$tmp/out" &&
	grep -q "no verdict: no test in this report" "$tmp/out" &&
	grep -q "^verdict: none: no row had 2 good boots of each kernel" "$tmp/out" &&
	! grep -q -e "over the 0 tests" -e "/ 1 tests" -e "/ 0 tests" "$tmp/out"; then
	ok "vm: Ctrl-C in round 2: the 2 boots that ran counted, the interrupted one named, no verdict over 0 tests (status 130)"
else
	notok "vm: Ctrl-C in round 2: exit $rc ($(grep -e 'boots ran' -e 'tests' -e '^verdict' "$tmp/out" | cut -c 1-200))"
fi
# the report of those stand-in boots (they print no result): one round
printf 'exit 0\n' >"$lib/vm/vm-run.sh"
ALLOCBENCH_LIBDIR=$lib "$ab" vm --cache="$tmp/c" --accel=tcg -k a -k b --rounds=1 -- run >"$tmp/out" 2>&1
if grep -q "^1 round, 2 of 2 boots ran" "$tmp/out"; then
	ok "vm --rounds=1: '1 round' in the header"
else
	notok "vm --rounds=1: $(grep -e 'round' "$tmp/out")"
fi

# ---- a count of 1 takes the singular ----
# (the run report's notes: tests/unit/test_job.c)
out=$("$ab" run --wide --backend=user --alloc=malloc --batch=1 --trials=1 -q 2>&1)
case $out in
*"1 object per trial, 1 trial after 0 warm-up"*"CI of the median, 1 sample:"*)
	ok "run --batch=1 --trials=1: 1 object, 1 trial, 1 sample" ;;
*) notok "run --batch=1 --trials=1: $(printf '%s\n' "$out" | grep -e 'per trial' -e 'CI of')" ;;
esac
out=$("$ab" lookup --wide --backend=user --trials=1 --dist=const:64 --count=1 -q 2>&1)
case $out in
*"1 lookup per pass, 1 pass,"*) ok "lookup --count=1 --trials=1: 1 lookup per pass, 1 pass" ;;
*) notok "lookup --count=1 --trials=1: $(printf '%s\n' "$out" | grep 'per pass')" ;;
esac

# ---- CPU lists: numactl's syntax within the CPUs this process may use ----
# (the same parser as the module's runs; tests/kernel/guest.sh runs these
# under taskset in the guest)
last=$(($(getconf _NPROCESSORS_ONLN) - 1))
if [ "$last" -ge 1 ] && command -v taskset >/dev/null; then
	# cpu_is LIST NAME: under taskset -c $last, --cpu=LIST runs on CPU
	# $last (the JSON's parameters.cpus, and where each row started)
	cpu_is() {
		out=$(taskset -c "$last" "$ab" run --backend=user --alloc=malloc --trials=5 -q --cpu="$1" --json 2>&1)
		if printf '%s' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
cpu = int(sys.argv[1])
assert d["parameters"]["cpus"] == [cpu], d["parameters"]["cpus"]
assert d["results"] and all(r["cpu_start"] == cpu for r in d["results"])' "$last" 2>/dev/null; then
			ok "taskset -c $last: --cpu=$1 $2"
		else
			notok "taskset -c $last: --cpu=$1 $2 ($(printf '%s\n' "$out" | grep -e '"cpus"' -e '"cpu_start"' -e 'allocbench:' | tr -d ' \n' | head -c 200))"
		fi
	}
	cpu_is all "is CPU $last (all: the CPUs this process may use)"
	cpu_is +0 "is CPU $last (relative to the allowed CPUs)"
	cpu_is '!0' "is CPU $last (every allowed CPU but 0)"
	cpu_refused() {
		out=$(taskset -c "$last" "$ab" run --backend=user --alloc=malloc --trials=5 -q --cpu="$1" 2>&1)
		st=$?
		case $st:$out in
		2:*"$2"*) ok "taskset -c $last: --cpu=$1 refused: $2" ;;
		*) notok "taskset -c $last: --cpu=$1 (exit $st: $out)" ;;
		esac
	}
	cpu_refused +1 "a relative CPU beyond this process's 1 allowed CPU ($last: +0 to +0"
	cpu_refused 0 "CPU 0 is outside this process's allowed CPUs ($last:"
	cpu_refused "!+0" "no CPU in the list"
	cpu_refused + "not a CPU list"
	out=$(taskset -c "0-$last" "$ab" run --backend=user --alloc=malloc --trials=5 -q --cpu=all --concurrent --json 2>&1)
	if printf '%s' "$out" | python3 -c 'import json, sys
labels = [r["label"] for r in json.load(sys.stdin)["results"]]
assert labels[0] == "malloc@cpu0" and labels[-1] == "malloc@cpu" + sys.argv[1], labels' "$last" 2>/dev/null; then
		ok "taskset -c 0-$last: --cpu=all --concurrent runs on every allowed CPU"
	else
		notok "--cpu=all --concurrent ($(printf '%s\n' "$out" | grep -e '@cpu' -e 'allocbench:' | tr -d ' \n' | head -c 200))"
	fi
else
	ok "CPU lists under taskset # SKIP one CPU, or no taskset"
fi
# the user backend's limits are its own, not the module's
out=$("$ab" run --backend=user --alloc=malloc --trials=99999999 -q 2>&1)
st=$?
out2=$("$ab" run --backend=user --alloc=malloc --size=1G --batch=100000 -q 2>&1)
out2="$out2 $("$ab" info --backend=user 2>&1 | grep '^max bytes at once')"
case "$st $out $out2" in
"2 "*"above the user backend's limit of"*"(a quarter of this machine's memory)"*"MiB; a quarter of this machine's memory)"*) ok "the user backend's refusals name its own limits, not the module's" ;;
*) notok "the user backend's refusals (status $st: $out / $out2)" ;;
esac
# a relative node list counts within the allowed memory nodes (numactl)
nn=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
out=$("$ab" run --backend=user --alloc=malloc --trials=5 -q --node=+$nn 2>&1)
case $out in
*"--node=+$nn: a relative node beyond this process's"*"+0 to +"*) ok "--node=+$nn on $nn node(s): a relative node beyond the allowed ones" ;;
*) notok "--node=+$nn on $nn node(s): $out" ;;
esac
# a relative number of any size is counted as one (before: "there is no
# node 99999999999999999999 (nodes: 0-9223372036854775807)")
for o in node cpu; do
	out=$("$ab" run --backend=user --alloc=malloc --trials=5 -q --$o=+99999999999999999999 2>&1)
	case $out in
	*"--$o=+99999999999999999999: a relative "*" beyond this process's"*) ok "--$o=+99999999999999999999: a relative $o beyond the allowed ones" ;;
	*) notok "--$o=+99999999999999999999: $out" ;;
	esac
done
# (a figure: the JSON's correction.tests, and the default text's note)
out=$("$ab" compare --backend=user --alloc=malloc,calloc --free=pair --rounds=7 --trials=14 -q --json 2>&1)
if printf '%s' "$out" | python3 -c 'import json, sys
c = json.load(sys.stdin)["compare"]
assert c["correction"]["tests"] == 1 and len(c["phases"]) == 1, c["correction"]' 2>/dev/null; then
	ok "compare --free=pair: Holm over the 1 phase test"
else
	notok "compare --free=pair: $(printf '%s\n' "$out" | grep -A3 '"correction"' | tr -d ' \n')"
fi
out=$("$ab" compare --backend=user --alloc=malloc,calloc --free=pair --rounds=7 --trials=14 -q 2>&1)
case $out in
*"Holm over 1 test;"*) ok "compare --free=pair: the text says Holm over 1 test" ;;
*) notok "compare --free=pair: $(printf '%s\n' "$out" | grep -o 'Holm over [0-9]* [a-z]*')" ;;
esac
# an interrupted run exits 128 + the signal, as a shell reports it (before:
# 130 for SIGTERM and SIGHUP too)
for s in INT:130 TERM:143 HUP:129; do
	"$ab" run --backend=user --alloc=malloc --size=64 --trials=16000000 --batch=100 -q >"$tmp/sig.out" 2>&1 &
	p=$!
	sleep 1
	kill -"${s%:*}" $p
	wait $p
	st=$?
	if [ "$st" = "${s#*:}" ] && grep -q interrupted "$tmp/sig.out"; then
		ok "SIG${s%:*} ends a run with status ${s#*:}"
	else
		notok "SIG${s%:*} ends a run with status ${s#*:} (got $st: $(head -c 200 "$tmp/sig.out"))"
	fi
done
# every spelling of an enumerated option is in its --help, and the error for
# an unknown one names them all: both made from the one table, so neither can
# drift from what the option takes (list --values=KIND prints the table)
for pair in run:gfp:gfp run:memcg:memcg run:timing:timing run:free:free run:context:context \
	run:lookup:lookup run:table:table lookup:method:methods lookup:table:table; do
	c=${pair%%:*} rest=${pair#*:}
	o=${rest%%:*} kind=${rest#*:}
	help=$("$ab" "$c" --help 2>&1 | tr -s ' \n' '  ')
	err=$("$ab" "$c" --backend=user --"$o"=nosuch 2>&1)
	missing=""
	for w in $("$ab" list --values="$kind"); do
		case $help in *"$w"*) ;; *) missing="$missing help:$w" ;; esac
		case $err in *" $w"*) ;; *) missing="$missing error:$w" ;; esac
	done
	if [ -z "$missing" ] && [ -n "$("$ab" list --values="$kind")" ]; then
		ok "$c --$o: --help and the error name every spelling of list --values=$kind"
	else
		notok "$c --$o: --help and the error name every spelling of list --values=$kind (missing:$missing; error: $err)"
	fi
done
# lookup's passes against the backend's max_trials, checked before asking
# (before: the backend answered E2BIG, status 1)
out=$("$ab" lookup --backend=user --trials=4294967295 --size=64 2>&1)
st=$?
case $st:$out in
2:*"--trials=4294967295: above the user backend's limit of"*) ok "lookup --trials above the backend's limit: refused first, status 2" ;;
*) notok "lookup --trials above the backend's limit (status $st: $out)" ;;
esac

# ---- list events on any CPU model libpfm4 knows (LIBPFM_FORCE_PMU) ----
# An Ice Lake host printed 50 "invalid or missing unit mask" lines on
# stderr (skx 38, zen3 28): an event that needs a unit mask is listed once
# per mask (PMU::EVENT:UMASK), one whose masks do not apply to the model is
# left out, and a name of over 63 characters (zen2's) is encodable. What is
# listed is what the encoder takes: its lines say "opens" or the errno.
for m in icl skx spr snb hsw amd64_fam19h_zen3 amd64_fam17h_zen2; do
	LIBPFM_FORCE_PMU=$m "$ab" list events >"$tmp/ev" 2>"$tmp/everr"
	st=$?
	bad=$(grep -c 'cannot be encoded' "$tmp/ev")
	masks=$(grep -c "^  $m[a-z0-9_]*::[A-Z0-9_]*:[A-Za-z0-9_]" "$tmp/ev")
	if [ "$st" = 0 ] && [ ! -s "$tmp/everr" ] && [ "$bad" = 0 ] &&
		grep -q "^pmu $m[a-z0-9_]*: " "$tmp/ev" && [ "$masks" -gt 0 ]; then
		ok "list events under LIBPFM_FORCE_PMU=$m: nothing on stderr, every event encodable, $masks with their unit masks"
	else
		notok "list events under LIBPFM_FORCE_PMU=$m (status $st; stderr $(wc -l <"$tmp/everr") lines: $(head -c 200 "$tmp/everr"); unencodable $bad; unit-mask lines $masks)"
	fi
done

# list events GLOB: only the events it matches (on PMU::EVENT or EVENT,
# case ignored), with their PMUs' lines alone; a glob that matches nothing
# is status 2, naming it (a TCG guest's CPU model lists ~1400 events, each
# opened once: a minute under load for all of them)
LIBPFM_FORCE_PMU=skx "$ab" list events 'offcore_response*' >"$tmp/evg" 2>"$tmp/evgerr"
st=$?
others=$(grep '^  ' "$tmp/evg" | grep -v -i -c '^  [a-z0-9_]*::offcore_response')
if [ "$st" = 0 ] && [ ! -s "$tmp/evgerr" ] && grep -q -i '^  skx::OFFCORE_RESPONSE' "$tmp/evg" &&
	[ "$others" = 0 ] && ! grep -q '^pmu vpmu' "$tmp/evg" && ! grep -q '^pmu perf:' "$tmp/evg"; then
	ok "list events GLOB: only the matching events, under their PMU's line alone"
else
	notok "list events GLOB (status $st, $others other events: $(head -c 300 "$tmp/evg"))"
fi
expect 0 "^  instructions .*emulated, exact" "list events GLOB matches the virtual PMU's events too" -- \
	"$ab" list events INSTRUCTIONS
expect 2 "no event here matches 'nosuch_\*'" "list events with a glob that matches nothing: status 2, naming it" -- \
	"$ab" list events 'nosuch_*'

# the default text's shape (issue 42; allocbench-run(1), NOTES): a header
# of at most 4 lines, nothing over 120 columns, notes of at most 100, for
# run, compare (live and saved) and vm (stand-in boots on the user
# backend); tests/cli/vmab.sh checks vm's with real boots
shape() { # shape NAME FILE
	bad=$(sh "$(dirname "$0")/shape.sh" <"$2")
	if [ -s "$2" ] && [ -z "$bad" ]; then
		ok "$1: the default text's header <= 4 lines, lines <= 120 columns, notes <= 100, no trailing space"
	else
		notok "$1: the default text: $bad ($(head -c 200 "$2"))"
	fi
}
"$ab" run --backend=user --alloc=malloc,calloc,posix_memalign --trials=50 -q >"$tmp/sh.run" 2>/dev/null
shape "run" "$tmp/sh.run"
"$ab" run --backend=user --alloc=malloc --size=1M --trials=5 --warmup=0 -q >"$tmp/sh.run2" 2>/dev/null
shape "run of 5 trials" "$tmp/sh.run2"
"$ab" sweep --backend=user --alloc=malloc,numa_alloc_onnode --sizes=64-64K:x2 --trials=20 -q >"$tmp/sh.sweep" 2>/dev/null
shape "sweep of 11 sizes" "$tmp/sh.sweep"
"$ab" lookup --backend=user --dist=loguniform:8-8K --trials=20 -q >"$tmp/sh.lookup" 2>/dev/null
shape "lookup --dist" "$tmp/sh.lookup"
"$ab" compare --backend=user --alloc=malloc,calloc --trials=70 --rounds=7 -q >"$tmp/sh.cmp" 2>/dev/null
shape "compare" "$tmp/sh.cmp"
for i in 1 2; do
	"$ab" run --backend=user --alloc=none,malloc --trials=10 --json -q -o "$tmp/sa$i.json" 2>/dev/null
	"$ab" run --backend=user --alloc=none,malloc --trials=10 --json -q -o "$tmp/sb$i.json" 2>/dev/null
done
"$ab" compare "$tmp/sa1.json" "$tmp/sb1.json" >"$tmp/sh.saved1" 2>/dev/null
shape "compare of one saved run a side" "$tmp/sh.saved1"
"$ab" compare "$tmp/sa1.json" "$tmp/sa2.json" -- "$tmp/sb1.json" "$tmp/sb2.json" >"$tmp/sh.saved2" 2>/dev/null
shape "compare of two saved runs a side" "$tmp/sh.saved2"
lib=$tmp/shlib
mkdir -p "$lib/vm" "$lib/src"
cat >"$lib/vm/vm-image.sh" <<'SH'
mkdir -p "$3/k" && echo 6.1.0-standin >"$3/k/release" && echo "$3/k" >"$3/kernel-dir"
SH
cat >"$lib/vm/vm-run.sh" <<'SH'
allocbench() { c=$1; shift; "$AB_BIN" "$c" --backend=user "$@"; }
eval "$(printf '%s\n' "$3" | sed "s|/tmp/ab-vm.json|$AB_STATE.json|g")"
SH
AB_STATE=$tmp/shboots AB_BIN=$ab ALLOCBENCH_LIBDIR=$lib "$ab" vm --cache="$tmp/shc" --accel=tcg -k a -k b -k c \
	--rounds=2 -- run --alloc=malloc,calloc --trials=20 >"$tmp/sh.vm" 2>/dev/null
shape "vm of three kernels (stand-in boots)" "$tmp/sh.vm"
# nothing is lost: -v prints the full report, with the verdicts' rule
AB_STATE=$tmp/shboots AB_BIN=$ab ALLOCBENCH_LIBDIR=$lib "$ab" vm -v --cache="$tmp/shc" --accel=tcg -k a -k b \
	--rounds=2 -- run --alloc=malloc --trials=20 >"$tmp/sh.vmv" 2>/dev/null
if grep -q "^verdict: faster or slower" "$tmp/sh.vmv" && grep -q "detectable" "$tmp/sh.vmv" &&
	grep -q "^guest CPU model: " "$tmp/sh.vmv"; then
	ok "vm -v: the full report (the guest CPU model, the detectable change, the verdicts' rule)"
else
	notok "vm -v: the full report ($(head -c 300 "$tmp/sh.vmv"))"
fi
