#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh MATRIX - every test of `make check`: cmocka unit tests, CLI
# tests and style checks on the host, then for each kernel of MATRIX (lines
# "KERNEL BUILD_DIR", written by `make vm-images`) the module's build log
# and the in-kernel tests in the embedded kernel. The first kernel (the
# default, 6.1) gets the full in-guest suites: guest.sh with one NUMA node
# and its node tests with two, the JSON documents, the odd NUMA shapes, the
# boot-option and the debug boots. Each other kernel gets one boot of
# guest.sh's focused suite: what differs by kernel (guest.sh says what).
# Everything speaks TAP; each in-guest line is prefixed with its kernel.
# At the end, the time of each part (a table of "#" lines), then the
# closing line counts it: "N passed, N failed". Exits 1 if anything failed.
#
# Environment: LOAD=1 runs a busy loop on one core beside the whole suite
# (ended with it, and never longer than LOAD_MAX seconds, default 3600):
# the suite must pass on a busy machine as on an idle one. AB_CHECK_T0 and
# AB_CHECK_T1 (`make check` sets them): when make check started and when
# its package step ended, for the table's first rows.
set -u
cd "$(dirname "$0")/.."
matrix=${1:-build/vm/matrix}
log=$(mktemp)
times=$(mktemp)
hog=
trap 'rm -f "$log" "$times"; [ -z "$hog" ] || kill "$hog" 2>/dev/null' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
t_start=$(date +%s)

# part NAME CMD...: runs CMD; its wall-clock seconds go to the table
part() {
	p_name=$1
	shift
	p_t0=$(date +%s)
	"$@"
	p_rc=$?
	echo "$(($(date +%s) - p_t0)) $p_name" >>"$times"
	return $p_rc
}

if [ "${LOAD:-0}" = 1 ]; then
	# GNU timeout leads its own process group and passes the kill on
	timeout "${LOAD_MAX:-3600}" sh -c 'while :; do :; done' &
	hog=$!
	echo "# LOAD=1: a busy loop on one core beside the suite (pid $hog, for at most ${LOAD_MAX:-3600} s)"
fi

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

unit() {
	for t in build/tests/test_*; do
		CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
}

host_cli() {
	sh tests/cli/cli.sh ./allocbench
	sh tests/cli/completion.sh .
	sh tests/cli/plot.sh ./allocbench
	sh tests/cli/install.sh
}

# kernel NAME BUILD_DIR SUITE: the in-guest suites on one kernel, each boot
# timed. SUITE full (the first kernel): guest.sh's full suite with one
# node and its NUMA tests with two, the JSON documents, the odd NUMA shapes,
# the boot options, and SLUB debugging with page poisoning (debug.sh).
# SUITE focused (the others): guest.sh's focused suite in one boot, the
# tests whose outcome depends on the kernel (guest.sh lists them). What
# does not depend on it (the CLI's checks and outputs, the schemas, NUMA
# placement, the same module code under debugging) ran on the first.
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
	if [ "$3" != full ]; then
		echo "# embedded kernel, 1 NUMA node: guest.sh's focused suite (what differs by kernel; the rest ran on the first kernel)"
		part "$1: guest.sh focused, 1 node" vm "$kdir" "$initrd" 1 "guest.sh focused"
		return
	fi
	echo "# embedded kernel, 1 NUMA node: guest.sh's full suite"
	part "$1: guest.sh full, 1 node" vm "$kdir" "$initrd" 1 "guest.sh full"
	echo "# embedded kernel, 2 NUMA nodes: guest.sh's NUMA tests"
	part "$1: guest.sh numa, 2 nodes" vm "$kdir" "$initrd" 2 "guest.sh numa"
	echo "# JSON output of every subcommand against the schema"
	part "$1: json.sh, 2 nodes (validate.sh)" sh tests/json/validate.sh "$kdir" "$initrd"
	echo "# embedded kernel, a CPU-only and a memory-only node"
	part "$1: placement.sh, 3 nodes" vm "$kdir" "$initrd" 3 placement.sh
	echo "# embedded kernel booted with init_on_alloc=0 slab_nomerge"
	part "$1: env.sh, init_on_alloc=0 slab_nomerge" vm "$kdir" "$initrd" 1 env.sh "init_on_alloc=0 slab_nomerge"
	# the module's use of memory is the same code on every kernel, and
	# SLUB's and the page allocator's checks the same in 6.1 and 6.12
	echo "# embedded kernel booted with slub_debug=FZPU page_poison=1 init_on_free=1: the ioctl suite, the fuzzer, the life cycle"
	part "$1: debug.sh, slub_debug page_poison" vm "$kdir" "$initrd" 1 debug.sh "slub_debug=FZPU page_poison=1 init_on_free=1"
}

{
	echo "# unit tests (cmocka)"
	part "unit tests (cmocka)" unit
	echo "# command line on the host"
	part "host CLI: cli.sh, completion.sh, plot.sh, install.sh" host_cli
	part "host: vm.sh (the embedded kernel's knobs)" sh tests/cli/vm.sh "$(head -n 1 "$matrix" | cut -d' ' -f2)"
	echo "# allocbench vm: kernels compared boot by boot"
	part "host: vmab.sh (allocbench vm)" sh tests/cli/vmab.sh
	echo "# style: checkpatch --strict, clang-format, SPDX"
	part "lint (make lint)" sh scripts/lint.sh
	suite=full
	while read -r name dir; do
		tag=$(basename "$name" | tr -d '|')
		kernel "$name" "$dir" "$suite" 2>&1 |
			sed "s|^\(\(not \)\{0,1\}ok\( [0-9]*\)\{0,1\}\) - |\1 - [$tag] |"
		suite=focused
	done <"$matrix"
	if [ "${DKMS:-0}" = 1 ]; then
		part "dkms (DKMS=1)" sh tests/dkms.sh "$matrix"
	else
		echo "ok - dkms: not tried (it installs dkms and linux-headers system-wide: DKMS=1 make check, as CI does) # SKIP"
	fi
} 2>&1 | tee "$log"

# the time of each part, then the total (make check's, from its start)
t_end=$(date +%s)
echo "# time of each part (wall clock, seconds)"
if [ -n "${AB_CHECK_T0:-}" ] && [ -n "${AB_CHECK_T1:-}" ]; then
	printf '#   %-50s %5d\n' "packages (make deps)" $((AB_CHECK_T1 - AB_CHECK_T0)) \
		"build: CLI, tests, kernels downloaded, images" $((t_start - AB_CHECK_T1))
fi
while read -r secs name; do
	printf '#   %-50s %5d\n' "$name" "$secs"
done <"$times"
total=$((t_end - ${AB_CHECK_T0:-$t_start}))
printf '#   %-50s %5d (%dm%02ds)%s\n' "total" "$total" $((total / 60)) $((total % 60)) \
	"$([ "${LOAD:-0}" = 1 ] && echo ", LOAD=1")"

# TAP: "# SKIP" marks a test not run here (cmocka writes "not ok N # SKIP")
skipped=$(grep -E -c '^(not )?ok .*# SKIP' "$log")
passed=$(grep '^ok ' "$log" | grep -c -v '# SKIP')
failed=$(grep '^not ok ' "$log" | grep -c -v '# SKIP')
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
