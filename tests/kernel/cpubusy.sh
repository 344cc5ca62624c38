#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cpubusy.sh - run by guest.sh in the two-node boot (CPU 0 and CPU 1 on
# their own nodes; any boot with a CPU 1 will do): the other CPUs' busy
# time during a timed pass (lib/cpubusy.h) and the serialized vCPUs of
# qemu -accel tcg,thread=single (allocbench.vm=tcg-single, vm-run.sh).
#
# With a shell loop pinned to CPU 1, a run on CPU 0 must report CPU 1 busy
# above 50% and warn: the loop never sleeps, so CPU 1 is busy the whole
# pass whatever the host's load (each tick finds it busy; 50% leaves room
# for the ticks' resolution and the loop's start). Without the loop only
# the figure's presence is asserted: what CPU 1 then runs (timers, RCU,
# kworkers, the output helper) is the guest's own work, which takes more of
# the pass when the host is busy (the guest's clock follows the host's,
# and each of those takes longer under a slower TCG thread), so neither a
# bound on the quiet figure nor the warning's absence holds on a busy host.
. /ab/lib.sh

if [ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null)" != 1 ]; then
	ok "cpubusy: no CPU 1 online in this boot # SKIP"
	exit 0
fi
# a few hundred ms of timed pass: one /proc/stat tick (10 ms) a few %
# (the text's warnings and notes; jrun, the same run's figures in JSON)
run() {
	allocbench run --wide --alloc=kmalloc --size=4096 --cpu=0 --trials=300 >/tmp/busy.out 2>&1
}
jrun() {
	allocbench run --alloc=kmalloc --size=4096 --cpu=0 --trials=300 --json -q >/tmp/busy.json 2>&1
}

taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
jrun
st=$?
run
st2=$?
kill $hog
wait $hog 2>/dev/null
# other_cpus of kmalloc's row: busy_pct, and cpu1 the busiest
oc=$(jobj other_cpus kmalloc </tmp/busy.json)
pct=$(printf '%s\n' "$oc" | sed -n 's/.*"busy_pct": *\([0-9.e+]*\).*/\1/p')
if [ "$st" = 0 ] && [ -n "$pct" ] && printf '%s\n' "$oc" | grep -q '"busiest_cpu": *1,' &&
	awk -v p="$pct" 'BEGIN { exit !(p > 50) }'; then
	ok "cpubusy: a busy loop on CPU 1 is reported beside a run on CPU 0 (cpu1 busy $pct% of the timed pass)"
else
	notok "cpubusy: a busy loop on CPU 1 (status $st, figure '${pct}'): $(printf '%s' "$oc" | head -c 400)"
fi
if [ "$st2" = 0 ] && grep -q '^warning: other CPUs were busy above 1% of one CPU, beyond a /proc/stat tick, in [12] of 2 timed passes (up to [0-9.]*%, in [^ ]*'"'"'s, cpu1 ' /tmp/busy.out &&
	grep -q "^warning: other CPUs were busy .*: this guest's vCPUs take turns on one host thread" /tmp/busy.out; then
	ok "cpubusy: the busy loop on CPU 1 gives a warning that says the vCPUs take turns"
else
	notok "cpubusy: no warning for the busy loop on CPU 1: $(grep -e '^warning' /tmp/busy.out | head -c 400)"
fi

run
st=$?
if [ "$st" = 0 ] && grep -q '^note: kmalloc: other CPUs busy [0-9][0-9.]*% of the timed pass (cpu1 [0-9][0-9.]*%; ' /tmp/busy.out &&
	grep -q '^note: none: other CPUs busy [0-9][0-9.]*% of the timed pass' /tmp/busy.out; then
	ok "cpubusy: without the loop the other CPUs' busy time is reported for each timed pass (kmalloc's and the baseline's)"
else
	notok "cpubusy: without the loop (status $st): $(grep -e 'other CPUs' /tmp/busy.out | head -c 400)"
fi

# the header says how qemu ran (the quiet run's), and that --concurrent and
# --free-cpu runs are no concurrency under it (in JSON too)
if grep -q ', qemu tcg-single (allocbench.vm: its vCPUs take turns on one host thread' /tmp/busy.out; then
	ok "cpubusy: the header says the vCPUs take turns (allocbench.vm=tcg-single)"
else
	notok "cpubusy: the header does not say the vCPUs take turns: $(grep '^cpu:' /tmp/busy.out)"
fi
expect 0 '^warning: the vCPUs of this embedded kernel are serialized .*the frees on CPU 1 never ran beside' \
	"cpubusy: a --free-cpu run's header says its frees never ran beside the allocations" -- \
	allocbench run --wide --alloc=kmalloc --trials=5 --cpu=0 --free-cpu=1
out=$(allocbench run --alloc=kmalloc --trials=5 --cpu=0,1 --concurrent --json 2>&1 | tr -d '\n ')
if printf '%s' "$out" | grep -q '"vcpus_serialized":true' &&
	printf '%s' "$out" | grep -q '"warnings":\[[^]]*"thevCPUsofthisembeddedkernelareserialized[^"]*this--concurrentrunneverranatthesametime'; then
	ok "cpubusy: a --concurrent run's JSON has vcpus_serialized and warns that its CPUs never ran at the same time"
else
	notok "cpubusy: a --concurrent run's JSON: $(printf '%s' "$out" | grep -o '"warnings":\[[^]]*\]' | head -c 400)"
fi
exit 0
