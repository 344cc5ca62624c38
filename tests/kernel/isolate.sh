#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# isolate.sh - --isolate, cgroup v2 and legacy cpusets (guest.sh's full and
# focused suites): the partition is made and removed, a killed run's
# cgroup is removed by the next, and without either way status 3 names
# both. Sourced by guest.sh, or run alone: make vm-run CMD='sh /ab/isolate.sh'.
. "$(dirname "$0")/lib.sh"

# --isolate: a cgroup v2 cpuset partition on every kernel; the legacy
# cpuset file system through libcpuset where the kernel has it (6.1: cpuset
# in /proc/filesystems; 6.12 is built without CONFIG_CPUSETS_V1); neither:
# status 3 naming what each way misses. The v2 way must leave the root's
# cgroup.subtree_control as it was: with cpuset bound there, the legacy
# file system could not be mounted.
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
sc0=$(cat "$cg/cgroup.subtree_control")
eff0=$(cat "$cg/cpuset.cpus.effective")
iso_gone() { ! ls -d "$1"/allocbench-* >/dev/null 2>&1; }
# iso_sigint DIR: a long --isolate run, sent SIGINT once it is in
# DIR/allocbench-PID; sets st (its status), during (1: it was in there),
# part and rooteff (cpuset.cpus.partition of its cgroup and the v2 root's
# cpuset.cpus.effective, read while it ran).
iso_sigint() {
	allocbench run --wide --isolate --cpu=1 --alloc=vmalloc_node --size=64K --trials=10000000 -q >/tmp/iso.out 2>&1 &
	pid=$!
	n=0
	# its name: allocbench-PID, or allocbench-PID+cpuset when the run
	# added cpuset to the root's subtree_control
	until grep -qx "$pid" "$1/allocbench-$pid"*/cgroup.procs 2>/dev/null || [ $n -ge 60 ]; do
		sleep 1
		n=$((n + 1))
	done
	grep -qx "$pid" "$1/allocbench-$pid"*/cgroup.procs 2>/dev/null && during=1 || during=0
	part=$(cat "$1/allocbench-$pid"*/cpuset.cpus.partition 2>/dev/null)
	rooteff=$(cat "$cg/cpuset.cpus.effective" 2>/dev/null)
	kill -INT $pid 2>/dev/null
	wait $pid
	st=$?
}
stale=allocbench-$(($(cat /proc/sys/kernel/pid_max) + 1))
mkdir "$cg/$stale"
expect 0 "removed the cgroup $cg/$stale left by a run that was killed" \
	"cli: --isolate removes a stale cgroup v2 allocbench-PID" -- \
	allocbench run --wide --isolate --cpu=1 --trials=5 -q
expect 0 "in the cpuset partition $cg/allocbench-" "cli: --isolate runs in a cgroup v2 cpuset partition and names it" -- \
	allocbench run --wide --isolate --cpu=1 --trials=20 -q
if iso_gone "$cg" && [ "$(cat "$cg/cgroup.subtree_control")" = "$sc0" ] && [ "$(cat "$cg/cpuset.cpus.effective")" = "$eff0" ]; then
	ok "cli: after the run the partition is gone, subtree_control and the root's CPUs as before"
else
	notok "cli: after the run the partition is gone, subtree_control and the root's CPUs as before ($(ls -d "$cg"/allocbench-* 2>/dev/null), subtree_control '$(cat "$cg/cgroup.subtree_control")' was '$sc0')"
fi
expect 0 '"isolation": *"cpuset partition"' "cli: --json records the partition" -- \
	allocbench run --isolate --cpu=1 --trials=5 --json
mkdir "$cg/ab-home"
sh -c "echo \$\$ >$cg/ab-home/cgroup.procs && exec allocbench run --wide --isolate --cpu=1 --trials=5" >/tmp/iso.out 2>&1
st=$?
if [ "$st" = 0 ] && grep -q "in the cpuset partition" /tmp/iso.out && ! grep -q "^allocbench: " /tmp/iso.out && iso_gone "$cg" && rmdir "$cg/ab-home"; then
	ok "cli: --isolate from a child cgroup moves back there without complaint"
else
	notok "cli: --isolate from a child cgroup moves back there without complaint (status $st: $(grep -v '^ ' /tmp/iso.out | head -c 300))"
fi
iso_sigint "$cg"
if [ "$during" = 1 ] && [ "$part" = root ] && [ "$rooteff" != "$eff0" ] && [ "$st" = 130 ] && iso_gone "$cg" &&
	[ "$(cat "$cg/cgroup.subtree_control")" = "$sc0" ]; then
	ok "cli: the partition held the run's CPU alone, and is gone after SIGINT"
else
	notok "cli: the partition is gone after SIGINT (during=$during partition=$part root CPUs $rooteff (were $eff0) status=$st subtree_control '$(cat "$cg/cgroup.subtree_control")': $(head -c 300 /tmp/iso.out))"
fi
expect 2 "every CPU of the cgroup v2 root" "cli: --isolate of every CPU refused up front (status 2)" -- \
	allocbench run --wide --isolate --cpu=0-1 --concurrent --trials=5 -q
if iso_gone "$cg" && [ "$(cat "$cg/cgroup.subtree_control")" = "$sc0" ]; then
	ok "cli: a refused partition leaves nothing behind"
else
	notok "cli: a refused partition leaves nothing behind ($(ls -d "$cg"/allocbench-* 2>/dev/null), subtree_control '$(cat "$cg/cgroup.subtree_control")')"
fi
# killed (SIGKILL): the next run on the same CPU removes the leftover
# before it checks the CPU, and the root's subtree_control ends as it was
allocbench run --wide --isolate --cpu=1 --trials=10000000 -q >/dev/null 2>&1 &
pid=$!
sleep 3
kill -9 $pid
wait $pid
expect 0 "removed the cgroup $cg/allocbench-$pid" "cli: after a SIGKILLed --isolate run the same CPU can be isolated again" -- \
	allocbench run --wide --isolate --cpu=1 --trials=5 -q
if iso_gone "$cg" && [ "$(cat "$cg/cgroup.subtree_control")" = "$sc0" ] && [ "$(cat "$cg/cpuset.cpus.effective")" = "$eff0" ]; then
	ok "cli: after a SIGKILLed run and the next one, subtree_control and the root's CPUs are as before"
else
	notok "cli: after a SIGKILLed run and the next one, subtree_control and the root's CPUs are as before ($(ls -d "$cg"/allocbench-* 2>/dev/null), '$(cat "$cg/cgroup.subtree_control")' was '$sc0')"
fi
# a stale-looking set is removed only when safe: allocbench-N+cpuset of a
# PID that does not exist goes (named), while one that still holds a task
# (a live run in another PID namespace shows no PID here) keeps its
# partition (it was made a member, its CPUs taken back, before its rmdir
# failed); an empty ROOT/allocbench-0+cpuset is taken over silently
pmax=$(cat /proc/sys/kernel/pid_max)
owed=allocbench-$((pmax + 2))+cpuset
busy=allocbench-$((pmax + 3))
mkdir "$cg/$owed" "$cg/allocbench-0+cpuset"
echo +cpuset >"$cg/cgroup.subtree_control"
mkdir "$cg/$busy"
echo 1 >"$cg/$busy/cpuset.cpus"
echo root >"$cg/$busy/cpuset.cpus.partition"
sleep 600 &
spid=$!
echo $spid >"$cg/$busy/cgroup.procs"
allocbench run --wide --isolate --cpu=0 --trials=5 -q >/tmp/iso.out 2>&1
part=$(cat "$cg/$busy/cpuset.cpus.partition")
if grep -q "removed the cgroup $cg/$owed left by a run that was killed" /tmp/iso.out &&
	[ ! -d "$cg/$owed" ] && [ ! -d "$cg/allocbench-0+cpuset" ] &&
	! grep -q "allocbench-0+cpuset" /tmp/iso.out &&
	[ "$part" = root ] && grep -qx $spid "$cg/$busy/cgroup.procs"; then
	ok "cli: --isolate removes a dead PID's allocbench-N+cpuset and allocbench-0+cpuset, and leaves a set that holds a task as it was"
else
	notok "cli: stale sets: $owed $([ -d "$cg/$owed" ] && echo left || echo removed), allocbench-0+cpuset $([ -d "$cg/allocbench-0+cpuset" ] && echo left || echo removed), the busy one's partition '$part' ($(head -c 300 /tmp/iso.out))"
fi
kill $spid
wait $spid 2>/dev/null
echo member >"$cg/$busy/cpuset.cpus.partition"
rmdir "$cg/$busy" "$cg/$owed" "$cg/allocbench-0+cpuset" 2>/dev/null
echo "$sc0" | grep -qw cpuset || echo -cpuset >"$cg/cgroup.subtree_control"
# a closed terminal (SIGHUP) ends the run as cleanly as Ctrl-C, status
# 129 (128 + SIGHUP)
allocbench run --wide --isolate --cpu=1 --trials=10000000 -q >/tmp/iso.out 2>&1 &
pid=$!
sleep 3
kill -HUP $pid
wait $pid
st=$?
if [ "$st" = 129 ] && iso_gone "$cg" && [ "$(cat "$cg/cgroup.subtree_control")" = "$sc0" ]; then
	ok "cli: SIGHUP ends an --isolate run and removes its partition"
else
	notok "cli: SIGHUP ends an --isolate run and removes its partition (status $st, $(ls -d "$cg"/allocbench-* 2>/dev/null): $(head -c 300 /tmp/iso.out))"
fi
if grep -qw cpuset /proc/filesystems; then
	# cpuset bound to a legacy hierarchy elsewhere: not in v2, not at /dev/cpuset
	mkdir -p /tmp/cs /dev/cpuset
	# a removed cgroup's cpuset state is freed asynchronously (after an
	# RCU grace period, in a work item): until then the controller is
	# busy in v2 (rebind_subsystems(): EBUSY); give it up to 5 s
	i=0
	until mount -t cpuset none /tmp/cs 2>/dev/null || [ $i -ge 25 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	if grep -qE " /tmp/cs (cpuset|cgroup) " /proc/mounts; then
		ok "cli: the legacy cpuset file system mounts after the cgroup v2 runs"
	else
		notok "cli: the legacy cpuset file system mounts after the cgroup v2 runs (subtree_control '$(cat "$cg/cgroup.subtree_control")', mounts: $(grep /tmp/cs /proc/mounts))"
	fi
	expect 3 "has no cpuset controller" "cli: --isolate with cpuset on a legacy hierarchy away from /dev/cpuset" -- \
		allocbench run --wide --isolate --trials=5
	mount -t cpuset none /dev/cpuset
	umount /tmp/cs
	mkdir /dev/cpuset/$stale
	expect 0 "removed the cpuset /$stale left by a run that was killed" \
		"cli: --isolate removes a stale legacy cpuset allocbench-PID" -- \
		allocbench run --wide --isolate --cpu=1 --trials=5 -q
	expect 0 "in the exclusive cpuset /allocbench-" "cli: --isolate runs in a legacy exclusive cpuset (libcpuset)" -- \
		allocbench run --wide --isolate --cpu=1 --trials=20 -q
	if iso_gone /dev/cpuset; then ok "cli: the isolate cpuset is gone after the run"; else notok "cli: the isolate cpuset is gone after the run"; fi
	iso_sigint /dev/cpuset
	if [ "$during" = 1 ] && [ "$st" = 130 ] && iso_gone /dev/cpuset; then
		ok "cli: the isolate cpuset is gone after SIGINT"
	else
		notok "cli: the isolate cpuset is gone after SIGINT (during=$during status=$st: $(head -c 300 /tmp/iso.out))"
	fi
	umount /dev/cpuset
	v1how="mount -t cpuset none /dev/cpuset"
else
	ok "cli: --isolate through libcpuset: this kernel has no legacy cpuset file system # SKIP"
	v1how="this kernel has no legacy cpuset file system"
fi
umount "$cg"
expect 3 "/dev/cpuset is not mounted ($v1how.*no cgroup v2 is mounted" "cli: --isolate with neither way: status 3 naming both" -- \
	allocbench run --wide --isolate --trials=5
mount -t cgroup2 cgroup2 "$cg"
