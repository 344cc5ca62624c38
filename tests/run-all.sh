#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh - every test of `make check`: cmocka unit tests, CLI tests
# and style checks on the host, then the in-kernel tests in the embedded
# kernel with one and with two NUMA nodes. Everything speaks TAP; the closing line counts it:
# "N passed, N failed". Exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# vm NODES SCRIPT [APPEND]: SCRIPT's TAP lines, then one for the kernel log
vm() {
	NODES=$1 APPEND=${3:-} sh scripts/vm/vm-run.sh \
		"$(cat build/vm/kernel-dir)" build/vm/initrd.gz "sh /ab/$2"
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok - guest $2 ($1 node(s) ${3:-}): finished, kernel log clean"
	else
		echo "not ok - guest $2 ($1 node(s) ${3:-}): vm-run exit $rc (125: WARN/BUG/Oops in the kernel log; 126: no status)"
	fi
}

{
	echo "# unit tests (cmocka)"
	for t in build/tests/test_*; do
		CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	echo "# command line on the host"
	sh tests/cli/cli.sh ./allocbench
	sh tests/cli/completion.sh .
	sh tests/cli/install.sh
	echo "# style: checkpatch --strict, clang-format, SPDX"
	sh scripts/lint.sh
	echo "# embedded kernel, 1 NUMA node"
	vm 1 guest.sh
	echo "# embedded kernel, 2 NUMA nodes"
	vm 2 guest.sh
	echo "# JSON output of every subcommand against the schema"
	sh tests/json/validate.sh "$(cat build/vm/kernel-dir)" build/vm/initrd.gz
	echo "# embedded kernel, a CPU-only and a memory-only node"
	vm 3 placement.sh
	echo "# embedded kernel booted with init_on_alloc=0 slab_nomerge"
	vm 1 env.sh "init_on_alloc=0 slab_nomerge"
} 2>&1 | tee "$log"

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
