#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lifecycle.sh - the module's life cycle in the embedded kernel (TAP
# lines; issue 16, part 4): rmmod is refused while /dev/allocbench is open
# and while a run is in progress (the file_operations' .owner holds a
# reference on the module from open() to the last close(), so the module
# cannot go away under a running ioctl), the run still completes, the
# module unloads and loads again repeatedly, two fuzzers with eight
# threads each and a CLI run on both CPUs use the device at once, and
# processes are killed with SIGKILL before, inside and after a run, with
# and without objects held (/ab/fuzz --kill-phases). After each: nothing
# outstanding (ab_info.outstanding, as `allocbench info` prints it).
#
# Not here: an OOM kill. The OOM killer's report always dumps a stack
# ("Call Trace", mm/oom_kill.c dump_header()), which vm-run.sh's kernel
# log check rightly counts as a problem; to the module an OOM kill is a
# SIGKILL arriving in the same places as --kill-phases' (and an allocation
# that fails, which a run counts in ab_run.failed). Nor `rmmod -f`
# (CONFIG_MODULE_FORCE_UNLOAD is set in Debian's kernels): forcing is the
# kernel's documented way to unload a module in use, unsafe by design.
cd /ab || exit 1
. /ab/lib.sh

outstanding() { allocbench info 2>/dev/null | sed -n 's/^outstanding: *\([0-9]*\) objects.*/\1/p'; }
loaded() { grep -q '^allocbench ' /proc/modules; }
refcnt() { cat /sys/module/allocbench/refcnt 2>/dev/null || echo 0; }
nothing_left() { # nothing_left WHAT
	n=$(outstanding)
	if [ "$n" = 0 ]; then ok "lifecycle: nothing outstanding after $1"; else notok "lifecycle: nothing outstanding after $1 (outstanding '$n')"; fi
}
# wait_open: until a process has /dev/allocbench open (up to 10 s)
wait_open() {
	i=0
	while [ "$(refcnt)" -lt 1 ] && [ $i -lt 100 ]; do
		usleep 100000
		i=$((i + 1))
	done
}

loaded || insmod /lib/modules/allocbench.ko
expect 0 "^outstanding: *0 objects" "lifecycle: allocbench info prints the objects outstanding, 0 when idle" -- \
	allocbench info

# the device open, nothing running
sleep 60 </dev/allocbench &
p=$!
wait_open
if rmmod allocbench 2>/tmp/rm.err || ! loaded; then
	notok "lifecycle: rmmod refused while /dev/allocbench is open (it unloaded)"
	insmod /lib/modules/allocbench.ko
else
	ok "lifecycle: rmmod refused while /dev/allocbench is open (refcnt $(refcnt): $(cat /tmp/rm.err))"
fi
kill $p
wait $p 2>/dev/null

# a run in progress: rmmod refused, the run goes on and ends normally
# --raw: no none baseline first (it holds no objects, and how far it gets
# before the SIGINT below depends on how busy the host is: a fresh-clone
# CI run on 6.1 was still in it, 82603 of 100000 trials, and printed no row)
allocbench run --wide --alloc=kmalloc --size=4096 --batch=256 --trials=100000 --warmup=0 --cpu=0 --raw >/tmp/run.out 2>&1 &
p=$!
wait_open
usleep 500000
if rmmod allocbench 2>/tmp/rm.err || ! loaded; then
	notok "lifecycle: rmmod refused during a run (it unloaded)"
	insmod /lib/modules/allocbench.ko
else
	ok "lifecycle: rmmod refused during a run (refcnt $(refcnt), outstanding $(outstanding): $(cat /tmp/rm.err))"
fi
if loaded && kill -0 $p 2>/dev/null; then
	ok "lifecycle: the module and the run are still there after the refused rmmod"
else
	notok "lifecycle: the module and the run are still there after the refused rmmod"
fi
kill -INT $p
wait $p
st=$?
if grep -q '^kmalloc ' /tmp/run.out; then
	ok "lifecycle: the run interrupted (SIGINT) after the refused rmmod reports its trials (status $st)"
else
	notok "lifecycle: the run interrupted after the refused rmmod reports its trials (status $st: $(head -c 300 /tmp/run.out))"
fi
nothing_left "a run that outlived a refused rmmod"

# unload and load again, with a run in between, five times
i=0
bad=
while [ $i -lt 5 ]; do
	rmmod allocbench || bad="$bad rmmod#$i"
	insmod /lib/modules/allocbench.ko || bad="$bad insmod#$i"
	allocbench run --wide --alloc=kmem_cache --size=100 --trials=5 >/dev/null 2>&1 || bad="$bad run#$i"
	i=$((i + 1))
done
if [ -z "$bad" ]; then ok "lifecycle: rmmod, insmod and a run, five times"; else notok "lifecycle: rmmod, insmod and a run, five times (failed:$bad)"; fi
nothing_left "five reloads"

# two processes with many threads at once, and the CLI on both CPUs
./fuzz --storm-only --budget-mb=0 --threads=8 --children=0 --calls=1500 --deadline=400 --seed=11 >/tmp/f1.out 2>&1 &
p1=$!
./fuzz --storm-only --budget-mb=0 --threads=8 --children=0 --calls=1500 --deadline=400 --seed=12 >/tmp/f2.out 2>&1 &
p2=$!
allocbench run --wide --alloc=kmalloc,vmalloc_node --size=4K --batch=64 --trials=200 --cpu=0-1 --concurrent >/tmp/c.out 2>&1
c=$?
wait $p1
s1=$?
wait $p2
s2=$?
if [ $s1 = 0 ] && [ $s2 = 0 ] && [ $c = 0 ]; then
	ok "lifecycle: two fuzzers of 8 threads and a run on 2 CPUs at once: every answer allowed, the run done"
else
	notok "lifecycle: two fuzzers of 8 threads and a run on 2 CPUs at once (status $s1 $s2 $c: $(grep -h 'not ok\|^# ' /tmp/f1.out /tmp/f2.out | head -c 600) $(tail -c 200 /tmp/c.out))"
fi
grep -h '^# fuzz:' /tmp/f1.out /tmp/f2.out
nothing_left "two fuzzers and a concurrent run at once"

# SIGKILL at each point of a run's life
./fuzz --kill-phases=16 --seed=13
nothing_left "the kills"

if rmmod allocbench && insmod /lib/modules/allocbench.ko; then
	ok "lifecycle: rmmod and insmod at the end"
else
	notok "lifecycle: rmmod and insmod at the end"
fi
exit 0
