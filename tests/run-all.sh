#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh MATRIX - every test of `make check`: cmocka unit tests, CLI
# tests and style checks on the host, then for each kernel of MATRIX (lines
# "KERNEL BUILD_DIR", written by `make vm-images`) the module's build log
# and the in-kernel tests in the embedded kernel with one, two and three
# NUMA nodes and with other boot options. Everything speaks TAP; each
# in-guest line is prefixed with its kernel. The closing line counts it:
# "N passed, N failed". Exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.."
matrix=${1:-build/vm/matrix}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# vm KERNEL_DIR INITRD NODES SCRIPT [APPEND]: SCRIPT's TAP lines, then one
# for the kernel log
vm() {
	NODES=$3 APPEND=${5:-} sh scripts/vm/vm-run.sh "$1" "$2" "sh /ab/$4"
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok - guest $4 ($3 node(s) ${5:-}): finished, kernel log clean"
	else
		echo "not ok - guest $4 ($3 node(s) ${5:-}): vm-run exit $rc (125: a kernel problem in the log; 126: no status)"
	fi
}

# kernel NAME BUILD_DIR [DEBUG]: the whole in-guest suite on one kernel;
# with DEBUG also under SLUB debugging and page poisoning (debug.sh)
kernel() {
	kdir=$(cat "$2/kernel-dir")
	initrd=$2/initrd.gz
	echo "# kernel $1: $(cat "$kdir/release")"
	if grep -i 'warning:' "$2/kmod/build.log"; then
		echo "not ok - kmod: allocbench.ko builds with warnings"
	else
		echo "ok - kmod: allocbench.ko builds warning-free"
	fi
	sh tests/kernel/shape.sh "$2/kmod/allocbench.ko"
	echo "# embedded kernel, 1 NUMA node"
	vm "$kdir" "$initrd" 1 guest.sh
	# PREEMPT_RT changes locking and preemption, not NUMA placement, which
	# the same kernel series tests with two nodes: its one-node boot and
	# rt.sh cover it (make check has 20 minutes for everything)
	case $1 in
	*-rt)
		echo "ok - guest guest.sh (2 node(s)) on $1: not run; the non-RT kernel of the series runs it # SKIP"
		;;
	*)
		echo "# embedded kernel, 2 NUMA nodes"
		vm "$kdir" "$initrd" 2 guest.sh
		;;
	esac
	echo "# JSON output of every subcommand against the schema"
	sh tests/json/validate.sh "$kdir" "$initrd"
	echo "# embedded kernel, a CPU-only and a memory-only node"
	vm "$kdir" "$initrd" 3 placement.sh
	echo "# embedded kernel booted with init_on_alloc=0 slab_nomerge"
	vm "$kdir" "$initrd" 1 env.sh "init_on_alloc=0 slab_nomerge"
	# Once per run, on the first kernel: the module's use of memory is the
	# same code on every kernel and SLUB's and the page allocator's checks
	# the same in 6.1 and 6.12, while each debug boot costs ~1.5 min more
	# of the guest (6.1, TCG).
	if [ -n "${3:-}" ]; then
		echo "# embedded kernel booted with slub_debug=FZPU page_poison=1 init_on_free=1: the ioctl suite, the fuzzer, the life cycle"
		vm "$kdir" "$initrd" 1 debug.sh "slub_debug=FZPU page_poison=1 init_on_free=1"
	fi
}

{
	echo "# unit tests (cmocka)"
	for t in build/tests/test_*; do
		CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	echo "# command line on the host"
	sh tests/cli/cli.sh ./allocbench
	sh tests/cli/conventions.sh ./allocbench
	sh tests/cli/completion.sh .
	sh tests/cli/plot.sh ./allocbench
	sh tests/cli/install.sh
	sh tests/cli/vm.sh "$(head -n 1 "$matrix" | cut -d' ' -f2)"
	echo "# allocbench vm: kernels compared boot by boot"
	sh tests/cli/vmab.sh
	echo "# style: checkpatch --strict, clang-format, SPDX"
	sh scripts/lint.sh
	first=debug
	while read -r name dir; do
		tag=$(basename "$name" | tr -d '|')
		kernel "$name" "$dir" "$first" 2>&1 |
			sed "s|^\(\(not \)\{0,1\}ok\( [0-9]*\)\{0,1\}\) - |\1 - [$tag] |"
		first=
	done <"$matrix"
	if [ "${DKMS:-0}" = 1 ]; then
		sh tests/dkms.sh "$matrix"
	else
		echo "ok - dkms: not tried (it installs dkms and linux-headers system-wide: DKMS=1 make check, as CI does) # SKIP"
	fi
} 2>&1 | tee "$log"

# TAP: "# SKIP" marks a test not run here (cmocka writes "not ok N # SKIP")
skipped=$(grep -E -c '^(not )?ok .*# SKIP' "$log")
passed=$(grep '^ok ' "$log" | grep -c -v '# SKIP')
failed=$(grep '^not ok ' "$log" | grep -c -v '# SKIP')
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
