#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm.sh BUILD_DIR - the embedded kernel's knobs, from the host (TAP lines):
# KERNEL values that name no kernel are refused with the allowed forms, CMD
# reaches the guest's shell verbatim, the command's output carries no
# kernel messages and comes through whole, the kernel log check fails runs
# that show misuse (and only those), Ctrl-C ends a run, and a user's own
# kernel build tree (here: one laid out from a Debian kernel's headers and
# image, as `make modules_prepare` leaves a tree) builds the module and
# boots. BUILD_DIR is a kernel's build/vm/<kernel> (make check passes the
# first of its matrix), already built.
cd "$(dirname "$0")/../.." || exit 1
b=${1:-build/vm/6.1}
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" build/vm/x "build/vm/$(printf %s "$tmp/linux" | tr -c "A-Za-z0-9._-" _)"' EXIT

expect 2 "KERNEL=5.x: not a kernel; allowed: a Debian series" "vm: KERNEL=5.x refused with the allowed forms" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" 5.x
expect 2 "no such directory" "vm: KERNEL=./nosuch refused" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" ./nosuch
expect 2 "not a directory" "vm: KERNEL=/etc/passwd refused: not a directory" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" /etc/passwd
expect 2 "Debian has no such kernel" "vm: KERNEL=99.99 (the form of a series, no such kernel) refused with status 2" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" 99.99
out=$(make --no-print-directory vm-run KERNEL="6.1'x" CMD=true 2>&1)
if printf '%s\n' "$out" | grep -q "KERNEL=6.1'x: not a kernel" && ! printf '%s\n' "$out" | grep -q "Syntax error"; then
	ok "vm: a quote in KERNEL reaches the check, not the shell"
else
	notok "vm: a quote in KERNEL reaches the check, not the shell ($out)"
fi
rm -rf "build/vm/6.1_x"
mkdir -p "$tmp/half"
expect 2 "arch/x86/boot/bzImage is missing" "vm: a build tree without bzImage refused, naming what is missing" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" "$tmp/half"
# a tree prepared for modules but never built: modules_prepare writes no
# Module.symvers, so the advice names make modules
mkdir -p "$tmp/half/arch/x86/boot" "$tmp/half/include/config"
touch "$tmp/half/arch/x86/boot/bzImage" "$tmp/half/.config" "$tmp/half/include/config/kernel.release"
expect 2 "Module.symvers is missing; \`make modules\` writes it (\`make modules_prepare\` does not)" \
	"vm: a build tree without Module.symvers refused, advising make modules" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" "$tmp/half"
expect 2 "KERNEL=x" "vm: make vm-run KERNEL=x fails with the reason" -- \
	make --no-print-directory vm-run KERNEL=x CMD=true

# One boot, through make vm-run with a boot option: CMD reaches the guest
# verbatim ($x is the guest shell's variable, quotes survive), kernel
# messages stay on the console, out of the output, an ordinary error line
# in the kernel log and a boot option that names kmemleak are no kernel
# report, and output without a final newline comes through
out=$(make --no-print-directory vm-run APPEND="kmemleak=off clearcpuid=erms" CMD='x=5; echo "x is $x '"'q'"'";
echo "<0>allocbench-test-message" >/dev/kmsg; echo "<3>test: an ordinary error line" >/dev/kmsg;
echo "rng $(grep -o "allocbench\.rng=[0-9a-f]*" /proc/cmdline | cut -c16- | tr -d "\n" | wc -c) $(dmesg | grep -c "crng init done")";
echo "rep_good $(grep -c -w rep_good /proc/cpuinfo) $(grep -o "clearcpuid=[^ ]*" /proc/cmdline | tail -n 1)";
sleep 1; printf after' 2>&1)
st=$?
if [ "$st" = 0 ] && printf '%s\n' "$out" | grep -q "^x is 5 'q'\$"; then
	ok "vm: CMD reaches the guest verbatim (\$x, quotes)"
else
	notok "vm: CMD reaches the guest verbatim (exit $st: $(printf '%s' "$out" | head -c 300))"
fi
if [ "$st" = 0 ] && printf '%s\n' "$out" | grep -q '^after$'; then
	ok "vm: kernel messages do not mix into the command's output; output without a final newline comes through"
else
	notok "vm: kernel messages do not mix into the command's output (exit $st: $(printf '%s' "$out" | head -c 300))"
fi
# the crng seeded from the host at once (allocbench.rng=, ab-out --credit),
# ready before the command
if printf '%s\n' "$out" | grep -q '^rng 64 1$' && ! printf '%s\n' "$out" | grep -q '^ab-out:'; then
	ok "vm: the guest's crng is ready when the command starts, seeded with the 32 bytes of allocbench.rng="
else
	notok "vm: the guest's crng seeded by allocbench.rng= ($(printf '%s' "$out" | grep -e '^rng' -e '^ab-out' | head -c 300))"
fi
# the default model under TCG without rep_good (vm-run.sh: a rep string
# instruction crawled on a loaded host), and the kernel's own choice kept
# with VM_REP_GOOD=1 (the boot below)
if printf '%s\n' "$out" | grep -q '^rep_good 0 clearcpuid=rep_good,erms$'; then
	ok "vm: the default TCG guest boots with clearcpuid=rep_good, APPEND's clearcpuid=erms merged into the last one: no CPU lists rep_good"
else
	notok "vm: the default TCG guest's rep_good ($(printf '%s' "$out" | grep '^rep_good' | head -c 300))"
fi
expect 1 "ab-out: --credit 0g: allowed 2 to 128 hex digits" "vm: ab-out --credit refuses what is not hex (status 1)" -- \
	"$b/ab-out" --credit 0g
if printf '%s\n' "$out" | grep -q allocbench-test-message; then
	notok "vm: an emergency kernel message is not in the output ($out)"
else
	ok "vm: an emergency kernel message is not in the output"
fi
if [ "$st" = 0 ]; then
	ok "vm: a boot option that names kmemleak and an ordinary error line are no kernel report"
else
	notok "vm: a boot option that names kmemleak and an ordinary error line are no kernel report (exit $st)"
fi
# The kernel log check (vm-run.sh's log_problems) on logs written for it,
# as dmesg prints the kernel's reports (mm/slub.c slab_bug(),
# mm/page_poison.c, mm/page_alloc.c bad_page(), kernel/sched/core.c
# __might_resched(), kernel/irq/spurious.c; issue 16), a cache name in
# capitals too (TCPv6); then two boots: a report at the error level, and a
# WARN at the warning level (not printed on the quiet console: the check
# reads the guest's dmesg).
cat >"$tmp/reports" <<'REPORTS'
nobody cared|[    5.101010] irq 4: nobody cared (try booting with the irqpoll option)
scheduling while atomic|[    5.101010] BUG: scheduling while atomic: x/1/0x00000002
Redzone overwritten|[    5.101010] Redzone overwritten
Poison overwritten|[    5.101010] BUG kmalloc-64 (Tainted: G           OE     ): Poison overwritten
Object already free|[    5.101010] BUG kmalloc-128 (Not tainted): Object already free
BUG TCPv6|[    5.101010] BUG TCPv6 (Not tainted): Wrong object count. Counter is 3 but counted were 2
sleeping function called from invalid context|[    5.101010] BUG: sleeping function called from invalid context at mm/slub.c:1
Bad page state|[    5.101010] BUG: Bad page state in process x  pfn:01234
pagealloc: memory corruption|[    5.101010] pagealloc: memory corruption
WARNING: CPU: 0 PID: 1 at|[    5.101010] WARNING: CPU: 0 PID: 1 at kmod/x.c:1 f+0x0/0x1
REPORTS
while IFS='|' read -r pat line <&3; do
	printf '[    0.000000] Linux version 6.1.0-57-amd64\n%s\n[    5.200000] after\n' "$line" >"$tmp/log"
	expect 125 "$pat" "vm: '$pat' in the kernel log fails the run (the log check)" -- \
		sh scripts/vm/vm-run.sh --check-log <"$tmp/log"
done 3<"$tmp/reports"
printf '%s\n' '[    0.000000] Kernel command line: console=ttyS0 panic=-1 quiet kmemleak=off slub_debug=FZPU' \
	'[    3.000000] test: an ordinary error line' '[    3.100000] allocbench: loaded' >"$tmp/log"
expect 0 "" "vm: an ordinary kernel log passes the log check, boot options naming kmemleak or SLUB debugging too" -- \
	sh scripts/vm/vm-run.sh --check-log <"$tmp/log"
# bugs.c's mitigation notices of a CPU model (VM_CPU=Skylake-Client, EPYC)
# say WARNING: without being a WARN() splat; a splat beside them still fails
printf '%s\n' '[    0.047255] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!' \
	'[    0.056006] Speculative Return Stack Overflow: WARNING: See https://kernel.org/doc/html/latest/admin-guide/hw-vuln/srso.html for mitigation options.' >"$tmp/log"
expect 0 "" "vm: a CPU model's mitigation notices (RETBleed, SRSO: WARNING:) pass the log check" -- \
	sh scripts/vm/vm-run.sh --check-log <"$tmp/log"
printf '%s\n' '[    5.101010] WARNING: CPU: 0 PID: 1 at kmod/x.c:1 f+0x0/0x1' >>"$tmp/log"
expect 125 "WARNING: CPU: 0 PID: 1 at" "vm: a WARN beside those notices still fails the run" -- \
	sh scripts/vm/vm-run.sh --check-log <"$tmp/log"
# a kernel report in the log fails the run even when the command succeeded
k61=$(cat "$b/kernel-dir")
# the direct vm-run.sh boots below test its mechanics, not a measurement:
# through the PVH entry when make check made the image (7 s less each)
img=
[ -e "$b/vmlinux.pvh" ] && img=$b/vmlinux.pvh
vmrun() { VM_IMAGE=$img sh scripts/vm/vm-run.sh "$@"; }
expect 125 "Redzone overwritten" "vm: a SLUB debug report in the kernel log fails the run" -- \
	vmrun "$k61" "$b/initrd.gz" \
	'echo "<3>Redzone overwritten" >/dev/kmsg'
expect 125 "WARNING: CPU: 0 PID: 1 at" "vm: a WARN at the kernel's warning level (not printed on the quiet console) fails the run" -- \
	vmrun "$k61" "$b/initrd.gz" \
	'echo "<4>WARNING: CPU: 0 PID: 1 at kmod/x.c:1 f+0x0/0x1" >/dev/kmsg'
# VM_SMP: refused outside 1..16 (and below 2 with NODES=2) before any
# boot; 4 vCPUs over 2 nodes boot as 2 a node (issue 24: cross-CPU frees)
expect 2 "VM_SMP=17: allowed 1 to 16 vCPUs" "vm: VM_SMP=17 refused with what is allowed" -- \
	env VM_SMP=17 sh scripts/vm/vm-run.sh "$k61" "$b/initrd.gz" true
expect 2 "VM_REP_GOOD=yes: allowed values are 0 (the default: clearcpuid=rep_good) and 1" \
	"vm: VM_REP_GOOD=yes refused with what is allowed" -- \
	env VM_REP_GOOD=yes sh scripts/vm/vm-run.sh "$k61" "$b/initrd.gz" true
expect 2 "VM_SMP=x: allowed 1 to 16" "vm: VM_SMP=x refused" -- \
	env VM_SMP=x sh scripts/vm/vm-run.sh "$k61" "$b/initrd.gz" true
expect 2 "VM_SMP=1 with NODES=2" "vm: VM_SMP=1 with NODES=2 refused" -- \
	env VM_SMP=1 NODES=2 sh scripts/vm/vm-run.sh "$k61" "$b/initrd.gz" true
expect 2 "vm: --smp=.0.: allowed 1 to 16 vCPUs" "vm: allocbench vm --smp=0 refused" -- \
	./allocbench vm --smp=0 --kernel=6.1 -- run
# output: whole; the status markers of this boot alone end it; what the
# command left running is ended (one boot for 300 KB of binary output and
# a process left running)
# (this boot has 4 vCPUs over 2 nodes, VM_SMP=4 NODES=2: 2 a node)
expect 3 "^after$" "vm: a command printing a status marker neither ends nor fakes the run" -- \
	env VM_SMP=4 NODES=2 VM_REP_GOOD=1 VM_IMAGE="$img" sh scripts/vm/vm-run.sh "$k61" "$b/initrd.gz" \
	'echo "cpus $(grep -c ^processor /proc/cpuinfo) node0 $(cat /sys/devices/system/node/node0/cpulist) node1 $(cat /sys/devices/system/node/node1/cpulist)"; echo "rep_good $(grep -c -w rep_good /proc/cpuinfo) $(grep -c clearcpuid /proc/cmdline)"; echo "@@AB-END rc=0@@"; echo after; exit 3'
if printf '%s\n' "$out" | grep -q "^cpus 4 node0 0-1 node1 2-3$"; then
	ok "vm: VM_SMP=4 NODES=2 boots 4 vCPUs, 2 a node"
else
	notok "vm: VM_SMP=4 NODES=2: 4 vCPUs, 2 a node ($(printf '%s' "$out" | head -c 300))"
fi
if printf '%s\n' "$out" | grep -q "^rep_good 4 0$"; then
	ok "vm: VM_REP_GOOD=1 keeps the kernel's rep_good on every CPU (no clearcpuid)"
else
	notok "vm: VM_REP_GOOD=1: $(printf '%s' "$out" | grep '^rep_good' | head -c 300)"
fi
VM_TIMEOUT=120 vmrun "$k61" "$b/initrd.gz" \
	'sleep 1000 & head -c 300000 /dev/urandom >/tmp/r; md5sum </tmp/r; cat /tmp/r; echo' >"$tmp/bin" 2>&1
st=$?
if [ "$(head -n 1 "$tmp/bin")" = "$(tail -c +37 "$tmp/bin" | head -c 300000 | md5sum)" ] &&
	[ "$(wc -c <"$tmp/bin")" = 300037 ]; then
	ok "vm: 300 KB of binary output (CR and NUL bytes too) arrive byte for byte"
else
	notok "vm: 300 KB of binary output arrive byte for byte ($(wc -c <"$tmp/bin") bytes)"
fi
if [ "$st" = 0 ]; then
	ok "vm: a process the command left running does not hold the guest"
else
	notok "vm: a process the command left running does not hold the guest (exit $st)"
fi
# Ctrl-C: the whole foreground process group gets SIGINT, qemu included
# (SIGINT back to its default in the child: a shell cannot trap a signal
# ignored when it started, as an asynchronous command's SIGINT is)
st=$(python3 - "$k61" "$b/initrd.gz" "$img" <<'PY'
import os, signal, subprocess, sys, time
p = subprocess.Popen(["sh", "scripts/vm/vm-run.sh", sys.argv[1], sys.argv[2],
                      "while :; do sleep 1; done"], start_new_session=True,
                     env=dict(os.environ, VM_IMAGE=sys.argv[3]),
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(8)
os.killpg(p.pid, signal.SIGINT)
try:
    print(p.wait(timeout=30))
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    print("hung")
PY
)
if [ "$st" = 130 ]; then ok "vm: Ctrl-C ends a run at once, status 130"; else notok "vm: Ctrl-C ends a run at once, status 130 (got $st)"; fi

# Debian headers for a compiler this host lacks (7.x: gcc-14 on Debian 12)
# build only through scripts/vm/build-kmod.sh, which stands in the host's
# gcc; a plain make kmod, and a user's tree laid out from them, cannot
want=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/\1/p' "$k61/headers/.kernelvariables" 2>/dev/null)
if [ -n "$want" ] && ! command -v "x86_64-linux-gnu-$want" >/dev/null && ! command -v "$want" >/dev/null; then
	ok "vm: make kmod and KERNEL=<a build tree> # SKIP $(cat "$k61/release")'s headers need $want, absent here (make vm-run builds through build-kmod.sh)"
	exit 0
fi

# make kmod with Debian's split header packages, KDIR=<-common> O=<arch>,
# as docs/kernels.md shows, given as relative paths (kbuild reads them from kmod/)
if [ -e "$k61/headers" ]; then
	kc=$(realpath --relative-to=. "$k61/headers-common")
	ka=$(realpath --relative-to=. "$k61/headers")
	if make --no-print-directory kmod KDIR="$kc" O="$ka" >"$tmp/kmod.log" 2>&1 &&
		[ -f kmod/allocbench.ko ]; then
		ok "vm: make kmod KDIR=<common headers> O=<arch headers> (relative paths) builds allocbench.ko"
	else
		notok "vm: make kmod KDIR=$kc O=$ka ($(tail -n 3 "$tmp/kmod.log"))"
	fi
	make -C kmod KDIR="$k61/headers-common" O="$k61/headers" clean >/dev/null 2>&1
fi

# A user's own build tree: a Debian kernel's arch headers laid out as a tree
# (its Makefile includes the common headers, as Debian's own does), with
# the image at arch/x86/boot/bzImage.
tree=$tmp/linux
if [ ! -e "$k61/headers" ]; then
	ok "vm: KERNEL=<a build tree> # SKIP the first kernel is not a Debian one"
	exit 0
fi
cp -rL "$k61/headers/." "$tree"
echo "include $(readlink -f "$k61/headers-common")/Makefile" >"$tree/Makefile"
mkdir -p "$tree/arch/x86/boot"
cp "$k61/vmlinuz" "$tree/arch/x86/boot/bzImage"
cat "$k61/release" >"$tree/include/config/kernel.release"
expect 0 "kernel:            $(cat "$k61/release")" "vm: KERNEL=<a build tree> builds the module there and boots it" -- \
	make --no-print-directory vm-run KERNEL="$tree" CACHE="$tmp/cache" CMD='allocbench info'
# the tree changes under the same release: the module is built again, not
# taken from the image or the cache. The tree's modpost is moved away
# first, so that build-kmod.sh, once asked, refuses the tree at once (a
# tree not prepared for external modules) instead of compiling the module
# a third time (about 20 s of CPU): that refusal is the rebuild asked for
tb=build/vm/$(printf %s "$tree" | tr -c "A-Za-z0-9._-" _)
before=$(cksum <"$tb/kmod/allocbench.ko")
sleep 1
echo "# changed" >>"$tree/.config"
touch "$tree/Module.symvers"
mv "$tree/scripts/mod/modpost" "$tree/scripts/mod/modpost.away"
make --no-print-directory vm-image KERNEL="$tree" CACHE="$tmp/cache" >"$tmp/rebuild.log" 2>&1
st=$?
if [ "$st" != 0 ] && grep -q "build-kmod: KERNEL=.* is not prepared for external modules (.*scripts/mod/modpost is missing)" "$tmp/rebuild.log"; then
	ok "vm: a changed build tree (.config, Module.symvers) has its module built again (build-kmod.sh asked, and refusing the tree without modpost)"
else
	notok "vm: a changed build tree builds its module again (status $st: $(tail -n 3 "$tmp/rebuild.log"); ko $before)"
fi
