#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vmab.sh [KERNEL_B] - `allocbench vm` from the host (TAP lines): bad
# options refused before anything boots; one command in one kernel; the
# A/B comparison in alternating boots: 6.1 against 6.1 with
# init_on_alloc=0 must find 4 KiB allocations faster on that side (the one
# timing verdict here, an effect of ~2.5x by construction), 6.1 against
# KERNEL_B (default 6.12), 6.1:init_on_alloc=0 and 6.1 itself (A against A:
# invariants only; its false-positive rate is make bench's) runs end to end
# with a JSON document valid against build/schema/allocbench-vm.schema.json and a
# picture; boots that fail are left
# out by kernel and round, too few good boots cannot conclude (status 5);
# Ctrl-C ends a run at once with nothing left running; an installed
# allocbench (make install) runs it too.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
kb=${1:-6.12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ab=./allocbench
# the boots go through the PVH entry (--pvh: about 7 s less each, no
# KASLR), but for the installed allocbench's, which boots the bzImage as
# installed kernels boot
pvh=--pvh
run="run --alloc=kmalloc --size=4096 --cpu=0 --trials=100 --explain"

# ---- refused before anything boots ----
expect 2 "0 kernels" "vmab: no --kernel refused" -- $ab vm -- run
expect 2 "5 kernels" "vmab: five kernels refused" -- \
	$ab vm -k 6.1 -k 6.1 -k 6.1 -k 6.1 -k 6.1 -- run
expect 2 "rounds=0: allowed 1 to 100" "vmab: --rounds=0 refused" -- \
	$ab vm -k 6.1 -k 6.1 --rounds=0 -- run
expect 2 "threshold=abc" "vmab: --threshold=abc refused" -- \
	$ab vm -k 6.1 -k 6.1 --threshold=abc -- run
expect 2 "nodes=4: allowed 1, 2 and 3" "vmab: --nodes=4 refused" -- \
	$ab vm -k 6.1 --nodes=4 -- run
expect 2 "rounds and --threshold compare kernels" "vmab: --rounds with one kernel refused" -- \
	$ab vm -k 6.1 --rounds=3 -- run
expect 2 "accel=fast: allowed auto, kvm and tcg" "vmab: --accel=fast refused" -- \
	$ab vm -k 6.1 --accel=fast -- run
expect 2 "no command" "vmab: no command after -- refused" -- $ab vm -k 6.1
expect 2 "'frob' is not a command" "vmab: an unknown command refused" -- \
	$ab vm -k 6.1 -- frob
expect 2 "info: kernels are compared on run, sweep, lookup or reproduce" \
	"vmab: two kernels compare only measuring commands" -- $ab vm -k 6.1 -k 6.1 -- info
expect 2 "json belongs before --" "vmab: --json after -- refused (the guest's file is lost)" -- \
	$ab vm -k 6.1 -- run --json
expect 2 "-o/tmp/x belongs before --" "vmab: -o after -- refused" -- \
	$ab vm -k 6.1 -- run -o/tmp/x
expect 2 "-qo/tmp/x belongs before --" "vmab: -o inside a cluster of short options refused" -- \
	$ab vm -k 6.1 -- run -qo/tmp/x
expect 2 "json=x belongs before --" "vmab: --json=x after -- refused" -- \
	$ab vm -k 6.1 -- run --json=x
expect 2 "rounds and --threshold compare kernels" "vmab: --rounds=5 (the default, given) with one kernel refused" -- \
	$ab vm -k 6.1 --rounds=5 -- run
expect 2 "no kernel named" "vmab: --kernel='' refused" -- $ab vm -k '' -- run
expect 2 "vpmu=bogus: allowed exact" "vmab: --vpmu=bogus refused" -- $ab vm -k 6.1 --vpmu=bogus -- run
expect 2 "virtual PMU counts what TCG executes" "vmab: --vpmu with --accel=kvm refused" -- \
	$ab vm -k 6.1 --vpmu --accel=kvm -- run
expect 2 "deterministic boots one vCPU" "vmab: --deterministic with --smp=2 refused" -- \
	$ab vm -k 6.1 -k 6.1 --deterministic --smp=2 -- run
expect 2 "deterministic with --accel=kvm" "vmab: --deterministic with --accel=kvm refused" -- \
	$ab vm -k 6.1 -k 6.1 --deterministic --accel=kvm -- run
expect 2 "paths: the guest command must be run" "vmab: --paths with sweep refused" -- \
	$ab vm -k 6.1 --paths -- sweep
expect 2 "paths with --accel=kvm" "vmab: --paths with --accel=kvm refused" -- \
	$ab vm -k 6.1 --paths --accel=kvm -- run
expect 2 "drop --paths or --concurrent" "vmab: --paths with the guest's --concurrent refused before a boot" -- \
	$ab vm -k 6.1 -k 6.12 --paths -- run --concurrent --cpu=0,1
expect 2 "profile: the guest command must be run" "vmab: --profile with sweep refused" -- \
	$ab vm -k 6.1 -k 6.1 --profile -- sweep --alloc=kmalloc
expect 2 "cpu-model='a b': a qemu CPU model name" "vmab: --cpu-model with a space refused" -- \
	$ab vm -k 6.1 --cpu-model='a b' -- run
expect 2 "cpu-model=EPYC after --cpu-model=qemu64: one CPU model for every boot" "vmab: an A/B of two CPU models refused (--cpu-model twice)" -- \
	$ab vm -k 6.1 -k 6.12 --cpu-model=qemu64 --cpu-model EPYC -- run
expect 2 "no kernel named" "vmab: --kernel=:quiet refused" -- $ab vm -k :quiet -- run
expect 2 "cache='': give a directory" "vmab: --cache='' refused" -- $ab vm --cache= -k 6.1 -- run
expect 2 "KERNEL=5.x: not a kernel" "vmab: a name that is no kernel refused with the allowed forms" -- \
	$ab vm -k 6.1 -k 5.x -- run
if [ -e /dev/kvm ]; then
	# here /dev/kvm may be there and still unusable; either way one line
	out=$($ab vm -k 6.1 --accel=kvm -- info 2>&1)
	rc=$?
	if [ "$rc" = 0 ] || { [ "$rc" = 5 ] && printf '%s\n' "$out" | grep -q "not usable"; }; then
		ok "vmab: --accel=kvm boots with KVM, or says it is not usable (status $rc)"
	else
		notok "vmab: --accel=kvm (exit $rc: $out)"
	fi
else
	expect 5 "/dev/kvm is not usable" "vmab: --accel=kvm without /dev/kvm: status 5" -- \
		$ab vm -k 6.1 --accel=kvm -- info
fi

# ---- one kernel: the command's own output and status ----
# (with --paths, which implies --vpmu: the same boot shows the virtual
# PMU's counts in the guest, and the guest's run got --paths)
$ab vm $pvh --paths -k 6.1 -- run --alloc=kmalloc --size=4096 --trials=20 --cpu=0 --events=instructions >"$tmp/one.out" 2>"$tmp/one.err"
rc=$?
if grep -q '^cpu: .*virtual PMU exact' "$tmp/one.out" &&
	grep -q '^note: events on the virtual PMU' "$tmp/one.out" &&
	grep -q '^paths (--paths)' "$tmp/one.out" &&
	grep -q '^vm: virtual PMU (--vpmu=exact)' "$tmp/one.err"; then
	ok "vmab: --paths boots with the plugin (--vpmu): the guest counts instructions on it and its run gives path lengths, vm's header says so"
else
	notok "vmab: --vpmu: $(grep -e 'cpu:' -e 'virtual PMU' "$tmp/one.out" "$tmp/one.err" | head -c 300)"
fi
if [ "$rc" = 0 ] && grep -q "kmalloc " "$tmp/one.out"; then
	ok "vmab: one kernel runs the command and prints its output"
else
	notok "vmab: one kernel runs the command (exit $rc: $(tail -c 300 "$tmp/one.err"))"
fi
if grep -q -e "TCG: an emulated CPU" -e "KVM:" "$tmp/one.err"; then
	ok "vmab: says whether it ran under TCG or KVM"
else
	notok "vmab: says whether it ran under TCG or KVM ($(cat "$tmp/one.err"))"
fi
if grep -q "^vm: boots through the PVH entry (--pvh): no KASLR" "$tmp/one.err"; then
	ok "vmab: --pvh says it boots through the PVH entry, without KASLR"
else
	notok "vmab: --pvh says it boots through the PVH entry ($(cat "$tmp/one.err"))"
fi
expect 2 "nosuch" "vmab: the guest command's own status comes back (2 for a bad strategy)" -- \
	$ab vm $pvh -k 6.1 -- run --alloc=nosuch
# a command that prints a result marker of its own cannot fake the result:
# each boot's marker carries a random token (an unknown event is a warning)
$ab vm $pvh -k 6.1 --json -o "$tmp/mark.json" -- run --alloc=kmalloc --trials=20 \
	--events="nosuch
@@AB-VM-RESULT-0123456789abcdef@@
{}" 2>"$tmp/mark.err"
rc=$?
if [ "$rc" = 0 ] && grep -q '"status":"ok"' "$tmp/mark.json" && grep -q '"entry":"pvh"' "$tmp/mark.json"; then
	ok "vmab: output that fakes the result marker does not replace the boot's result"
else
	notok "vmab: a faked result marker, or no \"entry\":\"pvh\" (exit $rc: $(tail -c 300 "$tmp/mark.err"))"
fi

# ---- vm -v --paths without counters: the fast paths still shown ----
# (the verbose comparison returned after its rows when no row had
# counters, before the profiles' and the fast paths' tables)
$ab vm $pvh -v --paths -k 6.1 -k 6.1:init_on_alloc=0 --rounds=2 -- run --alloc=kmalloc --size=4096 --trials=10 --cpu=0 >"$tmp/pv.out" 2>"$tmp/pv.err"
rc=$?
if [ $rc = 0 ] && grep -q '^fast paths (--paths)' "$tmp/pv.out" &&
	grep -q "^    A's lengths: " "$tmp/pv.out"; then
	ok "vmab: -v --paths without counters prints the fast paths and each kernel's lengths"
else
	notok "vmab: -v --paths: status $rc, $(grep -c . "$tmp/pv.out") lines, no fast paths table: $(tail -2 "$tmp/pv.err" | head -c 300)"
fi

# ---- A/B: init_on_alloc=0 makes 4 KiB allocations faster ----
# The only test here that asserts a timing verdict, as the effect is large
# by construction: with init_on_alloc=1 every 4 KiB object is zeroed, which
# is most of its cost (B / A ~0.36 under TCG; docs/testing.md, make bench). With 3
# boots a side an idle host gave p 0.005 (Welch's t on the boots' log
# medians), and a busy one a p above Holm's 0.025: one A boot of the three
# read 4970 against 3559 and 3766 ns/op. 5 boots a side.
# row R PHASE FIELD: a row's field of comparison 0 in $tmp/$1.json
field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["comparisons"][int(sys.argv[4])]["rows"]:
    if r["label"] == sys.argv[2] and r["phase"] == sys.argv[3]:
        print(r[sys.argv[5]])' "$tmp/$1.json" "$2" "$3" "${5:-0}" "$4"
}
schema_ok() {
	if out=$(/usr/bin/jsonschema -i "$tmp/$1.json" build/schema/allocbench-vm.schema.json 2>&1); then
		ok "vmab: $1: the document is valid against build/schema/allocbench-vm.schema.json"
	else
		notok "vmab: $1: $(printf '%s' "$out" | head -c 400)"
	fi
}
$ab vm $pvh -k 6.1 -k 6.1:init_on_alloc=0 --rounds=4 --json -o "$tmp/ioa.json" -- $run \
	2>"$tmp/ioa.err"
rc=$?
v=$(field ioa "kmalloc 4096 B" alloc verdict)
if [ "$rc" = 0 ] && [ "$v" = faster ]; then
	ok "vmab: 6.1 against 6.1:init_on_alloc=0: 4 KiB kmalloc faster on that side (B / A $(field ioa "kmalloc 4096 B" alloc ratio), p $(field ioa "kmalloc 4096 B" alloc p))"
else
	notok "vmab: 6.1 against 6.1:init_on_alloc=0: exit $rc, verdict '$v' ($(tail -c 300 "$tmp/ioa.err"))"
fi
schema_ok ioa
c=$(field ioa "kmalloc 4096 B" alloc counters)
case $c in
*"'event': 'kprobe:"*"'delta':"*) ok "vmab: with --explain, each row carries the counters per op of A and B and B - A" ;;
*) notok "vmab: with --explain, counters per op in the comparison (got: $(printf '%s' "$c" | head -c 200))" ;;
esac
if grep -q '"init_on_alloc":false' "$tmp/ioa.json" && grep -q '"init_on_alloc":true' "$tmp/ioa.json" &&
	grep -q '"entry":"pvh"' "$tmp/ioa.json"; then
	ok "vmab: each side's boots ran with its own boot parameters (the results say init_on_alloc), through the PVH entry"
else
	notok "vmab: each side's boots ran with its own boot parameters"
fi
if $ab plot "$tmp/ioa.json" -o "$tmp/ioa.png" 2>"$tmp/plot.err" &&
	[ "$(head -c 4 "$tmp/ioa.png" | tail -c 3)" = PNG ]; then
	ok "vmab: plot draws the comparison"
else
	notok "vmab: plot draws the comparison ($(cat "$tmp/plot.err"))"
fi

# export of this guest-made document: each format reads back as its engine
# reads it (tests/export/check.py), one sample per good boot of a kernel,
# the kernels' keys alike (row identity, not boot parameters)
for f in mmtests kcidb fastpath; do
	k=--kernel=6.1:init_on_alloc=0
	[ $f = kcidb ] && k=
	if $ab export --format=$f $k "$tmp/ioa.json" -o "$tmp/ioa.$f" 2>"$tmp/exp.err" &&
		bad=$(python3 tests/export/check.py $f "$tmp/ioa.$f" 2>&1); then
		ok "vmab: export --format=$f of a vm document reads back as $f does"
	else
		notok "vmab: export --format=$f of a vm document: $(head -c 300 "$tmp/exp.err") $bad"
	fi
done
good=$(python3 -c 'import json, sys
print(sum(1 for b in json.load(open(sys.argv[1]))["boots"] if b["status"] == "ok" and b["kernel_index"] == 1))' "$tmp/ioa.json")
n=$(grep -c "^median_ns	kmalloc.4096B.nodelocal.cpu0.alloc	" "$tmp/ioa.mmtests")
if [ "$n" = "$good" ] && [ "$n" -gt 0 ]; then
	ok "vmab: export: one mmtests interval per good boot of the kernel chosen ($n)"
else
	notok "vmab: export: $n intervals of kmalloc 4096's median for $good good boots"
fi
$ab export --format=mmtests --kernel=6.1 "$tmp/ioa.json" | cut -f1,2 | sort -u >"$tmp/ka"
cut -f1,2 "$tmp/ioa.mmtests" | sort -u >"$tmp/kb"
if cmp -s "$tmp/ka" "$tmp/kb" && [ -s "$tmp/ka" ]; then
	ok "vmab: export: both kernels' metrics have the same keys ($(wc -l <"$tmp/ka"))"
else
	notok "vmab: export: the kernels' keys differ: $(diff "$tmp/ka" "$tmp/kb" | head -c 300)"
fi

# ---- 6.1 against another kernel, a boot option and itself, two nodes ----
# (four kernels, the most vm takes; the fourth is A against A)
$ab vm $pvh -k 6.1 -k "$kb" -k 6.1:init_on_alloc=0 -k 6.1 --rounds=2 --nodes=2 --threshold=5% \
	--json -o "$tmp/ab.json" -- \
	run --alloc=kmalloc,vmalloc_node --size=4096 --cpu=0 --trials=40 2>"$tmp/ab.err"
rc=$?
if [ "$rc" = 0 ] && [ -n "$(field ab "kmalloc 4096 B" alloc verdict)" ] &&
	[ -n "$(field ab "vmalloc_node 4096 B" free detectable_pct 1)" ]; then
	ok "vmab: 6.1 against $kb, 6.1:init_on_alloc=0 and 6.1 (4 kernels, 2 nodes) end to end: $kb kmalloc alloc $(field ab "kmalloc 4096 B" alloc verdict), B / A $(field ab "kmalloc 4096 B" alloc ratio)"
else
	notok "vmab: 6.1 against $kb, 6.1:init_on_alloc=0 and 6.1: exit $rc ($(tail -c 300 "$tmp/ab.err"))"
fi
# A against A: what must hold whatever the boots measured (a verdict on
# time would be a coin toss at 5%: make bench measures that rate)
aa=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["comparisons"][int(sys.argv[2])]
bad = []
rows = c["rows"]
for r in rows:
    what = r["label"] + " " + r["phase"]
    n = (len(r["boots_a"] or []), len(r["boots_b"] or []))
    if n != (2, 2):
        bad.append(what + ": %d and %d boots" % n)
        continue
    lo, hi = r["ci95"]
    if r["verdict"] not in ("faster", "slower", "no significant difference"):
        bad.append(what + ": verdict %r" % r["verdict"])
    elif not (0 <= r["p"] <= 1):
        bad.append(what + ": p %r" % r["p"])
    elif not (lo <= r["ratio"] <= hi):
        bad.append(what + ": B / A %r outside [%r, %r]" % (r["ratio"], lo, hi))
if len(rows) != 4:
    bad.append("%d phase tests" % len(rows))
print("; ".join(bad) if bad else "ok " + ", ".join("%s %s %.3f" % (r["label"], r["phase"], r["ratio"]) for r in rows))' "$tmp/ab.json" 2 2>&1)
case $aa in
"ok "*) ok "vmab: 6.1 against itself: 4 phase tests, each a verdict, p in [0, 1], B / A inside its interval, 2 boots a side (${aa#ok })" ;;
*) notok "vmab: 6.1 against itself: $aa" ;;
esac
schema_ok ab
order=$(python3 -c 'import json, sys
print(" ".join(b["kernel"] for b in json.load(open(sys.argv[1]))["boots"]))' "$tmp/ab.json")
if [ "$order" = "6.1 $kb 6.1:init_on_alloc=0 6.1 6.1 6.1:init_on_alloc=0 $kb 6.1" ]; then
	ok "vmab: four kernels boot A B C D, D C B A"
else
	notok "vmab: three kernels boot in the order '$order'"
fi
if grep -q '"accel":"tcg"' "$tmp/ab.json" || grep -q '"accel":"kvm"' "$tmp/ab.json"; then
	ok "vmab: the document says tcg or kvm"
else
	notok "vmab: the document says tcg or kvm"
fi

# ---- boots that fail are left out; too few cannot conclude ----
# rdinit=/nonexistent: the kernel finds no init and panics, every time
out=$($ab vm $pvh -k 6.1 -k 6.1:rdinit=/nonexistent --rounds=1 -- \
	run --alloc=kmalloc --trials=20 2>"$tmp/rd.err")
rc=$?
if [ "$rc" = 5 ] &&
	printf '%s\n' "$out" | grep -q "left out: boot 2 (B = 6.1:rdinit=/nonexistent, round 1): no status" &&
	printf '%s\n' "$out" | grep -q "cannot conclude"; then
	ok "vmab: boots that do not boot are left out by kernel and round; too few: cannot conclude, status 5"
else
	notok "vmab: failed boots (exit $rc: $(printf '%s' "$out" | tail -c 400) $(tail -c 200 "$tmp/rd.err"))"
fi
# the default text's shape (issue 42): a header of at most 4 lines, lines
# of at most 120 columns, notes of at most 100
bad=$(printf '%s\n' "$out" | sh tests/cli/shape.sh 2>&1)
if [ -z "$bad" ]; then
	ok "vmab: vm's default text: header <= 4 lines, table <= 120 columns, notes <= 100"
else
	notok "vmab: vm's default text: $bad"
fi
# (default rounds: one boot of the 10 runs)
out=$($ab vm $pvh --wide -k 6.1 -k 6.1 -- run --alloc=kmalloc --gfp=nosuch 2>&1)
rc=$?
if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q "left out: boot 1 (A = 6.1, round 1): command failed: status 2: .*nosuch" &&
	printf '%s\n' "$out" | grep -q "left out: boot 2 (B = 6.1, round 1): not run: the command was refused in boot 1"; then
	ok "vmab: a command the guest refuses ends the run after its first boot (status 2), with its message"
else
	notok "vmab: a failing command (exit $rc: $(printf '%s' "$out" | tail -c 400))"
fi
if printf '%s\n' "$out" | grep -q "^allocbench vm: 2 kernels, 5 rounds (10 boots"; then
	ok "vmab: two kernels, no --rounds: 5 rounds, 10 boots"
else
	notok "vmab: two kernels, no --rounds: 5 rounds, 10 boots ($(printf '%s' "$out" | head -c 300))"
fi
# issue 21: a --concurrent run above a limit only its CPUs together reach
# (16000 x 4 KiB GFP_ATOMIC each, 64 MiB atomic limit) is refused in the
# guest up front (status 2): a usage error after the first boot, not boots
# left out for a run that failed (before: status 1 in every boot)
out=$($ab vm $pvh --wide -k 6.1 -k 6.1 --rounds=2 -- run --alloc=kmalloc --size=4096 --gfp=atomic \
	--batch=16000 --trials=5 --cpu=0,1 --concurrent 2>&1)
rc=$?
if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q "left out: boot 1 (A = 6.1, round 1): command failed: status 2: .*atomic limit of $((64 << 20)) bytes" &&
	printf '%s\n' "$out" | grep -q "left out: boot 2 (B = 6.1, round 1): not run: the command was refused in boot 1"; then
	ok "vmab: --concurrent above the atomic limit on its CPUs together is a usage error after the first boot (status 2)"
else
	notok "vmab: --concurrent above the atomic limit together (exit $rc: $(printf '%s' "$out" | tail -c 400))"
fi

# ---- a signal ends a run at once, nothing left running ----
# signalled SIG STATUS WHAT: a run gets SIG inside a boot, 2 s after its
# qemu started (waited for, up to 300 s: on a busy machine preparing the
# image outlasted a fixed 8 s, and the signal ended the preparation
# instead); it must end with STATUS, leaving no qemu and no temporary file
# its_qemu PID: the booting qemu (one with -kernel: vm's KVM probe runs
# one without) that is a descendant of PID (the guests of others, such as
# make check's other lane, are not this run's)
its_qemu() {
	ps -e -o pid=,ppid=,comm=,args= | awk -v top="$1" '
		{ parent[$1] = $2; name[$1] = $3; boot[$1] = / -kernel / }
		END { for (p in name) if (name[p] ~ /^qemu-system/ && boot[p]) {
			q = p; while (q in parent && q != top && q > 1) q = parent[q]
			if (q == top) print p } }'
}
signalled() {
	out=$tmp/sig-$1.out
	# its own TMPDIR: what it leaves is its own, whatever else runs here
	mkdir -p "$tmp/tmpdir-$1"
	TMPDIR=$tmp/tmpdir-$1 $ab vm $pvh -k 6.1 -k 6.1 --rounds=2 -- run --alloc=kmalloc --trials=100000 >"$out" 2>&1 &
	pid=$!
	i=0
	while [ -z "$(its_qemu "$pid")" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 1
		i=$((i + 1))
	done
	sleep 2
	mine=$(its_qemu "$pid")
	kill -"$1" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 30 ]; do
		sleep 1
		i=$((i + 1))
	done
	wait "$pid"
	rc=$?
	sleep 1
	left=
	for q in $mine; do
		! kill -0 "$q" 2>/dev/null || left="$left $q"
	done
	if [ "$rc" = "$2" ] && [ -n "$mine" ] && [ -z "$left" ] &&
		[ -z "$(ls -A "$tmp/tmpdir-$1")" ]; then
		ok "vmab: $3 ends the run with status $2 within ${i}s, no qemu and no temporary file left"
	else
		notok "vmab: $3: exit $rc after ${i}s, its qemu ${mine:-(none found)}, left:${left:- none}, in its TMPDIR:$(ls -A "$tmp/tmpdir-$1" | tr '\n' ' ') ($(tail -c 300 "$out"))"
	fi
}
signalled INT 130 "Ctrl-C"
# a closed terminal ends the boot too, never leaves it running
signalled HUP 129 "SIGHUP (a closed terminal)"

# ---- an installed allocbench: scripts and module sources from LIBDIR ----
if make -s install DESTDIR="$tmp/inst" PREFIX=/usr >/dev/null 2>&1; then
	mkdir -p "$tmp/cache"
	ln -s "$PWD/.cache/kernel" "$tmp/cache/kernel"
	expect 0 "max batch" "vmab: an installed allocbench runs vm (module built from the installed sources)" -- \
		env ALLOCBENCH_LIBDIR="$tmp/inst/usr/lib/allocbench" ALLOCBENCH_CACHE="$tmp/cache" \
		"$tmp/inst/usr/bin/allocbench" vm -k 6.1 -- info
	if [ -f "$tmp/inst/usr/lib/allocbench/vm/pvh-image.sh" ]; then
		ok "vmab: make install puts pvh-image.sh (vm --pvh) beside vm-run.sh"
	else
		notok "vmab: make install leaves out pvh-image.sh, which vm --pvh runs"
	fi
else
	notok "vmab: make install DESTDIR failed"
fi
