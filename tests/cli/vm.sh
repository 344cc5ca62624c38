#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm.sh - the embedded kernel's knobs, from the host (TAP lines): KERNEL
# values that name no kernel are refused with the allowed forms, CMD reaches
# the guest's shell verbatim, the command's output carries no kernel
# messages, and a user's own kernel build tree (here: one laid out from
# Debian 6.1's headers and image, as `make modules_prepare` leaves a tree)
# builds the module and boots. Needs the 6.1 kernel in .cache (make check
# fetches it first).
cd "$(dirname "$0")/../.." || exit 1
. tests/kernel/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" build/vm/x "build/vm/$(printf %s "$tmp/linux" | tr -c "A-Za-z0-9._-" _)"' EXIT

expect 2 "KERNEL=5.x: not a kernel; allowed: a Debian series" "vm: KERNEL=5.x refused with the allowed forms" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" 5.x
expect 2 "no such directory" "vm: KERNEL=./nosuch refused" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" ./nosuch
mkdir -p "$tmp/half"
expect 2 "arch/x86/boot/bzImage is missing" "vm: a build tree without bzImage refused, naming what is missing" -- \
	sh scripts/vm/fetch-kernel.sh "$tmp/c" "$tmp/half"
expect 2 "KERNEL=x" "vm: make vm-run KERNEL=x fails with the reason" -- \
	make --no-print-directory vm-run KERNEL=x CMD=true

# CMD verbatim: $x is the guest shell's variable, quotes survive
expect 0 "x is 5 'q'" "vm: CMD reaches the guest verbatim (\$x, quotes)" -- \
	make --no-print-directory vm-run CMD='x=5; echo "x is $x '"'q'"'"'
# kernel messages stay on the console, out of the output
expect 0 "^after$" "vm: kernel messages do not mix into the command's output" -- \
	make --no-print-directory vm-run CMD='echo "<0>allocbench-test-message" >/dev/kmsg; sleep 1; echo after'
out=$(make --no-print-directory vm-run CMD='echo "<0>allocbench-test-message" >/dev/kmsg; sleep 1; echo after' 2>&1)
if printf '%s\n' "$out" | grep -q allocbench-test-message; then
	notok "vm: an emergency kernel message is not in the output ($out)"
else
	ok "vm: an emergency kernel message is not in the output"
fi
# a kernel report in the log fails the run even when the command succeeded
k61=$(cat build/vm/6.1/kernel-dir)
expect 125 "nobody cared" "vm: an IRQ disabled as unhandled in the kernel log fails the run" -- \
	sh scripts/vm/vm-run.sh "$k61" build/vm/6.1/initrd.gz \
	'echo "<3>irq 4: nobody cared (try booting with the irqpoll option)" >/dev/kmsg'
expect 125 "scheduling while atomic" "vm: scheduling while atomic in the kernel log fails the run" -- \
	sh scripts/vm/vm-run.sh "$k61" build/vm/6.1/initrd.gz \
	'echo "<3>BUG: scheduling while atomic: x/1/0x00000002" >/dev/kmsg'
expect 125 "Redzone overwritten" "vm: a SLUB debug report in the kernel log fails the run" -- \
	sh scripts/vm/vm-run.sh "$k61" build/vm/6.1/initrd.gz \
	'echo "<3>Redzone overwritten" >/dev/kmsg'

# A user's own build tree: Debian 6.1's arch headers laid out as a tree
# (its Makefile includes the common headers, as Debian's own does), with
# the image at arch/x86/boot/bzImage.
tree=$tmp/linux
cp -rL "$k61/headers/." "$tree"
echo "include $(readlink -f "$k61/headers-common")/Makefile" >"$tree/Makefile"
mkdir -p "$tree/arch/x86/boot"
cp "$k61/vmlinuz" "$tree/arch/x86/boot/bzImage"
cat "$k61/release" >"$tree/include/config/kernel.release"
expect 0 "kernel:            $(cat "$k61/release")" "vm: KERNEL=<a build tree> builds the module there and boots it" -- \
	make --no-print-directory vm-run KERNEL="$tree" CACHE="$tmp/cache" CMD='allocbench info'
