#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-run.sh KERNEL_DIR INITRD CMD - boot Debian's kernel under qemu (TCG)
# with the allocbench initramfs, run CMD (a shell command line) inside, print
# its output and exit with its status.
#
# Environment: NODES=1|2|3 (NUMA nodes, default 1; 3 adds a CPU-only and a
# memory-only node), APPEND (extra kernel
# parameters), VM_MEM (MiB, default 1024), VM_SMP (vCPUs, 1 to 16, default
# 2; with NODES=2 or 3 half of them a node), VM_TIMEOUT (seconds, default 900),
# VM_LOG (file that receives the whole console log), VM_ACCEL=tcg|kvm
# (default tcg; kvm needs a usable /dev/kvm: `allocbench vm` checks it),
# VM_CPU (qemu's -cpu model, e.g. max, Skylake-Client, EPYC; default:
# qemu's own, qemu64 under TCG, the host's under KVM), VM_REP_GOOD=0|1
# (1: the default model under TCG keeps the kernel's rep string routines;
# see clearcpuid below), VM_IMAGE (the kernel
# image to boot, default KERNEL_DIR/vmlinuz: make
# check gives the ELF image pvh-image.sh makes, booted through its PVH
# entry: no decompression under TCG, and no KASLR), VPMU=exact|model
# (also 1 for exact; default off: the virtual PMU, vpmu/abvpmu.c, loaded
# into qemu, its counts shared with the guest through an ivshmem-plain
# device's memory; model adds its branch and cache model), VPMU_CHANNEL=
# shm|9p (how the guest reads the counts: shm, the default, plain memory
# that the plugin writes while the marker executes; 9p, the counts file
# over virtio-9p at /ab/vpmu, whose replies arrive at host-timed moments:
# kept to compare with), VPMU_PLUGIN (the plugin, default
# the build tree's or the installed one), VPMU_OUT (a file that receives
# the plugin's counts of the whole boot), VM_ICOUNT=N (deterministic
# execution: qemu's -icount shift=N,sleep=off, the guest clock tied to the
# instruction count, and a fixed RTC, so that two boots with the same
# VM_SEED run the same instructions; single-threaded TCG, which every TCG
# boot here is), VM_SEED (a number put on the kernel command line as
# allocbench.seed=: the kernel mixes its command line into its random
# pool at boot, so the seed chooses the boot's random state, its slab
# freelists' shuffle among them).
#
# A WARN, BUG, Oops, soft lockup or hung task in the guest's kernel log fails
# the run with status 125 even when CMD succeeded; 126 means the guest never
# reported CMD's status (no boot, a crash, or VM_TIMEOUT ran out).
# `vm-run.sh --check-log <LOG` runs that check alone on a kernel log.
set -eu

# Every report of kernel misuse fails the run, whatever the command printed:
# WARN/BUG/Oops, lockups and stalls, sleeping in atomic context, SLUB debug
# reports (slub_debug=FZPU: "BUG <cache> (<taint>): <what>", whatever the
# cache's name), page poisoning ("pagealloc: memory corruption",
# mm/page_poison.c) and bad page state, kmemleak's
# reports, and an IRQ disabled as unhandled. The kernel command line is not
# a report, whatever it names. log_problems: those lines of the kernel log
# on stdin.
log_problems() {
	# arch/x86/kernel/cpu/bugs.c's notices about a CPU model's mitigations
	# ("RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable",
	# seen with VM_CPU=Skylake-Client; "Speculative Return Stack Overflow:
	# WARNING:" with EPYC) say "WARNING:" without being a WARN() splat
	grep -v 'Kernel command line:' |
		grep -v -E '\] (RETBleed|Speculative Return Stack Overflow|Spectre V2|MDS|TAA|MMIO Stale Data|GDS|RFDS|ITS): WARNING: ' |
		grep -E 'WARNING:|BUG:|BUG [^ ]+ \(|kernel BUG at|Oops|soft lockup|hard LOCKUP|hung task|rcu: INFO|self-detected stall|general protection|Call Trace|kmemleak: .*suspected memory leak|UBSAN|KASAN|scheduling while atomic|sleeping function called from invalid context|Poison overwritten|Redzone overwritten|Object already free|Freepointer corrupt|[Bb]ad page state|Bad page map|pagealloc: (memory corruption|single bit error)|nobody cared|Disabling IRQ|Kernel panic' || true
}

# vm-run.sh --check-log: the check alone, on a kernel log read from stdin
# (tests/cli/vm.sh tries it on logs written for it): its report lines and
# status 125 if it has any, else status 0
if [ "${1:-}" = --check-log ] && [ $# -eq 1 ]; then
	bad=$(log_problems)
	[ -z "$bad" ] && exit 0
	printf '%s\n' "$bad"
	exit 125
fi

if [ $# -ne 3 ]; then
	echo "usage: vm-run.sh KERNEL_DIR INITRD CMD (or: make vm-run CMD='...')" >&2
	exit 2
fi
kdir=$1
initrd=$2
cmd=$3
nodes=${NODES:-1}
mem=${VM_MEM:-1024}
smp=${VM_SMP:-2}
case $smp in
'' | *[!0-9]*) smp=bad ;;
*) smp=$(echo "$smp" | sed 's/^0*//') && smp=${smp:-0} ;;
esac
[ "$smp" = 0 ] && smp=bad
if [ "$smp" = bad ] || [ "$smp" -gt 16 ]; then
	echo "vm-run: VM_SMP=${VM_SMP:-}: allowed 1 to 16 vCPUs (single-threaded TCG runs them in turn on one host thread)" >&2
	exit 2
fi
if [ "$nodes" != 1 ] && [ "$smp" -lt 2 ]; then
	echo "vm-run: VM_SMP=$smp with NODES=$nodes: a node of CPUs each needs at least 2 vCPUs" >&2
	exit 2
fi
timeout_s=${VM_TIMEOUT:-900}
# allocbench.vm= tells the guest how it runs (lib/env.c reads it from
# /proc/cmdline): under tcg-single its vCPUs take turns on one host thread,
# so a run's header says --concurrent is no concurrency there
case ${VM_ACCEL:-tcg} in
tcg)
	accel="-accel tcg,thread=single"
	vmparam=allocbench.vm=tcg-single
	;;
# the host's CPU as it is: figures as near bare metal as a guest gets
kvm)
	accel="-accel kvm"
	[ -n "${VM_CPU:-}" ] || accel="$accel -cpu host"
	vmparam=allocbench.vm=kvm
	;;
*)
	echo "vm-run: VM_ACCEL=$VM_ACCEL: allowed values are tcg and kvm" >&2
	exit 2
	;;
esac

# VM_ICOUNT: one boot's run is a function of its inputs (the images, the
# command, the seed): the guest's time is its instruction count (sleep=off:
# an idle vCPU jumps to the next timer instead of waiting in host time), and
# the RTC starts at one date and runs on that clock. What stays
# host-timed would be virtio's completions (VPMU_CHANNEL=9p), which the
# measured regions never wait for but whose requests and interrupts change
# the slab state and the ticks a boot meets.
icount=
case ${VM_ICOUNT:-} in
'') ;;
[0-9] | 10)
	if [ "${VM_ACCEL:-tcg}" != tcg ]; then
		echo "vm-run: VM_ICOUNT needs TCG, not VM_ACCEL=$VM_ACCEL" >&2
		exit 2
	fi
	# one vCPU: a second one hung coming up under -icount (calibrate_delay
	# ran against the instruction clock); noreplace-smp keeps the SMP code
	# (lock prefixes) a kernel with one possible CPU would patch out, so
	# the code measured is a multi-CPU boot's
	if [ "$smp" != 1 ]; then
		echo "vm-run: VM_ICOUNT needs VM_SMP=1 (a second vCPU hung coming up under -icount)" >&2
		exit 2
	fi
	icount="-icount shift=$VM_ICOUNT,sleep=off -rtc base=2026-01-01T00:00:00,clock=vm"
	vmparam="$vmparam noreplace-smp allocbench.icount=$VM_ICOUNT"
	;;
*)
	echo "vm-run: VM_ICOUNT=$VM_ICOUNT: allowed values are 0 to 10 (qemu's -icount shift)" >&2
	exit 2
	;;
esac
case ${VM_SEED:-} in
'') ;;
*[!0-9]*)
	echo "vm-run: VM_SEED=$VM_SEED: a decimal number" >&2
	exit 2
	;;
*) vmparam="$vmparam allocbench.seed=$VM_SEED" ;;
esac
# allocbench.rng=: 32 bytes the guest's init credits to the kernel's random
# pool (ab-out --credit), so that its crng is ready at once rather than
# after 1-3 s of gathering jitter entropy under TCG: from the host's
# /dev/urandom, or with VM_SEED made from the seed alone, so that two
# boots of one seed still start alike
if [ -n "${VM_SEED:-}" ]; then
	rng=$(printf 'allocbench.seed=%s' "$VM_SEED" | sha256sum | cut -c1-64)
else
	rng=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
fi
vmparam="$vmparam allocbench.rng=$rng"

here=$(cd "$(dirname "$0")" && pwd)
vpmu=
case ${VPMU:-0} in
0 | off | "") ;;
1 | exact) vpmu=exact ;;
model) vpmu=model ;;
*)
	echo "vm-run: VPMU=$VPMU: allowed values are exact (or 1), model and off (or 0)" >&2
	exit 2
	;;
esac
case ${VPMU_CHANNEL:-shm} in
shm | 9p) ;;
*)
	echo "vm-run: VPMU_CHANNEL=$VPMU_CHANNEL: allowed values are shm and 9p" >&2
	exit 2
	;;
esac
if [ -n "$vpmu" ]; then
	if [ "${VM_ACCEL:-tcg}" != tcg ]; then
		echo "vm-run: VPMU=$VPMU needs TCG (the plugin counts what TCG executes), not VM_ACCEL=$VM_ACCEL" >&2
		exit 2
	fi
	so=${VPMU_PLUGIN:-}
	for c in "$here/../vpmu/abvpmu.so" "$here/../../build/vpmu/abvpmu.so"; do
		[ -n "$so" ] || [ ! -f "$c" ] || so=$c
	done
	if [ -z "$so" ] || [ ! -f "$so" ]; then
		echo "vm-run: VPMU=$VPMU: no virtual PMU plugin at ${so:-$here/../../build/vpmu/abvpmu.so} (make vpmu builds it)" >&2
		exit 1
	fi
fi

cpu=
if [ -n "${VM_CPU:-}" ]; then
	# a model qemu knows (`qemu-system-x86_64 -cpu help`), its first word
	# before any ,feature list
	if ! printf '%s' "$VM_CPU" | grep -Eq '^[A-Za-z0-9][A-Za-z0-9_.+-]*(,[A-Za-z0-9_.+=-]+)*$' ||
		! qemu-system-x86_64 -cpu help 2>/dev/null | awk '$1 == "x86" { print $2 }' | grep -qxF "${VM_CPU%%,*}"; then
		echo "vm-run: VM_CPU=$VM_CPU: not a CPU model qemu knows (qemu-system-x86_64 -cpu help lists them: qemu64, max, Skylake-Client, EPYC, ...)" >&2
		exit 2
	fi
	cpu="-cpu $VM_CPU"
	vmparam="$vmparam allocbench.cpu=$VM_CPU"
fi
# The default model under TCG boots with clearcpuid=rep_good: the kernel
# clears and copies pages (clear_page, copy_page; on 6.1 memset and memcpy
# too) with plain stores in loops instead of rep stosq/movsq. On a loaded
# host a vCPU inside a rep string instruction crawled: 144-240 bytes of one
# page's zeroing a second for 16-26 s while the other vCPU idled (qemu 7.2,
# single-threaded TCG, 6.1 beside three spinning 2-vCPU guests and a busy
# loop on 2 cores, sampled through qemu's monitor), which the guest's
# watchdog reports as a soft lockup (3 of 3 six-minute runs of order-9
# allocations crawled, 2 reported; with rep_good cleared 0 of 2). The
# kernel takes the last clearcpuid= it is given, so a clearcpuid= in
# APPEND is merged into this one, placed after APPEND (clearcpuid=erms
# there boots clearcpuid=rep_good,erms). The kernel taints itself for it
# (S, "CPU out of spec"). A model given in VM_CPU keeps its own features
# (what bench/vm-cpu-models.sh compares); VM_REP_GOOD=1 keeps the kernel's
# rep routines on the default model too (0, the default, clears them). The
# run's header names clearcpuid among its caveats (lib/kernel/env.c).
case ${VM_REP_GOOD:-0} in
0 | 1) ;;
*)
	echo "vm-run: VM_REP_GOOD=$VM_REP_GOOD: allowed values are 0 (the default: clearcpuid=rep_good) and 1 (keep rep_good)" >&2
	exit 2
	;;
esac
lastparam=
if [ "${VM_ACCEL:-tcg}" = tcg ] && [ -z "${VM_CPU:-}" ] && [ "${VM_REP_GOOD:-0}" != 1 ]; then
	# shellcheck disable=SC2086
	own=$(printf '%s\n' ${APPEND:-} | sed -n 's/^clearcpuid=//p' | tr '\n' ',' | sed 's/,*$//')
	lastparam="clearcpuid=rep_good${own:+,$own}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Ctrl-C reaches qemu too (same process group); then end as interrupted
trap 'exit 130' INT
trap 'exit 143' TERM

# CMD travels in a second gzip-compressed cpio archive appended to the
# initramfs (the kernel unpacks concatenated archives in order).
mkdir -p "$work/root/ab"
printf '%s\n' "$cmd" > "$work/root/ab/cmd"
# this boot's token: the guest's status markers carry it
tok=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$tok" > "$work/root/ab/token"
# Not compressed: the archive's size depends on the command alone, not
# on how well the token compresses, so the initramfs, and the memory the
# kernel reserves for it, is the same in every boot of one command.
(cd "$work/root" && find ab | cpio -o -H newc --quiet -R 0:0) > "$work/cmd.cpio"
# an uncompressed archive must start at a multiple of 4 bytes: zeros
# between the two (the kernel skips them)
pad=$(( (4 - $(wc -c <"$initrd") % 4) % 4 ))
{ cat "$initrd"; head -c "$pad" /dev/zero; cat "$work/cmd.cpio"; } > "$work/initrd"

case $nodes in
1)
	numa="-smp $smp"
	;;
2)
	half=$((mem / 2))
	# sockets=2: without it the kernel WARNs about the CPU topology.
	# The nodes' memory must add up to -m exactly (an odd VM_MEM too).
	# VM_SMP=2k: k CPUs a node (an odd count: the extra one on node 0)
	c0=$(((smp + 1) / 2))
	numa="-smp $smp,sockets=2,cores=$c0,threads=1,maxcpus=$((2 * c0))
	      -object memory-backend-ram,id=m0,size=${half}M
	      -object memory-backend-ram,id=m1,size=$((mem - half))M
	      -numa node,nodeid=0,cpus=0-$((c0 - 1)),memdev=m0
	      -numa node,nodeid=1,cpus=$c0-$((2 * c0 - 1)),memdev=m1"
	;;
3)
	# node 0: CPU 0 and memory; node 1: CPU 1, no memory; node 2: memory,
	# no CPU: the odd placements the checks must refuse.
	half=$((mem / 2))
	c0=$(((smp + 1) / 2))
	numa="-smp $smp,sockets=2,cores=$c0,threads=1,maxcpus=$((2 * c0))
	      -object memory-backend-ram,id=m0,size=${half}M
	      -object memory-backend-ram,id=m2,size=$((mem - half))M
	      -numa node,nodeid=0,cpus=0-$((c0 - 1)),memdev=m0
	      -numa node,nodeid=1,cpus=$c0-$((2 * c0 - 1))
	      -numa node,nodeid=2,memdev=m2"
	;;
*)
	echo "vm-run: NODES=$nodes: allowed values are 1, 2 and 3 (a CPU-only and a memory-only node)" >&2
	exit 2
	;;
esac

# The plugin is tried first (qemu without a machine), so that one qemu
# refuses (another API version, a bad argument) is one line, not a boot
plugin=
if [ -n "$vpmu" ]; then
	mkdir -p "$work/vpmu"
	popt="$so,out=$work/vpmu/counts,model=$([ "$vpmu" = model ] && echo on || echo off)"
	# shm: a file of 16 MiB (common/ab_vpmu.h, AB_VPMU_SHM_SIZE; ivshmem
	# wants a power of 2) that the plugin and the device map alike
	if [ "${VPMU_CHANNEL:-shm}" = shm ]; then
		: >"$work/vpmu/shm"
		truncate -s 16M "$work/vpmu/shm"
		popt="$popt,shm=$work/vpmu/shm"
	fi
	if ! echo q | qemu-system-x86_64 -M none -display none -nodefaults \
		-monitor stdio -plugin "$popt" >/dev/null 2>"$work/plugin.err"; then
		echo "vm-run: qemu refused the virtual PMU plugin $so: $(grep -v '^$' "$work/plugin.err" | tr '\n' ' ' | head -c 300)" >&2
		exit 1
	fi
	rm -f "$work/vpmu/counts"
	vmparam="$vmparam allocbench.vpmu=$vpmu"
	if [ "${VPMU_CHANNEL:-shm}" = shm ]; then
		plugin="-plugin $popt -object memory-backend-file,id=abvpmu,share=on,mem-path=$work/vpmu/shm,size=16M -device ivshmem-plain,memdev=abvpmu"
	else
		plugin="-plugin $popt -virtfs local,path=$work/vpmu,mount_tag=abvpmu,security_model=none,readonly=on"
		vmparam="$vmparam allocbench.vpmu_channel=9p"
	fi
fi

log=${VM_LOG:-$work/console.log}
# Two channels: ttyS0 is the kernel's console (to $log, with the guest's
# dmesg appended at the end); qemu's isa-debugcon (port 0xe9, written by
# the guest's /bin/ab-out, no interrupts) carries the command's output and
# status markers to stdout, so kernel messages never mix into the output.
#
# -accel tcg,thread=single: qemu 7.2's multi-threaded TCG let Debian 6.12
# (and 6.12-rt) die with "Oops: int3" in __schedule, most often while perf
# events were opened and closed. Opening an event flips static keys, which
# the kernel patches with text_poke_bp(): int3 on the first byte, IPI
# sync_core() on every CPU, the new bytes, sync again. A vCPU thread that
# still runs a translation of the old bytes (or of the int3) after the
# patcher released its breakpoint descriptor takes an int3 the kernel no
# longer owns. One TCG thread runs the vCPUs in turn, so no vCPU is ever
# inside a translation while another rewrites it. Seen on 6.12 only; used
# for every kernel so that all are booted alike.
#
# loglevel=5: a soft lockup's trace frames (KERN_WARNING) reach the console
# log, which quiet alone keeps to errors. no_timer_check: the boot's check
# that the IO-APIC routes the timer measures against wall-clock time, and
# on a loaded host a TCG guest panicked in it ("IO-APIC + timer doesn't
# work!"), as virtualized guests commonly do; the kernel skips it there.
#
# Default CPU model on purpose: -cpu max makes page zeroing ~6x slower
# under TCG (measured on 6.1.0-57 with 4 KiB allocations).
# --foreground: qemu stays in this process group, so Ctrl-C reaches it.
# shellcheck disable=SC2086
timeout --foreground "$timeout_s" qemu-system-x86_64 $accel $icount $cpu -m "$mem" $numa $plugin \
	-nographic -no-reboot -nodefaults \
	-chardev file,id=con,path="$work/con.raw" -serial chardev:con \
	-chardev stdio,id=out -device isa-debugcon,iobase=0xe9,chardev=out \
	-kernel "${VM_IMAGE:-$kdir/vmlinuz}" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=5 no_timer_check $vmparam ${APPEND:-}${lastparam:+ $lastparam}" </dev/null |
	tee "$work/out.log" | awk -v begin="@@AB-BEGIN-$tok@@" -v end="^@@AB-END-$tok rc=[0-9]+@@$" '
		# the output as the command wrote it, bytes unchanged; the line
		# held back is the one init adds before the end marker
		$0 == begin { on = 1; next }
		on && $0 ~ end { if (held != "") print held; on = 0; next }
		on { if (n++) print held; held = $0; fflush() }
	'
tr -d '\r' <"$work/con.raw" >"$log" 2>/dev/null || :
[ -z "$vpmu" ] || [ -z "${VPMU_OUT:-}" ] || cp "$work/vpmu/counts" "$VPMU_OUT" 2>/dev/null || :
if [ -n "$vpmu" ] && grep -q "^@@AB-VPMU-FAILED-$tok@@" "$work/out.log"; then
	echo "vm-run: VPMU=$VPMU: the guest cannot read the counts: $(sed -n "s/^@@AB-VPMU-FAILED-$tok@@ *//p" "$work/out.log" | head -n 1)" >&2
fi
if grep -q "^@@AB-RNG-UNSEEDED-$tok@@\$" "$work/out.log"; then
	echo "vm-run: warning: the guest's random number generator was not seeded within 120 s; the command ran anyway, and every get_random_*() in it extracted entropy (BLAKE2s) as it does before the kernel's crng is ready" >&2
fi
rc=$(sed -n "s/^@@AB-END-$tok rc=\([0-9]*\)@@\$/\1/p" "$work/out.log" | tail -n 1)
if grep -q "^@@AB-INSMOD-FAILED-$tok@@\$" "$work/out.log"; then
	echo "vm-run: insmod allocbench.ko failed in the guest:" >&2
	sed -n "/^@@AB-BOOTED-$tok@@\$/,/^@@AB-INSMOD-FAILED-$tok@@\$/p" "$work/out.log" |
		grep -v '^@@AB-' >&2
	sed -n "/^@@AB-DMESG-$tok@@\$/,/^@@AB-DMESG-END-$tok@@\$/p" "$log" | tail -n 5 >&2
fi
if [ -z "$rc" ]; then
	if ! grep -q "^@@AB-BOOTED-$tok@@\$" "$work/out.log"; then
		echo "vm-run: the guest did not boot; last console lines:" >&2
	else
		echo "vm-run: the guest did not finish the command within ${timeout_s}s or crashed; last console lines:" >&2
	fi
	# a last line without a newline (the firmware's) gets one: what the
	# caller prints next starts a line (a TAP "not ok" line must)
	tail -n 20 "$log" | sed '$a\' >&2
	exit 126
fi
if ! grep -q "^@@AB-DMESG-END-$tok@@\$" "$log"; then
	echo "vm-run: the guest's kernel log did not arrive whole; last console lines:" >&2
	# a last line without a newline (the firmware's) gets one: what the
	# caller prints next starts a line (a TAP "not ok" line must)
	tail -n 20 "$log" | sed '$a\' >&2
	exit 126
fi

bad=$(sed -n "/^@@AB-DMESG-$tok@@\$/,/^@@AB-DMESG-END-$tok@@\$/p" "$log" | log_problems)
if [ -n "$bad" ]; then
	echo "vm-run: the guest kernel log reports a problem:" >&2
	printf '%s\n' "$bad" | head -n 20 >&2
	# the first report with what follows it (a soft lockup's trace
	# frames, which the patterns above do not match)
	echo "vm-run: the kernel log from the first report on:" >&2
	sed -n "/^@@AB-DMESG-$tok@@\$/,/^@@AB-DMESG-END-$tok@@\$/p" "$log" |
		grep -F -A 40 -- "$(printf '%s\n' "$bad" | head -n 1)" | head -n 41 >&2
	exit 125
fi
[ "$rc" = 0 ] || echo "vm-run: the guest command exited with status $rc" >&2
exit "$rc"
